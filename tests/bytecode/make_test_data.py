#!/usr/bin/env python3
"""Writes the unit tests' artifacts: tests/bytecode/data/loop.mlir serialized by
StableHLO for the current version and for 0.9.0 (the oldest, an older
bytecode format), each with MLIR's own deserialization beside it as the
expected text. Run with the project's venv; the outputs are checked in."""
import os

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
text = open(os.path.join(here, "loop.mlir")).read()
for target, tag in ((stablehlo.get_current_version(), "current"), ("0.9.0", "v0_9_0")):
    artifact = stablehlo.serialize_portable_artifact_str(text, target)
    with open(os.path.join(here, f"loop.{tag}.mlirbc"), "wb") as f:
        f.write(artifact)
    ctx = ir.Context()
    with open(os.path.join(here, f"loop.{tag}.expected.mlir"), "w") as f:
        f.write(str(stablehlo.deserialize_portable_artifact(ctx, artifact)))
