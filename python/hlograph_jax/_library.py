"""Where the plugin library is, and what it would run on, asked before JAX
creates a client."""

import ctypes
import os

LIBRARY_ENV = "HLOGRAPH_PJRT_LIBRARY"
LIBRARY_NAME = "libhlograph_pjrt.so"


class LoadError(Exception):
    """The library cannot be loaded (missing, or a library it links is)."""


def library_path():
    """The library named by HLOGRAPH_PJRT_LIBRARY, else the one installed in
    this package, else None."""
    path = os.environ.get(LIBRARY_ENV)
    if path:
        return path
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME)
    return here if os.path.exists(here) else None


def auto_backend(path):
    """Returns "gpu" where HLOGRAPH_PJRT_BACKEND=auto would run on the GPU,
    else "cpu: " and why not (no GPU backend in this build, no device)."""
    handle = _dlopen_as_jax_does(path)
    query = _dlsym(handle, b"hlograph_pjrt_auto_backend")
    if query is None:
        return "cpu: the library does not say whether it has a GPU backend (it predates the question)"
    return ctypes.CFUNCTYPE(ctypes.c_char_p)(query)().decode()


def _libc():
    libc = ctypes.CDLL(None)  # the process's own symbols: dlopen, dlsym, dlerror
    libc.dlopen.restype = ctypes.c_void_p
    libc.dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.dlsym.restype = ctypes.c_void_p
    libc.dlsym.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    libc.dlerror.restype = ctypes.c_char_p
    return libc


def _dlopen_as_jax_does(path):
    """dlopen with RTLD_LAZY, as JAX loads PJRT plugins (ctypes.CDLL would
    bind every symbol now, stricter than JAX), so the answer is JAX's."""
    libc = _libc()
    handle = libc.dlopen(path.encode(), os.RTLD_LAZY | os.RTLD_LOCAL)
    if not handle:
        why = (libc.dlerror() or b"dlopen failed").decode(errors="replace")
        # Usually a library it links: the wheel uses the system's OpenBLAS
        # and zlib rather than carrying its own.
        raise LoadError(f"cannot load {path}: {why} (it needs OpenBLAS and zlib: on Debian and Ubuntu, "
                        "apt-get install libopenblas0 zlib1g)")
    return handle


def _dlsym(handle, name):
    return _libc().dlsym(handle, name) or None
