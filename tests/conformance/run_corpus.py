"""Conformance test: hlograph's CPU interpreter against XLA:CPU on the corpus.

For every program of tests/corpus/MANIFEST.json (or the NAMEs given) it

1. draws fresh random arguments with the program's own recipe (make_args of
   tools/corpus/programs.py) from ``np.random.default_rng([SEED, crc32(name)])``,
   so every program gets different data and one program can be replayed on
   its own with ``--seed SEED NAME``;
2. flattens the argument pytree into leaves and checks them against the
   manifest and the parameters of the module's @main (count, shapes, dtypes);
3. computes the reference with XLA:CPU (``prog.jitted()`` under
   ``prog.context()``), timing the calls after the compiling one (compute only);
4. writes the leaves to IN.npz (arr_0, arr_1, ...) and runs
   ``hlograph run tests/corpus/NAME.mlir --inputs IN.npz --output OUT.npz``;
5. compares OUT.npz with XLA's flattened results leaf by leaf (compare.py).

Sharded programs (num_devices > 1) run on one device when their module has
no sdy.manual_computation; their XLA reference is computed in a child
process with ``--xla_force_host_platform_device_count=N``, this process keeps
the single CPU device the corpus was lowered for.  Programs with
sdy.manual_computation are reported as skipped.

Run with the project venv (scripts/conformance.sh does everything):

    JAX_PLATFORMS=cpu .venv/bin/python tests/conformance/run_corpus.py [--seed S] [NAME|GLOB ...]

Exit status: 0 if nothing failed, 1 if a program failed, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import fnmatch
import json
import os
import pickle
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
import zlib
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
CORPUS = REPO_ROOT / "tests" / "corpus"
sys.path.insert(0, str(REPO_ROOT / "tools" / "corpus"))
sys.path.insert(0, str(HERE))

import jax  # noqa: E402
import numpy as np  # noqa: E402

import compare  # noqa: E402
from programs import Program, by_name  # noqa: E402


# --------------------------------------------------------------------------
# The module's @main signature.

_TENSOR = re.compile(r"tensor<((?:[^<>]|<[^<>]*>)*)>")
_ELEMENT_TYPES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "complex<f32>": "complex64", "complex<f64>": "complex128",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2", "f8E4M3FNUZ": "float8_e4m3fnuz",
    "f8E5M2FNUZ": "float8_e5m2fnuz", "f8E4M3B11FNUZ": "float8_e4m3b11fnuz",
    "f8E4M3": "float8_e4m3", "f8E3M4": "float8_e3m4",
}


def _balanced(text: str, start: int) -> int:
    """Index just past the parenthesis group that opens at text[start]."""
    depth, i, quoted = 0, start, False
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced parentheses in @main's signature")


def _leaf_spec(type_text: str) -> tuple[list[int], str]:
    parts = type_text.split("x")
    element = parts[-1]
    for i, p in enumerate(parts[:-1]):  # "complex<f32>" holds no 'x', dims are integers
        if not p.isdigit():
            element = "x".join(parts[i:])
            parts = parts[:i] + [element]
            break
    return [int(d) for d in parts[:-1]], _ELEMENT_TYPES.get(element, element)


def main_signature(text: str) -> tuple[list, list]:
    """(parameters, results) of @main as lists of (shape, dtype name)."""
    m = re.search(r"func\.func\s+(?:public\s+)?@main\s*\(", text)
    if not m:
        raise ValueError("no func.func @main")
    args_end = _balanced(text, m.end() - 1)
    params = [_leaf_spec(t) for t in _TENSOR.findall(text[m.end():args_end])]
    rest = text[args_end:]
    r = re.match(r"\s*->\s*", rest)
    if not r:
        return params, []
    pos = r.end()
    if rest[pos] == "(":
        results_text = rest[pos:_balanced(rest, pos)]
    else:
        results_text = rest[pos:rest.index("{", pos)]
    return params, [_leaf_spec(t) for t in _TENSOR.findall(results_text)]


# --------------------------------------------------------------------------
# References from XLA:CPU.

# XLA's time is the fastest of this many calls after the first (compiling) one.
XLA_TIMED_CALLS = 3


def program_seed(seed: int, name: str) -> list[int]:
    return [seed, zlib.crc32(name.encode())]


def _specs(leaves) -> list[tuple[list[int], str]]:
    return [(list(np.shape(a)), np.asarray(a).dtype.name) for a in leaves]


def _describe(specs) -> str:
    return ", ".join(f"{d}{s}" for s, d in specs)


def compute_reference(prog: Program, entry: dict, seed: int) -> dict:
    """Fresh arguments and XLA's results for one program.

    Returns {"args": [leaves], "expected": [leaves], "xla_s": seconds of
    the fastest call after the compiling one, "error": None or a message}.
    """
    out = {"args": None, "expected": None, "xla_s": None, "error": None}
    try:
        with prog.context():
            args = tuple(prog.make_args(np.random.default_rng(program_seed(seed, prog.name))))
            leaves = [np.asarray(a) for a in jax.tree_util.tree_leaves(args)]
            out["args"] = leaves

            text = (CORPUS / entry["file"]).read_text()
            params, results = main_signature(text)
            manifest_args = [(a["shape"], a["dtype"]) for a in entry["args"]]
            manifest_results = [(a["shape"], a["dtype"]) for a in entry["results"]]
            if _specs(leaves) != manifest_args:
                raise HarnessError(f"argument leaves [{_describe(_specs(leaves))}] differ from the "
                                   f"manifest's [{_describe(manifest_args)}]")
            if params != manifest_args:
                raise HarnessError(f"@main takes [{_describe(params)}] but the manifest lists "
                                   f"[{_describe(manifest_args)}] (stale corpus?)")
            if results != manifest_results:
                raise HarnessError(f"@main returns [{_describe(results)}] but the manifest lists "
                                   f"[{_describe(manifest_results)}] (stale corpus?)")

            fn = prog.jitted()

            def on_device():
                # Fresh device buffers for every call (donation deletes them), so the
                # timed call does not include the host-to-device copy.  Sharded
                # programs take numpy arrays and let jit place the shards.
                return jax.block_until_ready(jax.device_put(args)) if prog.num_devices == 1 else args

            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Some donated buffers were not usable")
                jax.block_until_ready(fn(*on_device()))  # compile and warm up
                times = []
                for _ in range(XLA_TIMED_CALLS):
                    call_args = on_device()
                    start = time.perf_counter()
                    result = jax.block_until_ready(fn(*call_args))
                    times.append(time.perf_counter() - start)
                out["xla_s"] = min(times)
            expected = [np.asarray(a) for a in jax.tree_util.tree_leaves(result)]
            if _specs(expected) != manifest_results:
                raise HarnessError(f"XLA returned [{_describe(_specs(expected))}] but the manifest "
                                   f"lists [{_describe(manifest_results)}]")
            out["expected"] = expected
    except HarnessError as e:
        out["error"] = f"harness: {e}"
    except Exception as e:  # report and go on with the other programs
        out["error"] = f"XLA reference failed: {type(e).__name__}: {e}".splitlines()[0]
        if os.environ.get("CONFORMANCE_DEBUG"):
            traceback.print_exc()
    return out


class HarnessError(Exception):
    pass


def worker_main(opts) -> int:
    """Child process: references for programs that need more devices."""
    manifest = load_manifest()
    for name in opts.names:
        ref = compute_reference(by_name(name), manifest[name], opts.seed)
        with open(Path(opts.workdir) / f"{name}.ref.pkl", "wb") as f:
            pickle.dump(ref, f)
    return 0


def references_in_child(names: list[str], num_devices: int, seed: int, workdir: Path) -> dict:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={num_devices}").strip()
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--seed", str(seed),
           "--workdir", str(workdir), *names]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    refs = {}
    for name in names:
        path = workdir / f"{name}.ref.pkl"
        if path.exists():
            with open(path, "rb") as f:
                refs[name] = pickle.load(f)
            path.unlink()
        else:
            tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
            refs[name] = {"args": None, "expected": None, "xla_s": None,
                          "error": f"XLA reference worker ({num_devices} devices) exited "
                                   f"{proc.returncode}: {tail}"}
    return refs


# --------------------------------------------------------------------------
# Running hlograph and comparing.

GPU_UNSUPPORTED = re.compile(r"'[a-z_.]+' op [^\n]*(not supported by the GPU backend|which the GPU backend does not)")


@dataclasses.dataclass
class Outcome:
    name: str
    status: str  # "OK", "FAIL" or "SKIP"
    detail: str = ""
    hlograph_s: float | None = None      # wall time of `hlograph run`
    hlograph_cpu_s: float | None = None  # its user + system CPU time
    xla_s: float | None = None
    leaves: int = 0
    # Largest |diff|/allowed over the float results of a passing program.
    error_ratio: float = 0.0
    note: str = ""  # said next to OK


def run_timed(cmd: list[str], timeout: float, env: dict | None = None) -> tuple[int, str, float, float]:
    """Runs cmd; returns (exit status, stderr+stdout, wall seconds, CPU seconds).

    The CPU time (user + system, from wait4) hardly depends on what else runs on
    the machine, unlike the wall time.  Raises subprocess.TimeoutExpired.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode == -signal.SIGKILL and wall >= timeout:
            raise subprocess.TimeoutExpired(cmd, timeout)
        err.seek(0)
        out.seek(0)
        text = err.read().decode(errors="replace") + out.read().decode(errors="replace")
    return proc.returncode, text, wall, usage.ru_utime + usage.ru_stime


