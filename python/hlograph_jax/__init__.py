"""JAX plugin for hlograph.

JAX finds this module through the ``jax_plugins`` entry point and calls
``initialize()``, which registers the platform "hlograph", backed by
hlograph's PJRT C API plugin library (libhlograph_pjrt.so): the one named by
HLOGRAPH_PJRT_LIBRARY, else the one installed in this package.

The platform becomes JAX's default only where the plugin runs on a GPU, or
where HLOGRAPH_PJRT_BACKEND names a backend on purpose; on the CPU
interpreter alone it registers below JAX's CPU platform and says so in one
log line (_placement.py).

    JAX_PLATFORMS=hlograph python -c "import jax; print(jax.devices())"
"""

import logging
import os

from . import _jax_internals, _library, _placement, _versions

PLATFORM = "hlograph"
LIBRARY_ENV = _library.LIBRARY_ENV
LIBRARY_NAME = _library.LIBRARY_NAME
library_path = _library.library_path

_log = logging.getLogger(__name__)
_registered = False


def initialize():
    """Registers the platform with JAX; a second call does nothing. Problems
    are logged, not raised, so that plain JAX keeps working."""
    global _registered
    if _registered or _jax_internals.platform_registered(PLATFORM):
        _registered = True
        return
    problem = _versions.unsupported_jaxlib()
    if problem is None:
        problem = _placement.backend_setting_problem(os.environ.get(_placement.BACKEND_ENV))
    if problem is not None:
        _log.error("hlograph: %s; the hlograph platform is not registered", problem)
        return
    path = _library.library_path()
    if path is None:
        _log.warning("hlograph: no %s in %s and %s is not set; the hlograph platform is not registered",
                     LIBRARY_NAME, os.path.dirname(os.path.abspath(__file__)), LIBRARY_ENV)
        return
    if not os.path.exists(path):
        _log.error("hlograph: %s=%s: no such file; the hlograph platform is not registered", LIBRARY_ENV, path)
        return
    try:
        placement = _placement.choose(lambda: _library.auto_backend(path))
    except _library.LoadError as e:
        _log.error("hlograph: %s; the hlograph platform is not registered", e)
        return
    if placement.message:
        _log.warning("hlograph: %s", placement.message)
    try:
        _jax_internals.register_plugin(PLATFORM, path, placement.priority)
    except Exception as e:  # JAX's loader: a library that does not load or is not a PJRT plugin
        _log.error("hlograph: registering %s failed: %s; the hlograph platform is not registered", path, e)
        return
    _registered = True
    _jax_internals.allow_donation(PLATFORM)
    _jax_internals.lower_linalg_as_on_cpu(PLATFORM)
