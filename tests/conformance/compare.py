"""Leaf-by-leaf comparison of hlograph results against XLA:CPU results.

The rules (see also tests/conformance/README.md):

* integers and bools must be bit-exact;
* NaN must be NaN in exactly the same positions, and an infinity must be the
  same infinity (same sign) in exactly the same positions, for every float
  type (complex numbers: per component);
* finite floats must satisfy ``|got - expected| <= atol + rtol * |expected|``
  with the per-type tolerances of ``TOLERANCES``; complex numbers are
  compared per component with the tolerance of their component type;
* float8 types are allowed to differ by one unit in the last place (adjacent
  representable values), nothing more;
* in programs that accumulate (dots, convolutions, reductions, loops, FFTs,
  library calls, see ``ACCUMULATING_OPS``) the summation order of the
  interpreter differs from XLA's vectorised, blocked order, so the error of
  an element is bounded by the magnitude of the terms that were summed, not
  by the magnitude of the element itself (cancellation can make an element
  arbitrarily small).  There the absolute term is scaled by the data: it
  becomes ``max(atol, rtol * max|expected|)`` over the leaf, i.e. a normwise
  relative error bound of ``rtol``.  Nothing else is loosened.
"""

from __future__ import annotations

import dataclasses
import re

import ml_dtypes
import numpy as np


@dataclasses.dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float


