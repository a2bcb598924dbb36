"""The whole corpus through jax.jit on the hlograph platform (the PJRT plugin,
on the CPU interpreter, or on the GPU with HLOGRAPH_PJRT_BACKEND=gpu),
against JAX's own CPU backend in the same process.

    python tests/pjrt/jax_corpus_test.py path/to/libhlograph_pjrt.so [--filter SUBSTR] [--seed N]

Unlike tests/conformance/run_corpus.py, which feeds the stored .mlir files to
the hlograph CLI, this goes the way a user does: JAX traces, lowers and
compiles for the plugin, places the arguments on its device and pulls the
results back. Results are compared leaf by leaf with the conformance rules
(tests/conformance/compare.py). Programs that need more than one device are
skipped here: tests/pjrt/multi_device_test.py runs them on several.
"""

import argparse
import os
import sys
import time
import traceback
import warnings
import zlib

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("library", nargs="?", help="libhlograph_pjrt.so (default: $HLOGRAPH_PJRT_LIBRARY)")
parser.add_argument("--filter", default="", metavar="SUBSTR", help="only programs whose name contains SUBSTR")
parser.add_argument("--seed", type=int,
                    help="draw the arguments from default_rng([SEED, crc32(name)]) "
                         "(default: each program's own fixed seed)")
opts = parser.parse_args()

if opts.library:
    os.environ["HLOGRAPH_PJRT_LIBRARY"] = opts.library
# Both backends in one process: the reference runs on the same traced function.
os.environ["JAX_PLATFORMS"] = "hlograph,cpu"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "tools", "corpus"),
                os.path.join(ROOT, "tests", "conformance")]

import numpy as np  # noqa: E402
import jax  # noqa: E402
import hlograph_jax  # noqa: E402

hlograph_jax.initialize()  # for when the package is not pip-installed; a second call does nothing

import compare  # noqa: E402
from programs import PROGRAMS  # noqa: E402

# Programs JAX cannot lower for a plugin platform, with why. Keep it short.
SKIP = {}

HLOGRAPH = jax.devices("hlograph")[0]
CPU = jax.devices("cpu")[0]
# The GPU backend computes f32 products in TF32, as XLA:GPU does by default.
ON_GPU = HLOGRAPH.device_kind == "gpu"


def run_on(device, fn, args):
    """fn(*args) with the arguments committed to `device`; the results as numpy."""
    placed = jax.device_put(args, device)  # a fresh copy per device: donation consumes it
    with jax.default_device(device):
        out = fn(*placed)
    # The results must come from the device we asked for, not a silent fallback.
    elsewhere = {d for leaf in jax.tree.leaves(out) for d in leaf.devices()} - {device}
    if elsewhere:
        raise RuntimeError(f"results on {elsewhere}, expected {device}")
    return jax.device_get(out)


def check(prog):
    """None if hlograph matches JAX:CPU on `prog`, else why not."""
    with prog.context():  # x64 programs: arguments, tracing and both runs
        if opts.seed is None:
            args = prog.args()
        else:
            args = tuple(prog.make_args(np.random.default_rng([opts.seed, zlib.crc32(prog.name.encode())])))
        fn = prog.jitted()
        try:
            # Lowered for the hlograph platform: the rules loosen only where the
            # module accumulates (dots, reductions, loops).
            with jax.default_device(HLOGRAPH):
                text = fn.lower(*args).as_text()
            scaled = compare.accumulates(text)
            tf32 = ON_GPU and compare.uses_tf32(text)
            got = run_on(HLOGRAPH, fn, args)
        except Exception as e:
            if os.environ.get("CORPUS_DEBUG"):
                traceback.print_exc()
            return f"hlograph: {type(e).__name__}: {e}".splitlines()[0]
        expected = run_on(CPU, fn, args)
    got_leaves, got_tree = jax.tree.flatten(got)
    exp_leaves, exp_tree = jax.tree.flatten(expected)
    if got_tree != exp_tree:
        return f"result structure {got_tree}, expected {exp_tree}"
    for i, (g, e) in enumerate(zip(got_leaves, exp_leaves)):
        why = compare.compare_leaf(np.asarray(e), np.asarray(g), scaled=scaled, tf32=tf32)
        if why:
            return f"result {i} ({np.asarray(e).dtype.name}{list(np.shape(e))}): {why}"
    return None


counts = {"ok": 0, "FAIL": 0, "SKIP": 0}
failed = []
start = time.perf_counter()
print(f"hlograph device: {HLOGRAPH.device_kind} ({HLOGRAPH.client.platform_version})")
for prog in PROGRAMS:
    if opts.filter not in prog.name:
        continue
    if prog.num_devices > 1:
        status, detail = "SKIP", f": needs {prog.num_devices} devices (tests/pjrt/multi_device_test.py)"
    elif prog.name in SKIP:
        status, detail = "SKIP", f": {SKIP[prog.name]}"
    else:
        t = time.perf_counter()
        # Donation warnings are not results; run_corpus.py ignores them too.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Some donated buffers were not usable")
            try:
                why = check(prog)
            except Exception as e:  # the reference or the harness: still a failure, go on
                why = f"harness: {type(e).__name__}: {e}".splitlines()[0]
        status, detail = ("FAIL", f": {why}") if why else ("ok", f" ({time.perf_counter() - t:.2f} s)")
        if why:
            failed.append(prog.name)
    counts[status] += 1
    print(f"{status:<4} {prog.name}{detail}", flush=True)

print(f"{counts['ok']} ok, {counts['FAIL']} failed, {counts['SKIP']} skipped "
      f"in {time.perf_counter() - start:.1f} s" + (f"; failed: {' '.join(failed)}" if failed else ""))
# A run that matched nothing proves nothing.
sys.exit(1 if failed or not counts["ok"] else 0)
