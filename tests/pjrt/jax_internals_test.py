"""The private JAX internals python/hlograph_jax uses (_jax_internals.py)
are there in the installed JAX and do what the package relies on. A JAX
upgrade that moves one fails here rather than quietly losing donation or
the linear-algebra lowerings.

    python tests/pjrt/jax_internals_test.py
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from hlograph_jax import _jax_internals  # noqa: E402

PLATFORM = "hlograph_internals_test"  # not the real one: nothing is registered
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        failures.append(name)


missing = _jax_internals.missing()
check("every internal is present", not missing, ", ".join(missing))

check("platform_registered finds JAX's cpu", _jax_internals.platform_registered("cpu"))
check("platform_registered does not invent one", not _jax_internals.platform_registered(PLATFORM))

# JAX lowers only for platforms it knows: a factory makes the test's known
# (never called: JAX_PLATFORMS=cpu).
from jax.extend.backend import register_backend_factory  # noqa: E402

register_backend_factory(PLATFORM, lambda: None, priority=-1000, fail_quietly=True)
from jax._src.interpreters import mlir  # noqa: E402

check("allow_donation applies", _jax_internals.allow_donation(PLATFORM))
check("the platform lowers donations", PLATFORM in mlir._platforms_with_donation)

from jax._src.lax import linalg  # noqa: E402

check("lower_linalg_as_on_cpu applies", _jax_internals.lower_linalg_as_on_cpu(PLATFORM))
rules = mlir._platform_specific_lowerings.get(PLATFORM, {})
for prim in (linalg.eigh_p, linalg.svd_p, linalg.geqrf_p, linalg.schur_p):
    check(f"{prim.name} lowers as on cpu", prim in rules and rules[prim].rule is mlir._platform_specific_lowerings["cpu"][prim].rule)

import inspect  # noqa: E402

from jax._src import xla_bridge  # noqa: E402

params = inspect.signature(xla_bridge.register_plugin).parameters
check("register_plugin takes priority, library_path and options",
      all(p in params for p in ("priority", "library_path", "options")))

print("all passed" if not failures else f"{len(failures)} failed: {', '.join(failures)}")
sys.exit(1 if failures else 0)