# Per float (component) type.  f32: a few dozen ulps (XLA:CPU uses its own
# polynomial approximations of exp/log/tanh/..., the interpreter the C
# library's; both are within a few ulps of the true value).  f64: 1e-9
# relative is far above the ~1e-16 of the operations but catches any
# accidental computation in f32.  f16/bf16: XLA:CPU computes most 16-bit
# operations in f32 and rounds once per fusion, an interpreter rounds after
# every operation: a few ulps of the 16-bit type (f16 ulp 2^-10 ~ 1e-3,
# bf16 ulp 2^-7 ~ 8e-3 relative).
TOLERANCES: dict[str, Tolerance] = {
    "float64": Tolerance(rtol=1e-9, atol=1e-12),
    "float32": Tolerance(rtol=1e-5, atol=1e-6),
    "float16": Tolerance(rtol=1e-2, atol=1e-2),
    "bfloat16": Tolerance(rtol=2e-2, atol=2e-2),
}
COMPLEX_COMPONENT = {"complex64": "float32", "complex128": "float64"}
FLOAT8_TYPES = {"float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                "float8_e4m3b11fnuz", "float8_e4m3", "float8_e3m4", "float8_e8m0fnu"}

# Ops after which results are sums of many rounded terms.
ACCUMULATING_OPS = re.compile(
    r"\bstablehlo\.(dot_general|dot|convolution|reduce|reduce_window|select_and_scatter|scatter|"
    r"fft|while|cholesky|triangular_solve|custom_call|batch_norm_training|batch_norm_grad)\b")


def accumulates(module_text: str) -> bool:
    return ACCUMULATING_OPS.search(module_text) is not None


# TF32 (10-bit mantissa) products: what the GPU computes for f32 dot_general
# and convolution at DEFAULT/HIGH precision, as XLA does there. Each product
# is off by up to ~2^-11 relative, so results get a normwise 1e-2 bound.
TF32_TOLERANCE = Tolerance(rtol=1e-2, atol=1e-5)
_F32_PRODUCT = re.compile(r"stablehlo\.(dot_general|convolution)\b[^\n]*f32")


def uses_tf32(module_text: str) -> bool:
    """Whether some f32 product in the module runs at DEFAULT/HIGH precision."""
    return any("HIGHEST" not in m.group(0) for m in _F32_PRODUCT.finditer(module_text))


def dtype_from_name(name: str) -> np.dtype:
    """numpy dtype of a manifest dtype name (ml_dtypes for bf16/f8)."""
    if hasattr(ml_dtypes, name):
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def is_ml_dtype(dtype: np.dtype) -> bool:
    """bf16 and the f8 types: numpy has no descriptor for them in .npy files."""
    return dtype.name == "bfloat16" or dtype.name in FLOAT8_TYPES


def as_raw(a: np.ndarray) -> np.ndarray:
    """bf16/f8 arrays as raw bytes ('|V2', '|V1'): what .npz files can hold."""
    return a.view(f"V{a.dtype.itemsize}") if is_ml_dtype(a.dtype) else a


def as_dtype(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Reinterprets raw void data (how bf16/f8 are stored in .npz) as `dtype`."""
    if a.dtype.kind == "V" and is_ml_dtype(dtype) and a.dtype.itemsize == dtype.itemsize:
        return a.view(dtype)
    return a


def _fmt(v, dtype: np.dtype | None = None) -> str:
    """Shortest text that identifies `v` as a value of `dtype`."""
    if dtype is not None and dtype.kind in "fV":
        return str(dtype.type(v))
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    return str(v)


def _index(flat: int, shape: tuple) -> str:
    if not shape:
        return "()"
    return "(" + ",".join(str(i) for i in np.unravel_index(flat, shape)) + ")"


def _float_check(exp: np.ndarray, got: np.ndarray, tol: Tolerance, scaled: bool, scale: float):
    """Boolean mask of bad elements plus the tolerance array, for float64 views."""
    exp_nan, got_nan = np.isnan(exp), np.isnan(got)
    exp_inf, got_inf = np.isinf(exp), np.isinf(got)
    bad = exp_nan != got_nan
    bad |= (exp_inf | got_inf) & ~(exp_nan | got_nan) & (exp != got)
    finite = np.isfinite(exp) & np.isfinite(got)
    atol = max(tol.atol, tol.rtol * scale) if scaled else tol.atol
    allowed = atol + tol.rtol * np.abs(exp)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(got - exp)
    bad |= finite & ~(diff <= allowed)
    return bad, diff, allowed, atol


def _float8_ordinal(a: np.ndarray) -> np.ndarray:
    bits = a.view(np.uint8).astype(np.int32)
    mag = bits & 0x7F
    return np.where(bits & 0x80, -mag, mag)


def tolerance(name: str, tf32: bool) -> Tolerance:
    return TF32_TOLERANCE if tf32 and name == "float32" else TOLERANCES[name]


def error_ratio(exp: np.ndarray, got: np.ndarray, *, scaled: bool, tf32: bool = False) -> float:
    """max |got - expected| / allowed over the finite elements of a matching
    float leaf (0 for exact results, 1 at the tolerance); 0 for other types."""
    name = exp.dtype.name
    if exp.size == 0 or (name not in TOLERANCES and name not in COMPLEX_COMPONENT):
        return 0.0
    tol = tolerance(COMPLEX_COMPONENT.get(name, name), tf32)
    e, g = exp.reshape(-1), got.reshape(-1)
    if name in COMPLEX_COMPONENT:
        e = np.concatenate([e.real, e.imag])
        g = np.concatenate([g.real, g.imag])
    e, g = e.astype(np.float64), g.astype(np.float64)
    finite = np.isfinite(e) & np.isfinite(g)
    if not finite.any():
        return 0.0
    e, g = e[finite], g[finite]
    atol = max(tol.atol, tol.rtol * float(np.abs(e).max())) if scaled else tol.atol
    return float(np.max(np.abs(g - e) / (atol + tol.rtol * np.abs(e))))


def compare_leaf(exp: np.ndarray, got: np.ndarray, *, scaled: bool, tf32: bool = False) -> str | None:
    """None if `got` matches `exp`, else a one-line reason."""
    if exp.shape != got.shape:
        return f"shape {list(got.shape)}, expected {list(exp.shape)}"
    if exp.dtype != got.dtype:
        return f"dtype {got.dtype.name}, expected {exp.dtype.name}"
    name = exp.dtype.name
    n = exp.size
    if n == 0:
        return None
    eflat, gflat = exp.reshape(-1), got.reshape(-1)

    if name in FLOAT8_TYPES:
        e32, g32 = eflat.astype(np.float32), gflat.astype(np.float32)
        bad = np.isnan(e32) != np.isnan(g32)
        bad |= (np.isinf(e32) | np.isinf(g32)) & ~(np.isnan(e32) | np.isnan(g32)) & (e32 != g32)
        both = ~(np.isnan(e32) | np.isnan(g32) | np.isinf(e32) | np.isinf(g32))
        bad |= both & (np.abs(_float8_ordinal(eflat) - _float8_ordinal(gflat)) > 1)
        if not bad.any():
            return None
        i = int(np.flatnonzero(bad)[0])
        return (f"{int(bad.sum())} of {n} elements differ by more than 1 ulp of {name}; first at "
                f"{_index(i, exp.shape)}: expected {_fmt(eflat[i], exp.dtype)}, got {_fmt(gflat[i], exp.dtype)}")

    if name in TOLERANCES or name in COMPLEX_COMPONENT:
        comp = COMPLEX_COMPONENT.get(name, name)
        tol = tolerance(comp, tf32)
        if name in COMPLEX_COMPONENT:
            parts = [("real", eflat.real.astype(np.float64), gflat.real.astype(np.float64)),
                     ("imag", eflat.imag.astype(np.float64), gflat.imag.astype(np.float64))]
        else:
            parts = [("", eflat.astype(np.float64), gflat.astype(np.float64))]
        finite_abs = [np.abs(e[np.isfinite(e)]) for _, e, _ in parts]
        scale = max((float(a.max()) for a in finite_abs if a.size), default=0.0)
        for part, e, g in parts:
            bad, diff, allowed, atol = _float_check(e, g, tol, scaled, scale)
            if not bad.any():
                continue
            i = int(np.flatnonzero(bad)[0])
            where = f"{_index(i, exp.shape)}{'.' + part if part else ''}"
            finite = np.isfinite(e) & np.isfinite(g)
            if np.isfinite(e[i]) and np.isfinite(g[i]):
                why = (f"|diff| {float(diff[i]):.3g} > {float(allowed[i]):.3g} (rtol {tol.rtol:g}, "
                       f"atol {atol:.3g}{' = rtol*max|expected|' if atol > tol.atol else ''})")
            else:
                why = "NaN/inf mismatch"
            ratio = diff[finite] / allowed[finite]
            if ratio.size and ratio.max() > 1:
                why += f"; worst |diff|/allowed {float(ratio.max()):.3g}"
            shown = dtype_from_name(comp)
            return (f"{int(bad.sum())} of {n} elements differ; first at {where}: expected "
                    f"{_fmt(e[i], shown)}, got {_fmt(g[i], shown)}, {why}")
        return None

    # Integers, bools and anything else: bit-exact.
    eb = eflat.view(np.uint8).reshape(n, -1) if eflat.dtype.itemsize else eflat
    gb = gflat.view(np.uint8).reshape(n, -1) if gflat.dtype.itemsize else gflat
    if name == "bool":  # any non-zero byte is true
        bad = eflat.astype(bool) != gflat.astype(bool)
    else:
        bad = (eb != gb).any(axis=1)
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad)[0])
    return (f"{int(bad.sum())} of {n} elements differ; first at {_index(i, exp.shape)}: "
            f"expected {_fmt(eflat[i])}, got {_fmt(gflat[i])}")
