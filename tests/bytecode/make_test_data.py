#!/usr/bin/env python3
"""Writes the unit tests' artifacts into tests/bytecode/data, each with MLIR's
own deserialization beside it (NAME.expected.mlir) as the expected text:

- loop.mlir serialized by StableHLO for the current version and for 0.9.0
  (the oldest: an older bytecode format, no properties, inline regions);
- features.mlir (dot algorithm, typed-FFI custom call, result accuracy);
- quantized.mlir (!quant.uniform element types, per tensor and per axis);
- jnp.cumsum exported by jax.export for CUDA (a composite "chlo.scan" with
  the scan's body as a region, its attributes holding a builtin dense
  array, array<i32: 1, 1>);
- a few corpus programs serialized as JAX hands them to PJRT plugins
  (jaxlib's serializer: CHLO legalized, Shardy meshes kept), covering
  convolutions, windows, gather/scatter, sort, FFT, LAPACK custom calls and
  a Shardy mesh with mesh-axis replica groups.

Run with the project's venv; the outputs are checked in."""
import os
import re

from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib import _jax
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "data")
corpus = os.path.join(here, "..", "corpus")
current = stablehlo.get_current_version()


def write(name, artifact):
    with open(os.path.join(data, name + ".mlirbc"), "wb") as f:
        f.write(artifact)
    try:
        module = stablehlo.deserialize_portable_artifact(ir.Context(), artifact)
    except Exception:  # Shardy: only jaxlib's deserializer knows it
        module = _jax.mlir.deserialize_portable_artifact(artifact, jax_mlir.make_ir_context())
    with open(os.path.join(data, name + ".expected.mlir"), "w") as f:
        f.write(module.operation.get_asm(enable_debug_info=True))




def cumsum_cuda():
    """jnp.cumsum along both axes of f32 and i32, as jax.export writes it for
    CUDA; source paths relative to the repository."""
    import jax
    import jax.numpy as jnp
    root = os.path.dirname(os.path.dirname(here))
    jax.config.update("jax_hlo_source_file_canonicalization_regex", "^" + re.escape(root + "/"))

    def f(x, i):
        return jnp.cumsum(x, axis=0), jnp.cumsum(i, axis=1)

    args = (jax.ShapeDtypeStruct((3, 4), jnp.float32), jax.ShapeDtypeStruct((3, 4), jnp.int32))
    return jax.export.export(jax.jit(f), platforms=["cuda"])(*args).mlir_module_serialized


text = open(os.path.join(data, "loop.mlir")).read()
write("loop.current", stablehlo.serialize_portable_artifact_str(text, current))
write("loop.v0_9_0", stablehlo.serialize_portable_artifact_str(text, "0.9.0"))
features = open(os.path.join(data, "features.mlir")).read()
write("features.current", stablehlo.serialize_portable_artifact_str(features, current))
quantized = open(os.path.join(data, "quantized.mlir")).read()
write("quantized.current", stablehlo.serialize_portable_artifact_str(quantized, current))
write("cumsum_cuda.jax", cumsum_cuda())
for program in ["shard_map_psum", "cnn_train_grad", "gather_fancy_2d", "scatter_add_duplicates",
                "sort_multi_operand", "fft_ifft", "cholesky_solve_triangular"]:
    text = open(os.path.join(corpus, program + ".mlir")).read()
    write(program + ".jax", _jax.mlir.serialize_portable_artifact(text, current, False))
