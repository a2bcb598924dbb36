#!/usr/bin/env python3
"""Out of device memory, as a user meets it, on the GPU machine:

    python3 bench/oom_check.py --plugin build-gpu/libhlograph_pjrt.so --hlograph build-gpu/hlograph

1. `hlograph run` of a program whose output is 400 GB: a clear error naming
   the size asked and the memory free, exit status 1;
2. `hlograph run` with temps held in an arena (HLOGRAPH_GPU_TEMPS=arena)
   under --memory-budget 1K: an error naming the arena and the budget;
3. the same 400 GB output through jax.jit on the hlograph platform: an
   exception naming the sizes, then a later call in the same process is
   correct (checked against numpy) and memory_stats() still answers.
Exits 1 if any of these does not hold.
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUGE = """func.func @main(%arg0: tensor<f32>) -> tensor<100000x1000000xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<100000x1000000xf32>
  return %0 : tensor<100000x1000000xf32>
}
"""


def cli_checks(hlograph):
    ok = True
    with tempfile.NamedTemporaryFile('w', suffix='.mlir', delete=False) as f:
        f.write(HUGE)
    cases = [
        ('400 GB output', [hlograph, 'run', f.name, '--random', '0', '--backend', 'gpu'], {}, '400000000000'),
        ('arena over the budget', [hlograph, 'run', os.path.join(ROOT, 'tests/corpus/mlp_grad.mlir'), '--random', '0',
                                   '--backend', 'gpu', '--memory-budget', '1K'], {'HLOGRAPH_GPU_TEMPS': 'arena'},
         'memory budget of 1024 bytes'),
    ]
    for name, cmd, env, want in cases:
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **env), timeout=300)
        good = p.returncode == 1 and want in p.stderr
        ok &= good
        print(f'{"ok  " if good else "FAIL"} {name}: exit {p.returncode}: {p.stderr.strip()[:300]}')
    os.unlink(f.name)
    return ok


def jax_checks(plugin):
    env = dict(os.environ, JAX_PLATFORMS='hlograph,cpu', HLOGRAPH_PJRT_BACKEND='gpu', HLOGRAPH_PJRT_LIBRARY=plugin)
    p = subprocess.run([sys.executable, __file__, '--jax-child'], env=env, timeout=600)
    return p.returncode == 0


def jax_child():
    import numpy as np
    import jax
    import jax.numpy as jnp
    sys.path.insert(0, os.path.join(ROOT, 'python'))
    import hlograph_jax  # registers the plugin named by HLOGRAPH_PJRT_LIBRARY (not installed here)
    hlograph_jax.initialize()
    dev = jax.devices('hlograph')[0]
    ok = True
    try:
        jax.jit(lambda x: jnp.broadcast_to(x, (100000, 1000000)))(jax.device_put(np.float32(1.5), dev)).block_until_ready()
        print('FAIL 400 GB through jax.jit: no error')
        ok = False
    except Exception as e:  # JAX raises its own XlaRuntimeError type
        text = str(e)
        good = '400000000000' in text
        ok &= good
        print(f'{"ok  " if good else "FAIL"} 400 GB through jax.jit: {type(e).__name__}: {text[:300]}')
    x = np.random.default_rng(0).standard_normal((512, 512)).astype(np.float32)
    # At full f32 precision: the default may multiply in TF32 on a GPU.
    got = np.asarray(jax.jit(lambda a: jnp.tanh(jnp.dot(a, a.T, precision='highest')) + 1.0)(jax.device_put(x, dev)))
    want = np.tanh(x.astype(np.float64) @ x.T.astype(np.float64)) + 1.0
    good = bool(np.all(np.isfinite(got)) and np.allclose(got, want, atol=2e-2))
    ok &= good
    print(f'{"ok  " if good else "FAIL"} a later call: max error {float(np.max(np.abs(got - want))):.2e}')
    stats = dev.memory_stats()
    print(f'{"ok  " if stats else "FAIL"} memory_stats() after: {stats}')
    return 0 if ok and stats else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--plugin', default=os.path.join(ROOT, 'build-gpu/libhlograph_pjrt.so'))
    ap.add_argument('--hlograph', default=os.path.join(ROOT, 'build-gpu/hlograph'))
    ap.add_argument('--jax-child', action='store_true', help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.jax_child:
        return jax_child()
    ok = cli_checks(a.hlograph)
    ok &= jax_checks(a.plugin)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
