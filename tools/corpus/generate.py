"""Export the programs of programs.py as StableHLO text into tests/corpus/.

Run from the repository root with the project venv:

    .venv/bin/python tools/corpus/generate.py [--out DIR] [NAME ...]

For every program it writes

    <out>/<name>.mlir          jax.jit(fn).lower(*args).as_text()
    <out>/debug/<name>.mlir    the same with debug_info=True (locations)

plus <out>/MANIFEST.json (names, categories, argument and result shapes and
dtypes, JAX version) and a few multi-module files whose modules are separated
by `// -----` lines.  The output is deterministic: re-running it on an
unchanged tree rewrites identical files.

Programs that need several devices are lowered in a child process started
with XLA_FLAGS=--xla_force_host_platform_device_count=N, so the parent keeps
the default single CPU device.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

os.environ["JAX_PLATFORMS"] = "cpu"

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import jax  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402

from programs import PROGRAMS, Program  # noqa: E402

# Source paths in debug locations are made relative to the repository root (or
# to site-packages for installed libraries) so the text does not depend on
# where the checkout or the venv lives.
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  "^(.*/site-packages/|" + re.escape(str(REPO_ROOT) + "/") + ")")

# Hand-assembled multi-module files: file name -> (modules, use debug text).
MULTI_MODULE_FILES = {
    "multi_module.mlir": (["mlp_forward", "scan_cumulative", "scatter_add_duplicates"], False),
    "multi_module_debug.mlir": (["softmax", "cond_simple", "sort_multi_operand"], True),
    "multi_module_sharded.mlir": (["sharded_matmul", "shard_map_psum", "random_rbg"], False),
}
SPLIT_MARKER = "// -----"


def _leaf_specs(tree) -> list[dict]:
    leaves = jax.tree_util.tree_flatten_with_path(tree)[0]
    return [{"path": jax.tree_util.keystr(path), "shape": list(leaf.shape),
             "dtype": np.dtype(leaf.dtype).name} for path, leaf in leaves]


def lower_program(prog: Program) -> dict:
    """Lower one program; returns its manifest entry plus both texts."""
    with warnings.catch_warnings():
        # Donation of buffers that cannot alias an output is reported but harmless.
        warnings.filterwarnings("ignore", message="Some donated buffers were not usable")
        lowered = prog.lower()
        with prog.context():
            text = lowered.as_text()
            debug_text = lowered.as_text(debug_info=True)
            results = _leaf_specs(lowered.out_info)
    entry = {
        "name": prog.name,
        "category": prog.category,
        "file": f"{prog.name}.mlir",
        "debug_file": f"debug/{prog.name}.mlir",
        "x64": prog.x64,
        "num_devices": prog.num_devices,
        "args": _leaf_specs(prog.arg_specs()),
        "results": results,
    }
    return {"entry": entry, "text": text, "debug_text": debug_text}


def lower_all(programs: list[Program]) -> tuple[list[dict], list[str]]:
    lowered, failures = [], []
    for prog in programs:
        try:
            lowered.append(lower_program(prog))
        except Exception as e:  # report and go on with the rest
            failures.append(f"{prog.name}: {type(e).__name__}: {e}".splitlines()[0])
    return lowered, failures


def lower_in_child(programs: list[Program], num_devices: int) -> tuple[list[dict], list[str]]:
    """Lower programs in a child process that has `num_devices` CPU devices."""
    env = dict(os.environ)
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={num_devices}").strip()
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *(p.name for p in programs)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"worker for {num_devices}-device programs failed")
    result = json.loads(proc.stdout)
    return result["lowered"], result["failures"]


def _ensure_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def write_if_changed(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != content:
        path.write_text(content)


def _format_manifest(manifest: dict) -> str:
    """Indented JSON with each argument/result spec kept on a single line."""
    text = json.dumps(manifest, indent=1)
    text = re.sub(r'\{\s*"path"[^{}]*\}', lambda m: json.dumps(json.loads(m.group(0))), text)
    return text + "\n"


def write_corpus(out: Path, lowered: list[dict], complete: bool) -> None:
    by_name = {item["entry"]["name"]: item for item in lowered}
    for item in lowered:
        entry = item["entry"]
        write_if_changed(out / entry["file"], _ensure_newline(item["text"]))
        write_if_changed(out / entry["debug_file"], _ensure_newline(item["debug_text"]))

    multi = []
    for file_name, (names, debug) in MULTI_MODULE_FILES.items():
        if not all(n in by_name for n in names):
            continue
        key = "debug_text" if debug else "text"
        chunks = [_ensure_newline(by_name[n][key]) for n in names]
        write_if_changed(out / file_name, f"{SPLIT_MARKER}\n".join(chunks))
        multi.append({"file": file_name, "modules": names, "debug_info": debug})

    if not complete:
        return  # a partial run (selected programs) leaves the manifest alone

    manifest_path = out / "MANIFEST.json"
    # Remove files of programs that were dropped from the registry since the last run.
    if manifest_path.exists():
        old = json.loads(manifest_path.read_text())
        for entry in old.get("programs", []):
            if entry["name"] not in by_name:
                for key in ("file", "debug_file"):
                    (out / entry[key]).unlink(missing_ok=True)

    manifest = {
        "generator": "tools/corpus/generate.py",
        "jax_version": jax.__version__,
        "jaxlib_version": jaxlib.__version__,
        "num_programs": len(lowered),
        "programs": [item["entry"] for item in lowered],
        "multi_module": multi,
    }
    write_if_changed(manifest_path, _format_manifest(manifest))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="only these programs (default: all)")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "tests" / "corpus",
                        help="output directory (default: tests/corpus)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()

    known = {p.name: p for p in PROGRAMS}
    unknown = [n for n in opts.names if n not in known]
    if unknown:
        parser.error(f"unknown program(s): {', '.join(unknown)}")
    selected = [known[n] for n in opts.names] if opts.names else list(PROGRAMS)

    if opts.worker:
        lowered, failures = lower_all(selected)
        json.dump({"lowered": lowered, "failures": failures}, sys.stdout)
        return 0

    local = [p for p in selected if p.num_devices <= jax.device_count()]
    lowered, failures = lower_all(local)
    for count in sorted({p.num_devices for p in selected if p not in local}):
        group = [p for p in selected if p.num_devices == count]
        more, more_failures = lower_in_child(group, count)
        lowered += more
        failures += more_failures

    order = {p.name: i for i, p in enumerate(selected)}
    lowered.sort(key=lambda item: order[item["entry"]["name"]])
    write_corpus(opts.out, lowered, complete=not opts.names and not failures)

    for failure in failures:
        print(f"FAILED {failure}", file=sys.stderr)
    try:
        where = opts.out.resolve().relative_to(REPO_ROOT)
    except ValueError:
        where = opts.out
    print(f"wrote {len(lowered)} programs to {where} ({len(failures)} failed)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
