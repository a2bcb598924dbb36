"""Whether the hlograph platform becomes JAX's default (python/hlograph_jax,
_placement.py): without a GPU it must not unless asked, and says so in one
log line; HLOGRAPH_PJRT_BACKEND=cpu and JAX_PLATFORMS=hlograph ask; a bad
setting or a missing library leaves plain JAX working.

    python tests/pjrt/placement_test.py path/to/libhlograph_pjrt.so

Each case runs in a fresh interpreter (JAX chooses its backends once).
"""

import json
import os
import subprocess
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(root, "python"))
library = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ["HLOGRAPH_PJRT_LIBRARY"])

from hlograph_jax import _library  # noqa: E402

ON_GPU = _library.auto_backend(library) == "gpu"
BELOW_CPU_LINE = "registered below JAX's CPU platform"

# What the child reports: JAX's default platform, whether "hlograph" is
# there, and a jit on it when it is.
PROBE = r"""
import json, hlograph_jax, jax, jax.numpy as jnp
hlograph_jax.initialize()  # as JAX's plugin discovery would
out = {"default": jax.default_backend()}
try:
    dev = jax.devices("hlograph")[0]
    out["hlograph"] = True
    out["jit"] = jax.jit(lambda x: x * 2)(jax.device_put(jnp.arange(3.0), dev)).tolist()
except RuntimeError:
    out["hlograph"] = False
print("PROBE " + json.dumps(out))
"""

failures = []


def run(**env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "HLOGRAPH_PJRT_BACKEND")}
    env.update(PYTHONPATH=os.path.join(root, "python"), HLOGRAPH_PJRT_LIBRARY=library)
    env.update(env_changes)
    p = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)
    lines = [line for line in p.stdout.splitlines() if line.startswith("PROBE ")]
    if p.returncode != 0 or not lines:
        return None, p.stderr
    return json.loads(lines[-1][6:]), p.stderr


def case(name, env, default, hlograph, log_substring=None, log_count=None):
    out, stderr = run(**env)
    problems = []
    if out is None:
        problems.append("the probe failed:\n" + stderr)
    else:
        if out["default"] != default:
            problems.append(f"default {out['default']!r}, expected {default!r}")
        if out["hlograph"] != hlograph:
            problems.append(f"hlograph platform {'present' if out['hlograph'] else 'absent'}")
        if hlograph and out.get("jit") != [0.0, 2.0, 4.0]:
            problems.append(f"jit gave {out.get('jit')}")
    hlograph_lines = [line for line in stderr.splitlines() if "hlograph:" in line]
    if log_substring is not None:
        n = sum(log_substring in line for line in hlograph_lines)
        if n != log_count:
            problems.append(f"{n} log lines with {log_substring!r}, expected {log_count}: {hlograph_lines}")
    elif hlograph_lines:
        problems.append(f"unexpected log lines: {hlograph_lines}")
    print(("ok   " if not problems else "FAIL ") + name + "".join("\n     " + p for p in problems))
    if problems:
        failures.append(name)


if ON_GPU:
    case("auto on a GPU: the default", {}, "hlograph", True)
else:
    case("auto without a GPU: below JAX's cpu, one line", {}, "cpu", True, BELOW_CPU_LINE, 1)
case("HLOGRAPH_PJRT_BACKEND=cpu: the default on purpose", {"HLOGRAPH_PJRT_BACKEND": "cpu"}, "hlograph", True)
case("JAX_PLATFORMS=hlograph", {"JAX_PLATFORMS": "hlograph"}, "hlograph", True)
case("JAX_PLATFORMS=cpu,hlograph", {"JAX_PLATFORMS": "cpu,hlograph"}, "cpu", True)
case("a bad HLOGRAPH_PJRT_BACKEND: not registered, JAX works", {"HLOGRAPH_PJRT_BACKEND": "cuda"}, "cpu", False,
     "HLOGRAPH_PJRT_BACKEND='cuda'", 1)
case("a missing library: not registered, JAX works", {"HLOGRAPH_PJRT_LIBRARY": "/nonexistent/libhlograph_pjrt.so"},
     "cpu", False, "no such file", 1)

print("all passed" if not failures else f"{len(failures)} failed: {', '.join(failures)}")
sys.exit(1 if failures else 0)
