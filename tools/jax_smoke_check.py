"""Checks an installed hlograph-jax package as a user meets it: JAX finds it
through its entry point (no HLOGRAPH_PJRT_LIBRARY, no path tricks), the
platform is there, jax.jit runs on it, and it becomes JAX's default only
where it runs on a GPU or is asked for. Run by tools/clean_install_check.sh
with the venv's Python.

    .venv/bin/python tools/jax_smoke_check.py
"""

import json
import os
import subprocess
import sys

PROBE = r"""
import json, jax, jax.numpy as jnp
out = {"default": jax.default_backend()}
dev = jax.devices("hlograph")[0]
out["kind"] = dev.device_kind
out["jit"] = jax.jit(lambda x: x * 2)(jax.device_put(jnp.arange(3.0), dev)).tolist()
print("PROBE " + json.dumps(out))
"""


def probe(**env_changes):
    env = {k: v for k, v in os.environ.items()
           if k not in ("JAX_PLATFORMS", "HLOGRAPH_PJRT_BACKEND", "HLOGRAPH_PJRT_LIBRARY", "PYTHONPATH")}
    env.update(env_changes)
    p = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=600)
    lines = [line for line in p.stdout.splitlines() if line.startswith("PROBE ")]
    if p.returncode != 0 or not lines:
        raise SystemExit(f"FAIL: the probe with {env_changes or 'no settings'} failed:\n{p.stderr}")
    return json.loads(lines[-1][6:]), [line for line in p.stderr.splitlines() if line.startswith("hlograph:")]


os.environ.pop("HLOGRAPH_PJRT_LIBRARY", None)  # the installed library, not another
import hlograph_jax  # noqa: E402  (the installed package)
from hlograph_jax import _library  # noqa: E402

path = hlograph_jax.library_path()
if path is None:
    raise SystemExit(f"FAIL: the installed package {hlograph_jax.__file__} has no {_library.LIBRARY_NAME}")
auto = _library.auto_backend(path)
print(f"package {os.path.dirname(hlograph_jax.__file__)}\nlibrary {path}\nauto backend: {auto}")

failures = []
out, log = probe()
expected = "hlograph" if auto == "gpu" else "cpu"
print(f"no settings: JAX's default {out['default']!r}, hlograph device {out['kind']!r}, jit {out['jit']}")
for line in log:
    print(f"  log: {line}")
if out["default"] != expected:
    failures.append(f"JAX's default is {out['default']!r}, expected {expected!r}")
if out["jit"] != [0.0, 2.0, 4.0]:
    failures.append(f"jit gave {out['jit']}")
if auto != "gpu" and len(log) != 1:
    failures.append(f"expected one log line saying hlograph is not the default, got {log}")

out, _ = probe(JAX_PLATFORMS="hlograph")
print(f"JAX_PLATFORMS=hlograph: default {out['default']!r}, jit {out['jit']}")
if out["default"] != "hlograph" or out["jit"] != [0.0, 2.0, 4.0]:
    failures.append(f"JAX_PLATFORMS=hlograph gave {out}")

out, _ = probe(HLOGRAPH_PJRT_BACKEND="cpu")
print(f"HLOGRAPH_PJRT_BACKEND=cpu: default {out['default']!r}, device {out['kind']!r}, jit {out['jit']}")
if out["default"] != "hlograph" or out["kind"] != "cpu" or out["jit"] != [0.0, 2.0, 4.0]:
    failures.append(f"HLOGRAPH_PJRT_BACKEND=cpu gave {out}")

for f in failures:
    print("FAIL: " + f)
print("clean install: all checks passed" if not failures else f"clean install: {len(failures)} check(s) failed")
sys.exit(1 if failures else 0)
