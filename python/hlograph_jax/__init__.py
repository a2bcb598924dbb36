"""JAX plugin for hlograph.

JAX finds this module through the ``jax_plugins`` entry point and calls
``initialize()``, which registers the platform "hlograph" backed by
hlograph's PJRT C API plugin library (libhlograph_pjrt.so). The library is
the one named by the environment variable HLOGRAPH_PJRT_LIBRARY, else the one
installed next to this file.

    JAX_PLATFORMS=hlograph python -c "import jax; print(jax.devices())"
"""

import logging
import os

PLATFORM = "hlograph"
LIBRARY_ENV = "HLOGRAPH_PJRT_LIBRARY"
LIBRARY_NAME = "libhlograph_pjrt.so"

_log = logging.getLogger(__name__)


def library_path():
    """The plugin library to load, or None when there is none."""
    path = os.environ.get(LIBRARY_ENV)
    if path:
        return path
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    return here if os.path.exists(here) else None


def initialize():
    path = library_path()
    if path is None:
        _log.warning("hlograph: no %s next to %s and %s is not set; the hlograph platform is not registered",
                     LIBRARY_NAME, __file__, LIBRARY_ENV)
        return
    if not os.path.exists(path):
        raise FileNotFoundError(f"hlograph: {LIBRARY_ENV}={path}: no such file")
    from jax._src import xla_bridge

    if PLATFORM in getattr(xla_bridge, "_backend_factories", {}):
        return  # registered already (by hand, then by JAX's plugin discovery)
    xla_bridge.register_plugin(PLATFORM, library_path=path)
    _allow_donation()
    _lower_linalg_as_on_cpu()


def _allow_donation():
    """JAX lowers donate_argnums to input/output aliases only for the
    platforms in a fixed list; the plugin honours them (a donated argument is
    consumed, and on the GPU its memory holds the result where the program
    writes it in place), so the platform joins the list. Older or newer JAX
    without the list keeps its default: the donation is ignored, with
    JAX's warning."""
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return
    platforms = getattr(mlir, "_platforms_with_donation", None)
    if isinstance(platforms, list) and PLATFORM not in platforms:
        platforms.append(PLATFORM)


def _lower_linalg_as_on_cpu():
    """JAX registers the lowerings of eigh, svd, eig, schur, ... (LAPACK
    custom calls) only for the platforms it knows; lowering them for a plugin
    fails before the plugin sees the program. hlograph runs those LAPACK
    calls (on the host, with the LAPACK XLA:CPU uses), so the CPU rules of
    the linear-algebra primitives serve the platform too."""
    try:
        from jax._src import core
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg
    except ImportError:
        return
    rules = getattr(mlir, "_platform_specific_lowerings", None)
    if rules is None:
        return
    for prim in vars(linalg).values():
        if not isinstance(prim, core.Primitive):
            continue
        cpu = rules["cpu"].get(prim)
        if cpu is not None and prim not in rules[PLATFORM]:
            mlir.register_lowering(prim, cpu.rule, platform=PLATFORM, inline=cpu.inline)