def compare_outputs(prog_entry: dict, ref: dict, output: Path, module_text: str, tf32: bool) -> tuple[str | None, float]:
    """hlograph's .npz against XLA's results: (what differs or None, worst |diff|/allowed)."""
    try:
        with np.load(output, allow_pickle=False) as z:
            got = {k: z[k] for k in z.files}
    except Exception as e:
        return f"cannot read hlograph's output {output.name}: {type(e).__name__}: {e}", 0.0
    expected = ref["expected"]
    names = [f"arr_{i}" for i in range(len(got))]
    if sorted(got) != sorted(names) or len(got) != len(expected):
        return f"hlograph wrote {len(got)} results ({', '.join(sorted(got))}), XLA returned {len(expected)}", 0.0
    scaled = compare.accumulates(module_text)
    ratio = 0.0
    for i, (exp, key) in enumerate(zip(expected, names)):
        leaf = compare.as_dtype(got[key], exp.dtype)
        why = compare.compare_leaf(exp, leaf, scaled=scaled, tf32=tf32)
        if why:
            path = prog_entry["results"][i]["path"] or "result"
            shape = "x".join(str(d) for d in exp.shape)
            return f"result {i} {path} ({exp.dtype.name}[{shape}]): {why}", ratio
        ratio = max(ratio, compare.error_ratio(exp, leaf, scaled=scaled, tf32=tf32))
    return None, ratio


