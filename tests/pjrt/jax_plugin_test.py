"""jax.jit on the hlograph platform (the PJRT plugin on the CPU backend),
checked against NumPy.

    python tests/pjrt/jax_plugin_test.py path/to/libhlograph_pjrt.so

The library is given by argument (or HLOGRAPH_PJRT_LIBRARY); the package in
python/ registers it, so the test runs whether or not the package is
pip-installed.
"""

import os
import sys

if len(sys.argv) > 1:
    os.environ["HLOGRAPH_PJRT_LIBRARY"] = sys.argv[1]
os.environ["JAX_PLATFORMS"] = "hlograph"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import hlograph_jax  # noqa: E402

hlograph_jax.initialize()  # for when the package is not pip-installed; a second call does nothing

failures = []


def check(name, got, expected, rtol=1e-6):
    try:
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=rtol)
        print(f"ok   {name}")
    except AssertionError as e:
        failures.append(name)
        print(f"FAIL {name}: {e}")


devices = jax.devices()
assert devices[0].platform == "hlograph", devices
print("devices:", devices)

x = jnp.arange(3.0)
check("jit x*2", jax.jit(lambda v: v * 2)(x), np.arange(3.0) * 2)

a = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
b = np.random.default_rng(1).standard_normal((5, 3)).astype(np.float32)
mm = jax.jit(lambda p, q: jnp.tanh(p @ q) + 1.0)
for i in range(3):  # repeated calls
    check(f"matmul call {i}", mm(a, b), np.tanh(a @ b) + 1.0, rtol=1e-5)

pytree = jax.jit(lambda v: {"sum": v.sum(), "pair": (v + 1, v.astype(jnp.int32))})(jnp.arange(4.0))
check("pytree sum", pytree["sum"], 6.0)
check("pytree pair 0", pytree["pair"][0], np.arange(4.0) + 1)
check("pytree pair 1", pytree["pair"][1], np.arange(4))

put = jax.device_put(np.arange(6, dtype=np.int32).reshape(2, 3))
put.block_until_ready()
check("device_put", put, np.arange(6).reshape(2, 3))
add = jax.jit(lambda v: v + 10)
mul = jax.jit(lambda v: v * 3)  # two executables alive at once
check("two executables", add(mul(put)), np.arange(6).reshape(2, 3) * 3 + 10)

import warnings  # noqa: E402

# compiled.as_text(): the plugin hands back the module it compiled.
text = jax.jit(lambda v: jnp.tanh(v) * 2).lower(x).compile().as_text()
if not text or "tanh" not in text:
    failures.append("as_text")
    print(f"FAIL as_text: {text!r}")
else:
    print("ok   as_text")

given = jnp.ones(3)
with warnings.catch_warnings():
    warnings.simplefilter("error")  # "Some donated buffers were not usable" fails the test
    donated = jax.jit(lambda v: v * 2, donate_argnums=0)(given)
check("donation", donated, np.full(3, 2.0))
if not given.is_deleted():
    failures.append("donation consumes the argument")
    print("FAIL donation: the donated argument is still alive")
kept = jnp.ones(3)
check("no donation", jax.jit(lambda v: v * 2)(kept), np.full(3, 2.0))
if kept.is_deleted():
    failures.append("no donation keeps the argument")
    print("FAIL no donation: the argument was deleted")

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
