"""Several devices on the plugin's CPU backend (HLOGRAPH_PJRT_CPU_DEVICES):
devices and their memories, device_put and jit on each device, pmap with
collectives, shard_map over 1-D, 2-D and 3-D meshes, jit on NamedSharding
inputs, and the corpus's sharded programs (tools/corpus), each compared
with JAX's own CPU backend given as many devices
(XLA_FLAGS=--xla_force_host_platform_device_count).

    python tests/pjrt/multi_device_test.py path/to/libhlograph_pjrt.so

Each backend runs the same cases in a fresh interpreter (JAX chooses its
backends once) and writes what they return; the values must agree.
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
library = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ["HLOGRAPH_PJRT_LIBRARY"])
DEVICES = 8  # the corpus's sharded programs take 8

# Run in each child; `out` collects the cases' values, `errors` their
# failures, `facts` what is not a value (device ids, shardings).
CASES = r"""
import json, os, sys
import numpy as np
if os.environ.get("CASES_PLUGIN"):
    import hlograph_jax
    hlograph_jax.initialize()
import jax, jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

out, errors, facts = {}, {}, {}
devices = jax.devices()
N = len(devices)

def case(name):
    def run(fn):
        try:
            for i, leaf in enumerate(jax.tree.leaves(fn())):
                out[f"{name}.{i}"] = np.asarray(leaf)
        except Exception as e:
            errors[name] = f"{type(e).__name__}: {e}"
        return fn
    return run

facts["count"] = N
facts["ids"] = [d.id for d in devices]
if os.environ.get("CASES_PLUGIN"):
    # Each device its own memory, addressable by that device only.
    memories = [d.default_memory() for d in devices]
    facts["memories_distinct"] = len({str(m) for m in memories}) == N
    facts["memory_devices"] = [[x.id for x in m.addressable_by_devices()] for m in memories]
    facts["memory_in_device"] = all(m in d.addressable_memories() for m, d in zip(memories, devices))

x6 = np.arange(6, dtype=np.float32).reshape(2, 3)

for k in range(N):
    @case(f"put_jit_{k}")
    def _(k=k):
        x = jax.device_put(x6 + k, devices[k])
        y = jax.jit(lambda a: jnp.tanh(a) * 2 + a.sum())(x)
        facts[f"put_jit_{k}"] = [[d.id for d in x.devices()], [d.id for d in y.devices()]]
        return y

@case("copy_between_devices")
def _():
    x = jax.device_put(x6, devices[0])
    y = jax.device_put(x, devices[N - 1])
    z = jax.jit(lambda a: a * 3)(y)
    facts["copy_between_devices"] = [d.id for d in z.devices()]
    return np.asarray(x) + z

a8 = np.arange(N * 2, dtype=np.float32).reshape(N, 2) * 1.5 - 3
a12 = np.arange(N * 3, dtype=np.float32).reshape(N, 3)

@case("pmap_psum")
def _():
    y = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(a8)
    facts["pmap_psum"] = sorted([s.device.id, list(s.data.shape)] for s in y.addressable_shards)
    return y

@case("pmap_pmean_pmax")
def _():
    return jax.pmap(lambda v: jax.lax.pmean(v, "i") + jax.lax.pmax(v * v, "i"), axis_name="i")(a8)

@case("pmap_all_gather")
def _():
    return jax.pmap(lambda v: jax.lax.all_gather(v, "i"), axis_name="i")(a12)

@case("pmap_ppermute")
def _():
    perm = [(i, (i + 1) % N) for i in range(N)]
    return jax.pmap(lambda v: jax.lax.ppermute(v, "i", perm), axis_name="i")(a12)

@case("pmap_axis_index")
def _():
    return jax.pmap(lambda v: v * jax.lax.axis_index("i") + jax.lax.psum(1, "i"), axis_name="i")(a12)

