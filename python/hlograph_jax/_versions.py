"""The jaxlib releases this plugin works with.

The plugin implements PJRT C API 0.115, the version of jaxlib 0.11.2; jaxlib
checks each call against the version a plugin reports, and this package
reaches into a few JAX internals (_jax_internals.py) that move between
releases. The range below is the one tested: 0.11.2 (the conformance
reference) and 0.12.0 pass the plugin, corpus and internals tests (0.11.0
and 0.11.1 load it too, but their XLA:CPU rounds a bf16 reduction
differently from what the corpus expects). pyproject.toml pins the same
range (tests/pjrt/versions_test.py keeps the two in step); this check
catches an environment that got around the pin.
"""

import re

MINIMUM = (0, 11, 2)  # the first jaxlib supported
BELOW = (0, 13)  # the first jaxlib not supported
PJRT_C_API = (0, 115)


def _text(version):
    return ".".join(str(p) for p in version)


def requirement():
    """The range as a version specifier: ">=0.11.2,<0.12"."""
    return f">={_text(MINIMUM)},<{_text(BELOW)}"


def parse(version):
    """The leading numbers of a version string: "0.11.2.dev1" -> (0, 11, 2)."""
    m = re.match(r"\d+(?:\.\d+)*", version)
    if m is None:
        raise ValueError(f"unparsable version {version!r}")
    return tuple(int(p) for p in m.group(0).split("."))


def unsupported_jaxlib(version=None):
    """Why the installed jaxlib (or `version`) cannot be used, or None."""
    if version is None:
        try:
            from jaxlib.version import __version__ as version
        except ImportError:
            return "jaxlib is not installed (pip install 'jaxlib" + requirement() + "')"
    got = parse(version)
    if MINIMUM <= got < BELOW:
        return None
    return (f"jaxlib {version} is installed, but this plugin (PJRT C API {_text(PJRT_C_API)}) supports jaxlib "
            f"{requirement()}: pip install 'jax{requirement()}' 'jaxlib{requirement()}'")
