"""Device.memory_stats() on the hlograph platform (PJRT_Device_MemoryStats):
a dict whose bytes_in_use follows the arrays, with a peak at least as high.
On the CPU interpreter the bytes are the host bytes of live arrays; on a GPU
the process's device memory.

    python tests/pjrt/memory_stats_test.py path/to/libhlograph_pjrt.so
"""

import os
import sys

if len(sys.argv) > 1:
    os.environ["HLOGRAPH_PJRT_LIBRARY"] = sys.argv[1]
os.environ["JAX_PLATFORMS"] = "hlograph"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import hlograph_jax  # noqa: E402

hlograph_jax.initialize()

failures = []


def expect(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))
    if not ok:
        failures.append(name)


dev = jax.devices("hlograph")[0]
before = dev.memory_stats()
expect("a dict with bytes_in_use", isinstance(before, dict) and "bytes_in_use" in before, before)
if failures:
    sys.exit(1)
print("before:", before)

host = np.ones(1 << 20, np.float32)
x = jax.device_put(host, dev)
x.block_until_ready()
during = dev.memory_stats()
print("with a 4 MiB array:", during)
expect("grows by the array", during["bytes_in_use"] >= before["bytes_in_use"] + host.nbytes, (before, during))
expect("peak at least in use", during.get("peak_bytes_in_use", -1) >= during["bytes_in_use"], during)
expect("allocations counted", during.get("num_allocs", 0) > before.get("num_allocs", 0), (before, during))
expect("largest allocation", during.get("largest_alloc_size", 0) >= host.nbytes, during)

y = jax.jit(lambda v: v * 2)(x)
y.block_until_ready()
with_result = dev.memory_stats()
expect("a result is counted", with_result["bytes_in_use"] >= during["bytes_in_use"] + host.nbytes,
       (during, with_result))
y.delete()

x.delete()
after = dev.memory_stats()
print("after deleting it:", after)
expect("falls back once deleted", after["bytes_in_use"] <= with_result["bytes_in_use"] - host.nbytes, (with_result, after))
expect("the peak stays", after["peak_bytes_in_use"] >= with_result["bytes_in_use"], after)

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