def run_hlograph(opts, prog_entry: dict, ref: dict, workdir: Path) -> Outcome:
    name = prog_entry["name"]
    outcome = Outcome(name, "FAIL", xla_s=ref["xla_s"])
    if ref["error"]:
        outcome.detail = ref["error"]
        return outcome
    inputs, output = workdir / f"{name}.in.npz", workdir / f"{name}.out.npz"
    # bf16/f8 leaves go in as raw bytes ('|V2', '|V1'), the form numpy itself
    # writes for bf16; hlograph reads them back by the signature's element type.
    np.savez(inputs, *(compare.as_raw(a) for a in ref["args"]))
    output.unlink(missing_ok=True)
    cmd = [str(opts.hlograph), "run", str(CORPUS / prog_entry["file"]), "--inputs", str(inputs),
           "--output", str(output), "--backend", opts.backend]
    try:
        rc, text, wall, cpu = run_timed(cmd, opts.timeout)
    except subprocess.TimeoutExpired:
        outcome.detail = f"hlograph timed out after {opts.timeout:g} s"
        return outcome
    except OSError as e:  # e.g. the binary is being relinked
        outcome.detail = f"cannot start {opts.hlograph}: {e}"
        return outcome
    if rc != 0 and opts.backend == "gpu" and GPU_UNSUPPORTED.search(text):
        # An op the GPU backend does not run yet: counted apart, not a pass.
        outcome.status = "SKIP"
        outcome.detail = "not on the GPU yet: " + GPU_UNSUPPORTED.search(text).group(0)
        return outcome
    if rc != 0:
        lines = [l for l in text.strip().splitlines() if l.strip()]
        why = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exited {rc}"
        outcome.detail = f"hlograph {why}: " + (" | ".join(lines[:3]) if lines else "(no output)")
        if len(lines) > 3:
            outcome.detail += f" | ... ({len(lines) - 3} more lines)"
        return outcome
    outcome.hlograph_s, outcome.hlograph_cpu_s = wall, cpu  # timed only when the run succeeded
    module_text = (CORPUS / prog_entry["file"]).read_text()
    # f32 products at DEFAULT precision run in TF32 on the GPU, as in XLA.
    tf32 = opts.backend == "gpu" and compare.uses_tf32(module_text)
    why, ratio = compare_outputs(prog_entry, ref, output, module_text, tf32)
    if why and tf32:
        # A discontinuity (a relu mask, a comparison) can turn a TF32 rounding
        # difference into a large one. The program is right if it matches at
        # full f32 products with f32 tolerances; say so rather than pass silently.
        env = dict(os.environ, HLOGRAPH_GPU_TF32="0")
        rc, text, _, _ = run_timed(cmd, opts.timeout, env)
        again, ratio = compare_outputs(prog_entry, ref, output, module_text, False) if rc == 0 else (text, 0.0)
        if again is None:
            outcome.note = "TF32-sensitive: " + why.split(":")[0] + " differs beyond the TF32 bound; matches with full-f32 products"
        why = None if again is None else why
    if why:
        outcome.detail = why
        return outcome
    outcome.error_ratio = ratio
    outcome.status, outcome.leaves = "OK", len(ref["expected"])
    for _ in range(opts.time_repeats - 1):  # more runs only for the timing: keep the fastest
        rc, _, wall, cpu = run_timed(cmd, opts.timeout)
        if rc == 0:
            outcome.hlograph_s = min(outcome.hlograph_s, wall)
            outcome.hlograph_cpu_s = min(outcome.hlograph_cpu_s, cpu)
    if not opts.keep:
        inputs.unlink(missing_ok=True)
        output.unlink(missing_ok=True)
    return outcome


