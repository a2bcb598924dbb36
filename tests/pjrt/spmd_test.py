"""jax.jit on NamedSharding inputs, partitioned by hlograph's SPMD partitioner
(passes/spmd) on the plugin's CPU devices: data-parallel MLP forward and
gradient step, Megatron column- then row-parallel MLP, reductions over the
sharded dim, a cut moved to another dim (all_to_all), slices, concatenations,
pads, dynamic slices and updates, iotas, sorts and scans along whole dims,
embedding lookups and their gradients, a data-parallel convolution layer and
its gradient step, convolutions of images cut along their height (halos
exchanged; strided; the filter's gradient summed), FFTs of rows, lookups in
and scatters (setting and adding rows) into an array cut by rows, and loops
(fori_loop and a while_loop whose condition sums the pieces) partitioned
inside, on 2, 4 and 8 devices and 2-D meshes, with Shardy's annotations and
GSPMD's. Each case's values are compared with JAX's own CPU backend given as
many devices, and so is the compiled program's per-device signature
(entry_computation_layout: the shard shapes XLA's partitioner gives). The
plugin runs with HLOGRAPH_SPMD=strict, so a program that falls back to
computing whole is an error, and each program's report line must say it was
partitioned (for the cases in EXPECTED_REPORTS: with no op computed whole, and
with the collectives named there).

    python tests/pjrt/spmd_test.py path/to/libhlograph_pjrt.so
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
library = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ["HLOGRAPH_PJRT_LIBRARY"])
DEVICES = 8

CASES = r"""
import json, os, re, sys
import numpy as np
if os.environ.get("CASES_PLUGIN"):
    import hlograph_jax
    hlograph_jax.initialize()
import jax, jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

out, errors, layouts = {}, {}, {}
devices = jax.devices()
rng = np.random.default_rng(0)
w1 = rng.standard_normal((16, 32), np.float32) / 4
w2 = rng.standard_normal((32, 16), np.float32) / 4
x = rng.standard_normal((16, 16), np.float32)

def mlp(w1, w2, x):
    return jax.nn.relu(x @ w1) @ w2

def step(w1, w2, x):
    g1, g2 = jax.grad(lambda a, b: (mlp(a, b, x) ** 2).mean(), argnums=(0, 1))(w1, w2)
    return w1 - 0.1 * g1, w2 - 0.1 * g2

def megatron(w1, w2, x):
    return jnp.tanh(x @ w1) @ w2

def reshard_rows_to_cols(a):
    return jnp.exp(a)

def slice_concat_pad_reverse(a, b):
    s = a[:, 1::2]
    return s, jnp.concatenate([a, b], axis=1), jnp.pad(s, ((0, 0), (2, 1))), a[:, ::-1]

def dynamic_rows(a, i):
    return (jax.lax.dynamic_slice_in_dim(a, i, 4, axis=0),
            jax.lax.dynamic_update_slice_in_dim(a, a[:2] * 2, i, axis=0))

def iota_offsets(a):
    return a + jnp.arange(a.shape[1], dtype=a.dtype) * jnp.arange(a.shape[0], dtype=a.dtype)[:, None]

def sort_and_cumsum(a):
    return jnp.sort(a, axis=1), jnp.cumsum(a, axis=1)

def embedding_lookup(table, ids):
    return table[ids]

def embedding_grad(table, ids, g):
    return jax.grad(lambda t: (t[ids] * g).sum())(table)

