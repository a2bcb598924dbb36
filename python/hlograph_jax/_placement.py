"""Whether the hlograph platform may become JAX's default.

JAX's default platform is the registered one of highest priority (its CPU
platform has 0, plugins 400 unless they say otherwise). hlograph takes the
default where it runs on a GPU, or where HLOGRAPH_PJRT_BACKEND asks for a
backend by name; on the CPU interpreter alone, which is far slower than
XLA:CPU, it stays below JAX's CPU platform, so installing the package never
slows plain JAX down unasked, and says so once.
"""

import os
from typing import Callable, NamedTuple

BACKEND_ENV = "HLOGRAPH_PJRT_BACKEND"
BACKENDS = ("cpu", "gpu", "auto")
DEFAULT_PRIORITY = 400  # JAX's own default for plugins
BELOW_CPU_PRIORITY = -100


class Placement(NamedTuple):
    priority: int
    message: str | None  # the one line to log, when there is something to say


def backend_setting_problem(setting):
    """Why HLOGRAPH_PJRT_BACKEND's value cannot work, or None."""
    if setting and setting not in BACKENDS:
        return f"{BACKEND_ENV}={setting!r}: expected one of {', '.join(BACKENDS)}"
    return None


def choose(auto_backend: Callable[[], str], platforms=None, backend_setting=None):
    """The priority to register with. `auto_backend` says what the plugin's
    "auto" would pick ("gpu" or "cpu: why"); it is called only when the answer
    matters. `platforms` and `backend_setting` default to JAX_PLATFORMS and
    HLOGRAPH_PJRT_BACKEND."""
    if platforms is None:
        platforms = _jax_platforms()
    if backend_setting is None:
        backend_setting = os.environ.get(BACKEND_ENV, "")
    if backend_setting in ("cpu", "gpu"):
        return Placement(DEFAULT_PRIORITY, None)  # asked for by name
    if platforms:
        return Placement(DEFAULT_PRIORITY, None)  # JAX follows the list; priorities are not used
    auto = auto_backend()
    if auto == "gpu":
        return Placement(DEFAULT_PRIORITY, None)
    why = auto.partition(": ")[2] or "the plugin runs on its CPU interpreter"
    return Placement(BELOW_CPU_PRIORITY,
                     f"{why}; the hlograph platform (the CPU interpreter) is registered below JAX's CPU platform, "
                     f"so JAX's default stays 'cpu'. Use it with JAX_PLATFORMS=hlograph, jax.devices('hlograph'), "
                     f"or make it the default with {BACKEND_ENV}=cpu.")


def _jax_platforms():
    """JAX_PLATFORMS, or the jax_platforms option set in the program."""
    try:
        import jax
        return getattr(jax.config, "jax_platforms", None) or os.environ.get("JAX_PLATFORMS", "")
    except ImportError:
        return os.environ.get("JAX_PLATFORMS", "")