# --------------------------------------------------------------------------
# Driver.

def load_manifest() -> dict[str, dict]:
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text())
    return {p["name"]: p for p in manifest["programs"]}


def select(manifest: dict[str, dict], patterns: list[str]) -> list[str]:
    if not patterns:
        return list(manifest)
    chosen, unknown = [], []
    for pat in patterns:
        hits = [n for n in manifest if fnmatch.fnmatchcase(n, pat)]
        if not hits:
            unknown.append(pat)
        chosen += [n for n in hits if n not in chosen]
    if unknown:
        raise SystemExit(f"run_corpus.py: no program in the manifest matches: {', '.join(unknown)}")
    return [n for n in manifest if n in chosen]  # manifest order


def format_line(o: Outcome) -> str:
    if o.status == "OK":
        times = f"hlograph {o.hlograph_s:.3f} s"
        if o.xla_s is not None:
            times += f", XLA {o.xla_s * 1e3:.3f} ms"
        note = f" [{o.note}]" if o.note else ""
        return f"OK   {o.name} ({o.leaves} result{'s' * (o.leaves != 1)}; {times}){note}"
    return f"{o.status:<4} {o.name}: {o.detail}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Compare hlograph's CPU interpreter with XLA:CPU on the StableHLO corpus.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="programs to run (shell-style globs allowed; default: all)")
    parser.add_argument("--backend", choices=["cpu", "gpu"], default="cpu",
                        help="hlograph's backend (gpu: f32 products get TF32 tolerances, and programs with ops "
                             "the GPU backend does not run yet are skipped and counted)")
    parser.add_argument("--seed", type=int, help="RNG seed for the arguments (default: random, printed)")
    parser.add_argument("--hlograph", type=Path, default=REPO_ROOT / "build" / "hlograph",
                        help="the hlograph binary (default: build/hlograph)")
    parser.add_argument("--jobs", "-j", type=int, default=2,
                        help="hlograph runs in parallel (default 2); with 1 everything runs "
                             "sequentially, which gives undisturbed timings")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds one hlograph run may take (default 120)")
    parser.add_argument("--time-repeats", type=int, default=1, metavar="N",
                        help="run hlograph N times on a passing program and report the fastest "
                             "wall time (default 1; the results of the first run are compared)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the .npz files (inputs, hlograph's outputs) and print where")
    parser.add_argument("--workdir", type=Path, help="where the .npz files go (default: a temp dir)")
    parser.add_argument("--json", type=Path, help="also write per-program outcomes and times here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()

    if opts.worker:
        return worker_main(opts)

    manifest = load_manifest()
    names = select(manifest, opts.names)
    if opts.seed is None:
        opts.seed = secrets.randbelow(2**31)
    opts.hlograph = opts.hlograph.resolve()
    if not opts.hlograph.is_file():
        print(f"run_corpus.py: no hlograph binary at {opts.hlograph}", file=sys.stderr)
        return 2
    rerun = ["scripts/conformance.sh", "--seed", str(opts.seed)]
    print(f"seed {opts.seed} (replay: {' '.join(rerun)} [NAME ...])", flush=True)

    workdir = opts.workdir or Path(tempfile.mkdtemp(prefix="hlograph-conformance-"))
    workdir.mkdir(parents=True, exist_ok=True)

    local, remote, skipped = [], {}, {}
    for name in names:
        entry = manifest[name]
        n = entry["num_devices"]
        if n > 1 and "sdy.manual_computation" in (CORPUS / entry["file"]).read_text():
            skipped[name] = f"needs {n} devices (sdy.manual_computation)"
        elif n > jax.device_count():
            remote.setdefault(n, []).append(name)
        else:
            local.append(name)

    # Each program's outcome is a future; printing follows the manifest order.
    outcomes: dict[str, cf.Future] = {n: cf.Future() for n in names}
    for name, why in skipped.items():
        outcomes[name].set_result(Outcome(name, "SKIP", why))

    run_pool = cf.ThreadPoolExecutor(max(1, opts.jobs))
    sequential = opts.jobs <= 1

    def run_one(name: str, ref: dict) -> None:
        try:
            outcomes[name].set_result(run_hlograph(opts, manifest[name], ref, workdir))
        except Exception as e:  # a harness bug must not hang the run
            outcomes[name].set_result(Outcome(name, "FAIL", f"harness: {type(e).__name__}: {e}"))

    def dispatch(name: str, ref: dict) -> None:
        if sequential:
            run_one(name, ref)
        else:
            run_pool.submit(run_one, name, ref)

    def produce() -> None:
        # Sharded references first, in a child process, while this one does the rest.
        children = []
        for count, group in sorted(remote.items()):
            if sequential:
                for name, ref in references_in_child(group, count, opts.seed, workdir).items():
                    dispatch(name, ref)
            else:
                def child(group=group, count=count):
                    try:
                        refs = references_in_child(group, count, opts.seed, workdir)
                    except Exception as e:
                        refs = {n: {"error": f"harness: {type(e).__name__}: {e}", "xla_s": None}
                                for n in group}
                    for name, ref in refs.items():
                        dispatch(name, ref)
                t = threading.Thread(target=child, daemon=True)
                t.start()
                children.append(t)
        for name in local:
            try:
                prog = by_name(name)
            except KeyError:
                dispatch(name, {"error": "harness: the manifest lists a program that "
                                         "tools/corpus/programs.py does not have", "xla_s": None})
                continue
            dispatch(name, compute_reference(prog, manifest[name], opts.seed))
        for t in children:
            t.join()

    def produce_guarded() -> None:
        try:
            produce()
        except Exception as e:  # never leave a program without an outcome
            for name in names:
                if not outcomes[name].done():
                    outcomes[name].set_result(
                        Outcome(name, "FAIL", f"harness: {type(e).__name__}: {e}"))

    producer = threading.Thread(target=produce_guarded, daemon=True)
    start = time.perf_counter()
    producer.start()

    results: list[Outcome] = []
    for name in names:
        o = outcomes[name].result()
        results.append(o)
        print(format_line(o), flush=True)
    producer.join()
    run_pool.shutdown()
    elapsed = time.perf_counter() - start

    passed = sum(o.status == "OK" for o in results)
    failed = sum(o.status == "FAIL" for o in results)
    skipped_n = sum(o.status == "SKIP" for o in results)
    timed = [o for o in results if o.hlograph_s is not None and o.xla_s is not None]
    hl_total = sum(o.hlograph_s for o in timed)
    hl_cpu_total = sum(o.hlograph_cpu_s for o in timed)
    xla_total = sum(o.xla_s for o in timed)
    print(f"time: hlograph run {hl_total:.2f} s (CPU {hl_cpu_total:.2f} s) vs XLA:CPU {xla_total * 1e3:.1f} ms "
          f"(sum over the {len(timed)} programs both ran; hlograph: wall time of `hlograph run`"
          f"{f', fastest of {opts.time_repeats}' if opts.time_repeats > 1 else ''}, "
          f"XLA: fastest of {XLA_TIMED_CALLS} calls after the compiling one; jobs={opts.jobs}, "
          f"whole run {elapsed:.1f} s)")
    closest = sorted((o for o in results if o.status == "OK" and o.error_ratio > 0),
                     key=lambda o: -o.error_ratio)[:5]
    if closest:
        print("closest to the tolerance (|diff|/allowed): " +
              ", ".join(f"{o.name} {o.error_ratio:.2g}" for o in closest))
    failures = [o.name for o in results if o.status == "FAIL"]
    if failures:
        print("replay: " + " ".join(rerun + (failures if len(failures) <= 20 else opts.names)))
    if opts.json:
        opts.json.write_text(json.dumps({
            "seed": opts.seed, "jobs": opts.jobs, "hlograph": str(opts.hlograph),
            "passed": passed, "failed": failed, "skipped": skipped_n,
            "hlograph_total_s": hl_total, "hlograph_cpu_total_s": hl_cpu_total, "xla_total_s": xla_total,
            "programs": [dataclasses.asdict(o) for o in results]}, indent=1) + "\n")
    if opts.keep:
        print(f"npz files kept in {workdir}")
    elif opts.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"matched {passed} of {len(results)} programs")
    print(f"{passed} passed, {failed} failed, {skipped_n} skipped")
    # A run that matched nothing proves nothing.
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
