"""Two processes on one machine, each a JAX client of the plugin's CPU
backend with 2 devices, joined by jax.distributed.initialize: every process
lists all 4 devices and addresses its own 2, and collectives over devices of
both processes (shard_map, pmap, sharded jit, process_allgather) meet
through the key-value store JAX hands the plugin. The values are checked
against NumPy.

    python tests/pjrt/two_process_test.py path/to/libhlograph_pjrt.so

A process that hangs fails the test: the plugin gives up on a collective
after HLOGRAPH_PJRT_PROCESS_TIMEOUT seconds, and the processes are killed
after DEADLINE seconds.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
library = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ["HLOGRAPH_PJRT_LIBRARY"])
DEADLINE = 50  # seconds for both processes, start to end
CALLS = 4  # calls of one program, each with other values

# Run in each process: argv = process id, coordinator port, output path.
CHILD = r"""
import json, sys
import numpy as np
import hlograph_jax
hlograph_jax.initialize()
import jax, jax.numpy as jnp
from jax.experimental import multihost_utils
# The device count as a create option: JAX passes it along with node_id and
# num_nodes (the package registers the plugin with options for that).
jax.config.update("jax_pjrt_client_create_options", "cpu_device_count:2")
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

pid, port, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
jax.distributed.initialize(coordinator_address=f"localhost:{port}", num_processes=2, process_id=pid,
                           initialization_timeout=30)
devices = jax.devices()
facts = {
    "platform": devices[0].platform,
    "device_count": jax.device_count(),
    "local_device_count": jax.local_device_count(),
    "process_index": jax.process_index(),
    "process_count": jax.process_count(),
    "device_processes": [d.process_index for d in devices],
    "local_ids": [d.id for d in jax.local_devices()],
}
out = {}

def local(a):  # this process's shards, in device order
    return np.stack([np.asarray(s.data) for s in sorted(a.addressable_shards, key=lambda s: s.device.id)])

def global_array(x, sharding):
    return jax.make_array_from_callback(x.shape, sharding, lambda index: x[index])

def shmap(f, mesh, in_specs, out_specs):
    return jax.jit(jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False))

mesh = Mesh(np.array(devices), ("x",))
mesh2 = Mesh(np.array(devices).reshape(2, 2), ("p", "d"))  # "p" across the processes, "d" within one
x = np.arange(16, dtype=np.float32) * 0.5 - 3
m = np.arange(32, dtype=np.float32).reshape(8, 4) / 3

psum = shmap(lambda v: jax.lax.psum(v, "x"), mesh, P("x"), P())
for k in range(%(calls)d):
    out[f"psum_{k}"] = local(psum(global_array(x + k, NamedSharding(mesh, P("x")))))
gather = shmap(lambda v: jax.lax.all_gather(v, "x", tiled=True), mesh, P("x"), P())
out["all_gather"] = local(gather(global_array(x, NamedSharding(mesh, P("x")))))
m2 = global_array(m, NamedSharding(mesh2, P("p", "d")))
out["psum_across"] = local(shmap(lambda v: jax.lax.psum(v, "p"), mesh2, P("p", "d"), P(None, "d"))(m2))
out["psum_within"] = local(shmap(lambda v: jax.lax.psum(v, "d"), mesh2, P("p", "d"), P("p"))(m2))
rows = np.arange(2 * 3, dtype=np.float32).reshape(2, 3) + 10 * pid  # this process's devices' rows
out["pmap_psum"] = np.asarray(jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(rows))
y = jax.jit(lambda a: jnp.sin(a) * 2 + a.sum())(m2)
out["jit_allgather"] = np.asarray(multihost_utils.process_allgather(y, tiled=True))
multihost_utils.sync_global_devices("done")
np.savez(path + ".npz", **out)
with open(path + ".json", "w") as f:
    json.dump(facts, f)
