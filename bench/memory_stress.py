#!/usr/bin/env python3
"""Device memory and correctness under load through jax.jit: XLA's own plugin
against hlograph's PJRT plugin, each side in a child process of its own.

    python3 bench/memory_stress.py --plugin build-gpu/libhlograph_pjrt.so \
        [--executables 1000] [--calls 10000] [--threads 8] [--platform gpu|cpu]

Each side runs three phases and checks every result against numpy (float64
reference, float32 tolerance), counting the wrong ones:
  1. many executables: --executables jitted functions of distinct shapes, in
     turn a small MLP (two products, tanh), a fori_loop of tanh steps, and a
     Cholesky solve (on hlograph's GPU backend its LAPACK calls run on the
     host, so the program is split around host steps); each is compiled and
     called, then all are called again while all stay alive;
  2. fresh addresses: --calls calls of one program, each on a newly
     allocated argument;
  3. threads: --threads threads, each making --calls / --threads calls of one
     shared executable on arguments of its own.
Memory after phase 1 and the peak over all three: the platform's own count
(Device.memory_stats(): bytes_in_use, then held: pool_bytes, what the
allocator holds in use or cached, where reported), its peak_bytes_in_use,
and, on the GPU, what the driver
says the process holds (nvidia-smi, the CUDA context included), read at the
end of phase 1 and at the end. XLA runs with XLA_PYTHON_CLIENT_PREALLOCATE
=false, so that its allocator grows only as it needs.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--plugin', default=os.path.join(ROOT, 'build-gpu/libhlograph_pjrt.so'))
    ap.add_argument('--platform', choices=['gpu', 'cpu'], default='gpu')
    ap.add_argument('--executables', type=int, default=1000)
    ap.add_argument('--calls', type=int, default=10000)
    ap.add_argument('--threads', type=int, default=8)
    ap.add_argument('--sides', default='xla,hlograph')
    ap.add_argument('--json', help='write both sides\' results here')
    ap.add_argument('--side', help=argparse.SUPPRESS)
    ap.add_argument('--out', help=argparse.SUPPRESS)
    return ap.parse_args()


def driver_bytes():
    """What the driver says this process holds on the GPU, or None."""
    try:
        out = subprocess.run(['nvidia-smi', '--query-compute-apps=pid,used_memory', '--format=csv,noheader,nounits'],
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        pid, _, mib = line.partition(',')
        if pid.strip() == str(os.getpid()):
            return int(mib.strip()) << 20
    return None


def programs(count):
    """(name, function, arguments, reference) for `count` distinct shapes."""
    import numpy as np
    import jax
    import jax.numpy as jnp
    rng = np.random.default_rng(0)
    out = []
    for i in range(count):
        kind = i % 3
        n = 8 + i // 3  # distinct shapes within each kind
        if kind == 0:
            x = rng.standard_normal((n, 32)).astype(np.float32)
            w1 = (rng.standard_normal((32, 64)) / 8).astype(np.float32)
            w2 = (rng.standard_normal((64, 16)) / 8).astype(np.float32)
            f = lambda x, w1, w2: jnp.tanh(x @ w1) @ w2
            ref = np.tanh(x.astype(np.float64) @ w1) @ w2
            out.append((f'mlp_{n}', f, (x, w1, w2), ref))
        elif kind == 1:
            x = rng.standard_normal((n, 16)).astype(np.float32)
            f = lambda x: jax.lax.fori_loop(0, 5, lambda _, v: jnp.tanh(v) * 1.5, x)
            ref = x.astype(np.float64)
            for _ in range(5):
                ref = np.tanh(ref) * 1.5
            out.append((f'loop_{n}', f, (x,), ref))
        else:
            m = 4 + (i // 3) % 60
            a = rng.standard_normal((m, m)).astype(np.float32)
            spd = (a @ a.T + m * np.eye(m)).astype(np.float32)
            b = rng.standard_normal((m, 1 + i // 180)).astype(np.float32)
            f = lambda s, b: jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(s), b)
            ref = np.linalg.solve(spd.astype(np.float64), b.astype(np.float64))
            out.append((f'cholesky_{m}x{b.shape[1]}', f, (spd, b), ref))
    return out


def close(got, want):
    import numpy as np
    got = np.asarray(got, dtype=np.float64)
    return bool(np.all(np.isfinite(got)) and np.allclose(got, want, rtol=2e-3, atol=2e-3))


def memory(device):
    """In use, the peak of in use, and held (in use plus what the platform's
    allocator keeps cached: pool_bytes where the platform reports it)."""
    stats = device.memory_stats() or {}
    in_use = stats.get('bytes_in_use', 0)
    return dict(bytes_in_use=in_use, peak_bytes_in_use=stats.get('peak_bytes_in_use', 0),
                held_bytes=max(in_use, stats.get('pool_bytes', 0)),
                bytes_limit=stats.get('bytes_limit'), driver_bytes=driver_bytes())


def measure_side(a):
    """In the child: the three phases on this side's platform."""
    import numpy as np
    import jax
    if a.side == 'hlograph':
        sys.path.insert(0, os.path.join(ROOT, 'python'))
        import hlograph_jax
        hlograph_jax.initialize()
    device = jax.devices()[0]
    row = dict(device=str(device))

    # 1. Many live executables of distinct shapes, each called twice.
    start = time.perf_counter()
    progs = programs(a.executables)
    jitted, wrong = [], 0
    for name, f, args, ref in progs:
        g = jax.jit(f)
        dargs = jax.device_put(args, device)
        wrong += not close(g(*dargs), ref)
        jitted.append((g, dargs, ref))
    for g, dargs, ref in jitted:
        wrong += not close(g(*dargs), ref)
    row['executables'] = dict(count=len(jitted), wrong=wrong, seconds=round(time.perf_counter() - start, 1),
                              memory=memory(device))

    # 2. One program, a fresh argument each call.
    rng = np.random.default_rng(1)
    w = (rng.standard_normal((256, 256)) / 16).astype(np.float32)
    f = jax.jit(lambda x, w: jnp_tanh_dot(x, w))
    dw = jax.device_put(w, device)
    start, wrong = time.perf_counter(), 0
    base = rng.standard_normal((64, 256)).astype(np.float32)
    for c in range(a.calls):
        x = base + np.float32(c % 97) / 97
        got = f(jax.device_put(x, device), dw)
        if c % 10 == 0 or c == a.calls - 1:  # every tenth checked: the check costs more than the call
            wrong += not close(got, np.tanh(x.astype(np.float64) @ w))
        else:
            got.block_until_ready()
    row['fresh_addresses'] = dict(calls=a.calls, checked=(a.calls + 9) // 10, wrong=wrong,
                                  seconds=round(time.perf_counter() - start, 1))

    # 3. Threads sharing one executable, each with arguments of its own.
    per_thread = max(1, a.calls // a.threads)
    wrong_by_thread = [0] * a.threads

    def worker(t):
        r = np.random.default_rng(100 + t)
        x = r.standard_normal((64, 256)).astype(np.float32)
        want = np.tanh(x.astype(np.float64) @ w)
        dx = jax.device_put(x, device)
        for _ in range(per_thread):
            wrong_by_thread[t] += not close(f(dx, dw), want)

    start = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(t,)) for t in range(a.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    row['threads'] = dict(threads=a.threads, calls_each=per_thread, wrong=sum(wrong_by_thread),
                          seconds=round(time.perf_counter() - start, 1))
    row['end_memory'] = memory(device)
    with open(a.out, 'w') as fh:
        json.dump(row, fh)


def jnp_tanh_dot(x, w):
    import jax.numpy as jnp
    return jnp.tanh(x @ w)


def mib(b):
    return '-' if b is None else f'{b / 2**20:.0f}'


def held(m):
    return f'{mib(m["bytes_in_use"])} / {mib(m.get("held_bytes"))} / {mib(m["driver_bytes"])}'


def main():
    a = parse_args()
    if a.side:
        return measure_side(a)
    workdir = tempfile.mkdtemp(prefix='memory-stress-')
    sides = {}
    for side in a.sides.split(','):
        env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE='false', PYTHONUNBUFFERED='1')
        if side == 'xla':
            env['JAX_PLATFORMS'] = 'cuda' if a.platform == 'gpu' else 'cpu'
        else:
            env.update(JAX_PLATFORMS='hlograph', HLOGRAPH_PJRT_BACKEND=a.platform, HLOGRAPH_PJRT_LIBRARY=a.plugin)
        out = os.path.join(workdir, f'{side}.json')
        cmd = [sys.executable, os.path.abspath(__file__), '--side', side, '--out', out,
               '--executables', str(a.executables), '--calls', str(a.calls), '--threads', str(a.threads)]
        p = subprocess.run(cmd, env=env, check=False, timeout=3600)
        sides[side] = json.load(open(out)) if os.path.exists(out) else dict(error=f'exit {p.returncode}')
    print(f'{a.executables} live executables, {a.calls} calls on fresh arguments, {a.threads} threads '
          f'x {max(1, a.calls // a.threads)} calls (MiB: in use / held by the platform / the driver\'s count, context included)')
    print('| side | executables wrong | fresh wrong | threads wrong | after phase 1 MiB | peak in use MiB | end MiB | s |')
    print('|---|---|---|---|---|---|---|---|')
    failed = False
    for side, r in sides.items():
        if 'error' in r:
            print(f'| {side} | {r["error"]} | | | | | | |')
            failed = True
            continue
        e, fr, th, m, end = r['executables'], r['fresh_addresses'], r['threads'], r['executables']['memory'], \
            r['end_memory']
        failed |= e['wrong'] + fr['wrong'] + th['wrong'] > 0
        print(f'| {side} | {e["wrong"]}/{2 * e["count"]} | {fr["wrong"]}/{fr["checked"]} | '
              f'{th["wrong"]}/{th["threads"] * th["calls_each"]} | {held(m)} | {mib(end["peak_bytes_in_use"])} | {held(end)} | '
              f'{e["seconds"] + fr["seconds"] + th["seconds"]:.0f} |')
    if a.json:
        with open(a.json, 'w') as fh:
            json.dump(sides, fh, indent=1)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
