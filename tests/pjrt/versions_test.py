"""The jaxlib range the package accepts (python/hlograph_jax/_versions.py) is
the one pyproject.toml pins, the installed jaxlib is in it, and a jaxlib
outside it gets a message that says what to install.

    python tests/pjrt/versions_test.py
"""

import os
import sys
import tomllib

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(root, "python"))

from hlograph_jax import _versions  # noqa: E402

failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (f": {detail}" if detail and not ok else ""))
    if not ok:
        failures.append(name)


with open(os.path.join(root, "pyproject.toml"), "rb") as f:
    dependencies = tomllib.load(f)["project"]["dependencies"]
want = {f"jax{_versions.requirement()}", f"jaxlib{_versions.requirement()}"}
check("pyproject.toml pins the range the package checks", want <= set(dependencies), f"{dependencies} vs {want}")

from jaxlib.version import __version__ as installed  # noqa: E402

check(f"the installed jaxlib {installed} is supported", _versions.unsupported_jaxlib() is None,
      _versions.unsupported_jaxlib())

lo = _versions.MINIMUM
hi = _versions.BELOW
inside = [".".join(map(str, lo)), ".".join(map(str, lo)) + ".dev20260101"]
outside = [f"{lo[0]}.{lo[1] - 1}.0" if lo[1] else "0.0.1", ".".join(map(str, hi)) + ".0", f"{hi[0]}.{hi[1]}.1"]
for v in inside:
    check(f"{v} accepted", _versions.unsupported_jaxlib(v) is None)
for v in outside:
    message = _versions.unsupported_jaxlib(v)
    check(f"{v} refused with what to install", message is not None and _versions.requirement() in message, message)

print("all passed" if not failures else f"{len(failures)} failed: {', '.join(failures)}")
sys.exit(1 if failures else 0)