mesh1 = Mesh(np.array(devices), ("x",))
mesh2 = Mesh(np.array(devices).reshape(2, N // 2), ("x", "y"))
mesh3 = Mesh(np.array(devices).reshape(2, 2, N // 4), ("a", "b", "c"))
v16 = np.linspace(-2, 3, N * 4, dtype=np.float32)
m8 = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 7

def shmap(f, mesh, in_specs, out_specs, **kwargs):
    return jax.jit(jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, **kwargs))

@case("shmap1_psum")
def _():
    return shmap(lambda v: jax.lax.psum(v, "x"), mesh1, P("x"), P())(v16)

@case("shmap1_all_gather")
def _():
    f = shmap(lambda v: jax.lax.all_gather(v, "x", tiled=True) * 2, mesh1, P("x"), P(), check_vma=False)
    return f(v16)

@case("shmap1_sharded_out")
def _():
    f = shmap(lambda v: v * jax.lax.axis_index("x") - jax.lax.pmax(v, "x"), mesh1, P("x"), P("x"))
    return f(jax.device_put(v16, NamedSharding(mesh1, P("x"))))

@case("shmap1_psum_scatter")
def _():
    f = shmap(lambda v: jax.lax.psum_scatter(v, "x", tiled=True), mesh1, P(), P("x"))
    return f(v16)

@case("shmap2_psum_rows")
def _():
    f = shmap(lambda v: jax.lax.psum(v, "y"), mesh2, P("x", "y"), P("x", None))
    return f(jax.device_put(m8, NamedSharding(mesh2, P("x", "y"))))

@case("shmap2_psum_all")
def _():
    return shmap(lambda v: jax.lax.psum(v.sum(), ("x", "y")), mesh2, P("x", "y"), P())(m8)

@case("shmap2_all_gather")
def _():
    f = shmap(lambda v: jax.lax.all_gather(v, "x", axis=0, tiled=True), mesh2, P("x", "y"), P(None, "y"),
              check_vma=False)
    return f(m8)

@case("shmap2_matmul")
def _():
    w = np.arange(8 * 5, dtype=np.float32).reshape(8, 5) / 11
    f = shmap(lambda a, b: jax.lax.psum(a @ b, "y"), mesh2, (P("x", "y"), P("y", None)), P("x", None))
    y = f(m8, w)
    facts["shmap2_matmul"] = y.sharding.is_equivalent_to(NamedSharding(mesh2, P("x", None)), y.ndim)
    return y

@case("shmap3_psum")
def _():
    return shmap(lambda v: jax.lax.psum(v, ("a", "c")), mesh3, P(("a", "b"), "c"), P("b", None))(m8)

@case("shmap2_all_to_all")
def _():
    return shmap(lambda v: jax.lax.all_to_all(v, "y", 0, 1, tiled=True), mesh2, P(None, "y"), P("y", None))(m8)

@case("shmap2_grad")
def _():
    def loss(w, v):
        h = shmap(lambda a, b: jax.lax.psum(a @ b, "y"), mesh2, (P("x", "y"), P("y", None)), P("x", None))(v, w)
        return (h ** 2).sum()
    return jax.jit(jax.grad(loss))(np.ones((8, 3), np.float32) / 3, m8)

@case("named_jit")
def _():
    x = jax.device_put(m8, NamedSharding(mesh2, P("x", "y")))
    y = jax.jit(lambda a: jnp.sin(a) @ a.T + a.sum())(x)
    return y

@case("named_jit_out_shardings")
def _():
    x = jax.device_put(m8, NamedSharding(mesh1, P("x")))
    out_sharding = NamedSharding(mesh2, P(None, "y"))
    y = jax.jit(lambda a: jnp.exp(a / 10) * 2, out_shardings=out_sharding)(x)
    facts["named_jit_out_shardings"] = y.sharding.is_equivalent_to(out_sharding, y.ndim)
    return y

@case("named_jit_constraint")
def _():
    def f(a):
        b = jax.lax.with_sharding_constraint(a * 2, NamedSharding(mesh2, P("y", "x")))
        return b.T @ a
    return jax.jit(f)(jax.device_put(m8, NamedSharding(mesh2, P("x"))))

@case("named_jit_replicated")
def _():
    x = jax.device_put(m8, NamedSharding(mesh1, P()))
    return jax.jit(lambda a: jnp.cumsum(a, axis=1))(x)

sys.path.insert(0, os.environ["CASES_CORPUS"])
from programs import PROGRAMS
for prog in PROGRAMS:
    if 1 < prog.num_devices <= N:
        @case("corpus_" + prog.name)
        def _(prog=prog):
            with prog.context():
                return prog.jitted()(*prog.args())

path = sys.argv[1]
np.savez(path + ".npz", **out)
with open(path + ".json", "w") as f:
    json.dump({"errors": errors, "facts": facts}, f)
"""

def run(plugin, path):
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "XLA_FLAGS", "HLOGRAPH_PJRT_CPU_DEVICES")}
    env["CASES_CORPUS"] = os.path.join(root, "tools", "corpus")
    if plugin:
        env.update(JAX_PLATFORMS="hlograph", HLOGRAPH_PJRT_BACKEND="cpu", HLOGRAPH_PJRT_CPU_DEVICES=str(DEVICES),
                   HLOGRAPH_PJRT_LIBRARY=library, PYTHONPATH=os.path.join(root, "python"), CASES_PLUGIN="1")
    else:
        env.update(JAX_PLATFORMS="cpu", XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES}")
    p = subprocess.run([sys.executable, "-c", CASES, path], env=env, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        print(f"FAIL the {'hlograph' if plugin else 'reference'} child exited with {p.returncode}:\n{p.stderr}")
        sys.exit(1)
    with np.load(path + ".npz") as values, open(path + ".json") as f:
        return {k: values[k] for k in values.files}, json.load(f)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        ref, ref_info = run(False, os.path.join(tmp, "ref"))
        got, info = run(True, os.path.join(tmp, "hlograph"))
    if ref_info["errors"]:
        print(f"FAIL the reference failed: {ref_info['errors']}")
        sys.exit(1)
    facts = info["facts"]
    checks = [(key, facts.get(key), expected, "expected")
              for key, expected in (("count", DEVICES), ("ids", list(range(DEVICES))), ("memories_distinct", True),
                                    ("memory_devices", [[d] for d in range(DEVICES)]), ("memory_in_device", True))]
    checks += [(key, facts.get(key), value, "the reference") for key, value in ref_info["facts"].items()
               if key not in ("count", "ids")]
    for key, got_fact, expected, whose in checks:
        if got_fact != expected:
            failures.append(f"{key}: {got_fact!r}, {whose} {expected!r}")
    for name, expected in ref.items():  # a case's leaves: name.0, name.1, ...
        error = info["errors"].get(name.rsplit(".", 1)[0])
        value = got.get(name)
        if error is not None:
            failures.append(f"{name}: {error[:2000]}")
        elif value is None or value.shape != expected.shape or value.dtype != expected.dtype:
            failures.append(f"{name}: {None if value is None else (value.shape, value.dtype)}, "
                            f"expected {(expected.shape, expected.dtype)}")
        elif not np.allclose(value, expected, rtol=1e-4, atol=1e-5):
            failures.append(f"{name}: {value.tolist()}\n     expected {expected.tolist()}")
        else:
            print(f"ok   {name}")
    for f in failures:
        print("FAIL " + f)
    print(f"{len(ref) + len(checks) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