jax.distributed.shutdown()
""" % {"calls": CALLS}


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def run_processes(tmp):
    """Both processes' outputs, or the reason they have none."""
    unset = ("JAX_PLATFORMS", "XLA_FLAGS", "HLOGRAPH_PJRT_CPU_DEVICES")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(JAX_PLATFORMS="hlograph", HLOGRAPH_PJRT_BACKEND="cpu", HLOGRAPH_PJRT_PROCESS_TIMEOUT="20",
               HLOGRAPH_PJRT_LIBRARY=library, PYTHONPATH=os.path.join(root, "python"))
    port = str(free_port())
    paths = [os.path.join(tmp, f"process{i}") for i in range(2)]
    logs = [open(p + ".log", "w+") for p in paths]
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(i), port, paths[i]], env=env, stdout=logs[i],
                              stderr=subprocess.STDOUT) for i in range(2)]
    start = time.time()
    problem = None
    # One that fails ends the run: the other would wait for it in vain.
    while any(p.poll() is None for p in procs) and problem is None:
        for i, p in enumerate(procs):
            if p.poll() not in (None, 0):
                problem = f"process {i} exited with {p.returncode}"
        if time.time() - start > DEADLINE:
            problem = f"the processes did not finish within {DEADLINE} s"
        time.sleep(0.1)
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()
    if problem is None and any(p.returncode != 0 for p in procs):
        problem = f"exit statuses {[p.returncode for p in procs]}"
    for i, log in enumerate(logs):
        log.seek(0)
        text = log.read()
        log.close()
        if problem is not None:
            print(f"---- process {i} ----\n{text[-4000:]}")
    if problem is not None:
        return problem, None
    results = []
    for path in paths:
        with np.load(path + ".npz") as values, open(path + ".json") as f:
            results.append(({k: values[k] for k in values.files}, json.load(f)))
    return None, results


def expected(pid):
    """What process `pid` should hold, by NumPy."""
    x = np.arange(16, dtype=np.float32) * 0.5 - 3
    m = np.arange(32, dtype=np.float32).reshape(8, 4) / 3
    e = {}
    for k in range(CALLS):
        total = (x + k).reshape(4, 4).sum(axis=0)
        e[f"psum_{k}"] = np.stack([total, total])  # replicated: each local device holds all of it
    e["all_gather"] = np.stack([x, x])
    # m's 4x2 blocks: block (p, d) on device 2p + d.
    blocks = m.reshape(2, 4, 2, 2).transpose(0, 2, 1, 3)
    across = blocks.sum(axis=0)  # by d
    e["psum_across"] = np.stack([across[0], across[1]])
    within = blocks[pid].sum(axis=0)
    e["psum_within"] = np.stack([within, within])
    rows = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * p for p in range(2)]
    e["pmap_psum"] = np.stack([np.concatenate(rows).sum(axis=0)] * 2)
    e["jit_allgather"] = np.sin(m) * 2 + m.sum()
    return e


def main():
    with tempfile.TemporaryDirectory() as tmp:
        problem, results = run_processes(tmp)
    if problem is not None:
        print(f"FAIL {problem}")
        return 1
    failures, passed = [], 0
    for pid, (values, facts) in enumerate(results):
        want_facts = {"platform": "hlograph", "device_count": 4, "local_device_count": 2, "process_index": pid,
                      "process_count": 2, "device_processes": [0, 0, 1, 1], "local_ids": [2 * pid, 2 * pid + 1]}
        for key, want in want_facts.items():
            if facts.get(key) != want:
                failures.append(f"process {pid} {key}: {facts.get(key)!r}, expected {want!r}")
            else:
                passed += 1
        for name, want in expected(pid).items():
            got = values.get(name)
            if got is None or got.shape != want.shape:
                failures.append(f"process {pid} {name}: {None if got is None else got.shape}, expected {want.shape}")
            elif not np.allclose(got, want, rtol=1e-5, atol=1e-5):
                failures.append(f"process {pid} {name}: {got.tolist()}\n     expected {want.tolist()}")
            else:
                passed += 1
                print(f"ok   process {pid} {name}")
    for f in failures:
        print("FAIL " + f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