def conv_layer(w, images):
    y = jax.lax.conv_general_dilated(images, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jnp.tanh(y)

def conv_rows(w, images):  # images cut along their height: halos
    return conv_layer(w, images)

def conv_rows_grad_step(w, images):  # its filter's gradient summed over the rows' pieces
    return conv_grad_step(w, images)

def conv_rows_strided(w, images):  # a downsampling layer on images cut along their height
    y = jax.lax.conv_general_dilated(images, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jnp.tanh(y)

def conv_grad_step(w, images):
    g = jax.grad(lambda v: (conv_layer(v, images) ** 2).mean())(w)
    return w - 0.1 * g

table = rng.standard_normal((10, 16), np.float32)
ids = rng.integers(0, 10, size=(16,)).astype(np.int32)
grads = rng.standard_normal((16, 16), np.float32)
images = rng.standard_normal((8, 6, 6, 3), np.float32)
filters = rng.standard_normal((3, 3, 3, 4), np.float32) / 3
square = rng.standard_normal((16, 16), np.float32) / 4
tall_images = rng.standard_normal((2, 8, 6, 3), np.float32)

def loop_mlp(w, x):
    return jax.lax.fori_loop(0, 3, lambda i, h: jnp.tanh(h @ w), x)

def loop_mlp_cut_weights(w, x):
    return loop_mlp(w, x)

def loop_norms(x):
    def body(i, carry):
        h, s = carry
        return h * 0.5 + 1.0, s + jnp.sum(h * h)
    return jax.lax.fori_loop(0, 3, body, (x, jnp.float32(0)))

def embedding_rows(table, ids):
    return table[ids]

def label_logits(logits, labels):
    # A cross-entropy over a vocabulary cut across devices: the logsumexp
    # over the cut dim and the labels' logits (take_along_axis, a batched
    # gather) on each device's columns.
    picked = jnp.take_along_axis(logits, labels[:, None], axis=1)[:, 0]
    return jax.nn.logsumexp(logits, axis=1) - picked

def label_logits_grad(logits, labels):
    return jax.grad(lambda l: label_logits(l, labels).sum())(logits)

def embedding_grad_rows(table, ids, g):
    return embedding_grad(table, ids, g)

def fft_rows(a):
    return jnp.fft.irfft(jnp.fft.rfft(a) * 0.5, n=a.shape[-1])

def rows_set(a, i, u):
    return a.at[i].set(u), a.at[i].add(u)

def loop_while(x):
    # A data-dependent trip count: the condition reads a sum of the pieces.
    return jax.lax.while_loop(lambda h: jnp.sum(h) < 1000.0, lambda h: h * 1.5 + 1.0, x)

def signature(text):
    # The braces of entry_computation_layout={...}, balanced: the per-device
    # parameter and result shapes.
    start = text.index("entry_computation_layout={") + len("entry_computation_layout={")
    depth, end = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    return text[start:end - 1]

def case(name, fn, args, mesh, ins, outs):
    try:
        S = lambda spec: NamedSharding(mesh, spec)
        f = jax.jit(fn, in_shardings=tuple(S(s) for s in ins),
                    out_shardings=tuple(S(s) for s in outs) if isinstance(outs, list) else S(outs))
        text = f.lower(*args).compile().as_text()
        layouts[name] = signature(text)
        for i, leaf in enumerate(jax.tree.leaves(f(*args))):
            out[f"{name}.{i}"] = np.asarray(leaf)
    except Exception as e:
        errors[name] = f"{type(e).__name__}: {e}"

def cases(tag):
    for n in (2, 4, 8):
        m = Mesh(np.array(devices[:n]), ("x",))
        case(f"{tag}dp_forward_{n}", mlp, (w1, w2, x), m, [P(), P(), P("x")], P("x"))
        case(f"{tag}dp_grad_step_{n}", step, (w1, w2, x), m, [P(), P(), P("x")], [P(), P()])
        case(f"{tag}megatron_{n}", megatron, (w1, w2, x), m, [P(None, "x"), P("x", None), P()], P())
        case(f"{tag}megatron_scatter_{n}", megatron, (w1, w2, x), m, [P(None, "x"), P("x", None), P()], P("x"))
        case(f"{tag}sum_sharded_{n}", lambda a: (a.sum(0), a.max(0), jnp.exp(a).sum()), (x,), m, [P("x")],
             [P(), P(), P()])
    for a in (2, 4):
        m = Mesh(np.array(devices).reshape(a, 8 // a), ("x", "y"))
        case(f"{tag}megatron2d_{a}", megatron, (w1, w2, x), m, [P(None, "y"), P("y", None), P("x")], P("x"))
        case(f"{tag}dp2d_grad_step_{a}", step, (w1, w2, x), m, [P(), P(), P(("x", "y"))], [P(), P()])
        case(f"{tag}sum2d_{a}", lambda v: jnp.sin(v).sum(1) * 2, (x,), m, [P("x", "y")], P("x"))
        case(f"{tag}reshard2d_{a}", reshard_rows_to_cols, (x,), m, [P("x")], P(None, "x"))
        case(f"{tag}embedding2d_{a}", embedding_lookup, (table, ids), m, [P(None, "y"), P("x")], P("x", "y"))
        case(f"{tag}embedding_rows2d_{a}", embedding_rows, (np.tile(table, (4, 1)), ids * 3), m, [P("y"), P("x")],
             P("x"))
    for n in (2, 4):
        m = Mesh(np.array(devices[:n]), ("x",))
        case(f"{tag}reshard_{n}", reshard_rows_to_cols, (x,), m, [P("x")], P(None, "x"))
        case(f"{tag}slices_{n}", slice_concat_pad_reverse, (x, w1[:, :4]), m, [P("x"), P("x")],
             [P("x"), P("x"), P("x"), P("x")])
        case(f"{tag}dynamic_rows_{n}", dynamic_rows, (x, np.int32(5)), m, [P(None, "x"), P()],
             [P(None, "x"), P(None, "x")])
        case(f"{tag}iota_{n}", iota_offsets, (x,), m, [P("x")], P("x"))
        case(f"{tag}sort_cumsum_{n}", sort_and_cumsum, (x,), m, [P("x")], [P("x"), P("x")])
        case(f"{tag}embedding_{n}", embedding_lookup, (table, ids), m, [P(), P("x")], P("x"))
        case(f"{tag}embedding_grad_{n}", embedding_grad, (table, ids, grads), m, [P(), P("x"), P("x")], P())
        case(f"{tag}conv_{n}", conv_layer, (filters, images), m, [P(), P("x")], P("x"))
        case(f"{tag}conv_grad_step_{n}", conv_grad_step, (filters, images), m, [P(), P("x")], P())
        case(f"{tag}conv_rows_{n}", conv_rows, (filters, tall_images), m, [P(), P(None, "x")], P(None, "x"))
        case(f"{tag}conv_rows_grad_step_{n}", conv_rows_grad_step, (filters, tall_images), m, [P(), P(None, "x")], P())
        case(f"{tag}conv_rows_strided_{n}", conv_rows_strided, (filters, tall_images), m, [P(), P(None, "x")],
             P(None, "x"))
        case(f"{tag}loop_mlp_{n}", loop_mlp, (square, x), m, [P(), P("x")], P("x"))
        case(f"{tag}loop_norms_{n}", loop_norms, (x,), m, [P("x")], [P("x"), P()])
        case(f"{tag}loop_mlp_cut_weights_{n}", loop_mlp_cut_weights, (square, x), m, [P("x", None), P("x")], P("x"))
        case(f"{tag}loop_while_{n}", loop_while, (np.abs(x),), m, [P("x")], P("x"))
        case(f"{tag}fft_rows_{n}", fft_rows, (x,), m, [P("x")], P("x"))
        case(f"{tag}label_logits_{n}", label_logits, (np.tile(x, (1, 4)), ids), m, [P(None, "x"), P()], P())
        case(f"{tag}label_logits_grad_{n}", label_logits_grad, (np.tile(x, (1, 4)), ids), m, [P(None, "x"), P()],
             P(None, "x"))
        case(f"{tag}rows_set_{n}", rows_set, (x, np.array([3, 0, 15, 7], np.int32), grads[:4]), m,
             [P("x"), P(), P()], [P("x"), P("x")])
        case(f"{tag}embedding_rows_{n}", embedding_rows, (np.tile(table, (4, 1)), ids * 3, ), m, [P("x"), P()], P())
        case(f"{tag}embedding_grad_rows_{n}", embedding_grad_rows, (table[:8], ids % 8, grads), m, [P("x"), P(), P()],
             P("x"))

cases("")
jax.config.update("jax_use_shardy_partitioner", False)
cases("gspmd_")

refusal = ""
if os.environ.get("CASES_PLUGIN"):
    # Random numbers differ per device: strict mode refuses to partition.
    m = Mesh(np.array(devices[:4]), ("x",))
    try:
        g = jax.jit(lambda a: a + jax.lax.rng_uniform(0.0, 1.0, (16, 16)),
                    in_shardings=NamedSharding(m, P("x")), out_shardings=NamedSharding(m, P("x")))
        g.lower(x).compile()
    except Exception as e:
        refusal = str(e)

path = sys.argv[1]
np.savez(path + ".npz", **out)
with open(path + ".json", "w") as f:
    json.dump({"errors": errors, "layouts": layouts, "refusal": refusal}, f)
"""


def run(plugin, path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("JAX_PLATFORMS", "XLA_FLAGS", "HLOGRAPH_PJRT_CPU_DEVICES", "HLOGRAPH_SPMD")}
    if plugin:
        env.update(JAX_PLATFORMS="hlograph", HLOGRAPH_PJRT_BACKEND="cpu", HLOGRAPH_PJRT_CPU_DEVICES=str(DEVICES),
                   HLOGRAPH_PJRT_LIBRARY=library, PYTHONPATH=os.path.join(root, "python"), CASES_PLUGIN="1",
                   HLOGRAPH_SPMD="strict", HLOGRAPH_SPMD_REPORT="1")
    else:
        env.update(JAX_PLATFORMS="cpu", XLA_FLAGS=f"--xla_force_host_platform_device_count={DEVICES}")
    p = subprocess.run([sys.executable, "-c", CASES, path], env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        print(f"FAIL the {'hlograph' if plugin else 'reference'} child exited with {p.returncode}:\n{p.stderr}")
        sys.exit(1)
    with np.load(path + ".npz") as values, open(path + ".json") as f:
        return {k: values[k] for k in values.files}, json.load(f), p.stderr


# Programs that must be partitioned without computing any op whole, and
# what their report line must (and must not) name.
EXPECTED_REPORTS = {
    "reshard_rows_to_cols": (["all_to_all"], ["all_gather"]),
    "slice_concat_pad_reverse": ([], []),
    "dynamic_rows": ([], []),
    "iota_offsets": ([], ["dynamic_slice"]),
    "sort_and_cumsum": ([], []),
    "embedding_lookup": ([], []),
    "embedding_grad": (["all_reduce"], []),
    "conv_layer": ([], []),
    "conv_grad_step": (["all_reduce"], []),
    "conv_rows": (["collective_permute"], ["all_gather", "all_reduce"]),
    "conv_rows_strided": (["collective_permute"], ["all_gather", "all_reduce"]),
    "conv_rows_grad_step": (["collective_permute", "all_reduce"], ["all_gather"]),
    "loop_mlp": ([], ["all_gather", "all_reduce"]),
    "loop_norms": (["all_reduce"], ["all_gather"]),
    "loop_while": (["all_reduce"], ["all_gather"]),
    "rows_set": ([], ["all_gather", "all_reduce"]),
    "fft_rows": ([], ["all_gather", "all_reduce", "all_to_all"]),
    "label_logits": (["all_reduce"], ["all_gather"]),
    "label_logits_grad": ([], ["all_gather"]),
    "embedding_grad_rows": ([], ["all_gather", "all_reduce"]),
    "embedding_rows": (["all_reduce"], ["all_gather"]),
}


def check_reports(reports):
    failures = []
    for fn, (wanted, unwanted) in EXPECTED_REPORTS.items():
        lines = [line for line in reports if f" jit_{fn} on " in line]
        if not lines:
            failures.append(f"{fn}: no report line")
        for line in lines:
            if "computed whole" in line:
                failures.append(f"{fn}: ran an op whole: {line}")
            failures += [f"{fn}: no {w}: {line}" for w in wanted if w not in line]
            failures += [f"{fn}: {u}: {line}" for u in unwanted if u in line]
    return failures


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        ref, ref_info, _ = run(False, os.path.join(tmp, "ref"))
        got, info, log = run(True, os.path.join(tmp, "hlograph"))
    if ref_info["errors"]:
        print(f"FAIL the reference failed: {ref_info['errors']}")
        sys.exit(1)
    reports = [line for line in log.splitlines() if line.startswith("hlograph spmd:")]
    if not reports:
        failures.append("no report lines (HLOGRAPH_SPMD_REPORT)")
    failures += [f"not partitioned: {line}" for line in reports if ": partitioned (" not in line]
    failures += check_reports(reports)
    if "cannot partition 'stablehlo.rng'" not in info["refusal"] or "HLOGRAPH_SPMD=strict" not in info["refusal"]:
        failures.append(f"strict mode's refusal of rng_uniform: {info['refusal']!r}")
    for name, error in info["errors"].items():
        failures.append(f"{name}: {error[:2000]}")
    for name, layout in ref_info["layouts"].items():
        if name not in info["errors"] and info["layouts"].get(name) != layout:
            failures.append(f"{name}: per-device signature {info['layouts'].get(name)}, XLA's {layout}")
    for name, expected in ref.items():
        if name.rsplit(".", 1)[0] in info["errors"]:
            continue
        value = got.get(name)
        if value is None or value.shape != expected.shape or value.dtype != expected.dtype:
            failures.append(f"{name}: {None if value is None else (value.shape, value.dtype)}, "
                            f"expected {(expected.shape, expected.dtype)}")
        elif not np.allclose(value, expected, rtol=1e-4, atol=1e-5):
            failures.append(f"{name}: differs by {np.max(np.abs(value - expected))}")
    for f in failures:
        print("FAIL", f)
    cases = len(ref_info["layouts"])
    print(f"{cases - len({f.split(':')[0] for f in failures})} of {cases} cases pass, "
          f"{len(reports)} programs partitioned")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
