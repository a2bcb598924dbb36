#!/usr/bin/env python3
"""Serializes every corpus program into StableHLO portable artifacts (VHLO
bytecode) with jaxlib, for several target versions, and checks that
`hlograph print X.mlirbc` prints what `hlograph print` prints for the same
program as MLIR's own deserializer gives it back (with --debug-info too).

Three serializers are used: StableHLO's (stablehlo.serialize_portable_artifact_str,
which refuses CHLO and Shardy ops) and the one JAX hands PJRT plugins
(jaxlib's _jax.mlir.serialize_portable_artifact, which first legalizes CHLO
to StableHLO), once exporting Shardy shardings to attributes and custom calls
and once keeping them as Shardy ops beside VHLO (mixed serialization). VHLO cannot tell an attribute
from its default, so the oracle is MLIR's deserialization, not the original
text; how many programs also print exactly as their original text does is
reported too.

usage: export_corpus.py HLOGRAPH [CORPUS_DIR...] [--keep DIR] [--only NAME]
Exit status: 0 when every artifact the serializers produced printed as its
oracle; programs a serializer refuses are counted and skipped.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

from jax._src.lib import _jax
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

# 0.14.0, 0.12.0, 0.10.0 and 0.9.0 are written in older bytecode formats (4, 3, 1 and 0).
TARGETS = ["current", "1.0.0", "0.19.0", "0.14.0", "0.12.0", "0.10.0", "0.9.0"]


class QuietStderr:
    """MLIR prints its diagnostics straight to fd 2; keep them out of the log
    (the exception that follows carries the reason)."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        return False


def hlograph_print(hlograph, path, debug_info=False):
    p = subprocess.run([hlograph, "print"] + (["--debug-info"] if debug_info else []) + [path],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def deserialize(artifact):
    """MLIR's reading of an artifact as text: StableHLO's deserializer, or
    jaxlib's (XLA's, which knows Shardy) when the artifact holds sdy ops."""
    with QuietStderr():
        try:
            ctx = ir.Context()
            module = stablehlo.deserialize_portable_artifact(ctx, artifact)
        except Exception:
            from jax._src.interpreters import mlir as jax_mlir
            module = _jax.mlir.deserialize_portable_artifact(artifact, jax_mlir.make_ir_context())
        return module.operation.get_asm(enable_debug_info=True)


def serializers(text, target):
    yield "stablehlo", lambda: stablehlo.serialize_portable_artifact_str(text, target)
    yield "jax", lambda: _jax.mlir.serialize_portable_artifact(text, target, False)
    # Shardy kept as Shardy ops and attributes next to VHLO (mixed serialization).
    yield "jax+sdy", lambda: _jax.mlir.serialize_portable_artifact(text, target, True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hlograph")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("corpus", nargs="*", help="directories of .mlir programs (default: the corpus and its "
                    "debug/ copies, which carry source locations)",
                    default=[os.path.join(here, "..", "corpus"), os.path.join(here, "..", "corpus", "debug")])
    ap.add_argument("--keep", help="directory to keep the artifacts and oracles in")
    ap.add_argument("--only", help="one program name")
    args = ap.parse_args()
    scratch = None if args.keep else tempfile.TemporaryDirectory(prefix="hlograph_bytecode_")
    out_dir = args.keep or scratch.name
    os.makedirs(out_dir, exist_ok=True)
    current = stablehlo.get_current_version()
    minimum = stablehlo.get_minimum_version()
    print(f"StableHLO {current} (minimum {minimum}), artifacts in {out_dir}")

    tally = {}  # (serializer, target) -> [same, same_as_text, refused, failed]
    failures = []
    paths = [p for d in args.corpus for p in sorted(glob.glob(os.path.join(d, "*.mlir")))]
    for path in paths:
        name = os.path.basename(path)[:-5]
        if os.path.basename(os.path.dirname(path)) == "debug":
            name = "debug." + name
        if args.only and name != args.only:
            continue
        text = open(path).read()
        _, text_print, _ = hlograph_print(args.hlograph, path)
        for target in TARGETS:
            version = current if target == "current" else target
            for kind, serialize in serializers(text, version):
                counts = tally.setdefault((kind, target), [0, 0, 0, 0])
                try:
                    with QuietStderr():
                        artifact = serialize()
                except Exception as e:  # the serializer refuses this program
                    counts[2] += 1
                    reason = str(e).strip().splitlines()[-1][:160] if str(e).strip() else type(e).__name__
                    print(f"  skip {name} [{kind} {target}]: serializer refused: {reason}")
                    continue
                stem = os.path.join(out_dir, f"{name}.{kind}.{target}")
                with open(stem + ".mlirbc", "wb") as f:
                    f.write(artifact)
                rc_b, printed, err_b = hlograph_print(args.hlograph, stem + ".mlirbc")
                try:
                    oracle_text = deserialize(artifact)
                except Exception:
                    # MLIR cannot read it back: no oracle;
                    # hlograph must still read it or say clearly why not.
                    counts[2] += 1
                    status = "reads it" if rc_b == 0 else "says: " + err_b.strip()[:200]
                    print(f"  skip {name} [{kind} {target}]: MLIR cannot deserialize it; hlograph {status}")
                    continue
                with open(stem + ".oracle.mlir", "w") as f:
                    f.write(oracle_text)
                rc_o, oracle, err_o = hlograph_print(args.hlograph, stem + ".oracle.mlir")
                if rc_o != 0:
                    counts[2] += 1
                    print(f"  skip {name} [{kind} {target}]: hlograph cannot parse MLIR's deserialization: "
                          f"{err_o.strip()[:160]}")
                    continue
                # Source locations too: `print --debug-info` on both sides.
                _, oracle_locs, _ = hlograph_print(args.hlograph, stem + ".oracle.mlir", debug_info=True)
                _, printed_locs, _ = hlograph_print(args.hlograph, stem + ".mlirbc", debug_info=True)
                if rc_b != 0 or printed != oracle or printed_locs != oracle_locs:
                    counts[3] += 1
                    why = (err_b.strip()[:300] if rc_b != 0 else
                           "prints differently" if printed != oracle else "locations print differently")
                    failures.append(f"{name} [{kind} {target}]: {why}")
                    continue
                counts[0] += 1
                counts[1] += printed == text_print
    print("serializer target      same  same-as-text  refused  FAILED")
    for (kind, target), (same, same_text, refused, failed) in sorted(tally.items()):
        print(f"{kind:10} {target:9} {same:6} {same_text:13} {refused:8} {failed:7}")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
