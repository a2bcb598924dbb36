#!/usr/bin/env python3
"""Host time per call through JAX: XLA's own GPU plugin against hlograph's
PJRT plugin on the GPU backend, and hlograph's own execute, side by side on
the GPU machine:

    python3 bench/pjrt_overhead.py --plugin build-gpu/libhlograph_pjrt.so \
        --hlograph build-gpu/hlograph [NAME ...] [--calls 2000]

Each side runs in a child process of its own (JAX_PLATFORMS=cuda, then
JAX_PLATFORMS=hlograph with HLOGRAPH_PJRT_BACKEND=gpu). For each workload
(bench/workloads.py; `tiny` is x * 2 on 256 floats) with the same
arguments on the device:
  - host per call: --burst calls queued back to back on an idle device,
    the host's time until the last call returns (before waiting for the
    device) divided by the calls, median over --rounds bursts: JAX's
    dispatch plus the plugin's Execute. Bursts stay short because a long
    run of queued calls is throttled to the device's pace (XLA's client
    lets 32 calls ahead; CUDA's launch queue is finite), which measures the
    device instead of the host;
  - queued: --calls calls back to back, then one wait, per call;
  - latency: median of calls each followed by block_until_ready;
  - the plugin's results are checked against XLA's (tolerance by dtype).
hlograph's own execute host time comes from `hlograph bench --json` on
the program JAX lowers: the C++ API's Execute, queueing the work, on an
idle device (host_us) and with the device busy with earlier calls
(host_queued_us, calls 2..8 of its queued run, as in the bursts here).
overhead = plugin host per call - hlograph execute host with the device
busy: what a call through JAX and the plugin adds. Part of it is the
engine's Execute itself running with the host's caches cold after JAX's
work between calls (`hlograph bench --evict-kb` measures that).

Where a steady call's host time goes (the calls after the first of each
burst): with HLOGRAPH_PJRT_STATS=1 (set for the plugin's side) the plugin
times every entry of its PJRT table and the engine's own Execute, and this
script reads the totals (hlograph_pjrt_call_times, exported by the plugin)
around each call: time inside the plugin (less the timers' own cost, which
the plugin measures), of it the engine's Execute, so
"plugin adds" = inside - engine, and "JAX" = host - inside (JAX's dispatch,
the same code in front of XLA's plugin).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOL = {'float32': 1e-2, 'bfloat16': 5e-2, 'float16': 5e-2, 'float64': 1e-6}
DEFAULT = ['tiny', 'mlp_chain', 'fori_tanh', 'scan_layers', 'gpt_decode']


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('names', nargs='*', help=f'workloads (default: {" ".join(DEFAULT)})')
    ap.add_argument('--plugin', default=os.path.join(ROOT, 'build-gpu/libhlograph_pjrt.so'))
    ap.add_argument('--hlograph', default=os.path.join(ROOT, 'build-gpu/hlograph'))
    ap.add_argument('--calls', type=int, default=1000, help='queued calls for the queued time (default 1000)')
    ap.add_argument('--burst', type=int, default=8, help='calls per burst for the host time (default 8)')
    ap.add_argument('--rounds', type=int, default=200, help='bursts measured (default 200)')
    ap.add_argument('--platform', choices=['gpu', 'cpu'], default='gpu',
                    help='cpu: a dry run of the script (XLA:CPU against the plugin on the CPU interpreter)')
    ap.add_argument('--side', choices=['xla', 'hlograph'], help=argparse.SUPPRESS)
    ap.add_argument('--out', help=argparse.SUPPRESS)
    ap.add_argument('--workdir', help=argparse.SUPPRESS)
    return ap.parse_args()


def workload(name):
    import jax.numpy as jnp
    import numpy as np
    sys.path.insert(0, HERE)
    if name == 'tiny':
        def tiny(x):
            return x * 2
        return tiny, [jnp.asarray(np.arange(256, dtype=np.float32))]
    import workloads
    g, leaves, _ = workloads.flat(name)
    return g, leaves


def plugin_call_times():
    """The plugin's entry timers (a function returning their totals), or None."""
    import ctypes
    try:
        fn = ctypes.CDLL(os.environ['HLOGRAPH_PJRT_LIBRARY']).hlograph_pjrt_call_times
    except (KeyError, OSError, AttributeError):
        return None
    fn.restype = ctypes.c_char_p
    return lambda: json.loads(fn())


def attribute(f, leaves, a, call_times):
    """Per steady call (calls 2.. of each burst): host time, time inside the
    plugin by entry, and the engine's Execute, in microseconds (medians)."""
    import jax
    import numpy as np
    host, inside, engine, entries = [], [], [], {}
    for _ in range(a.rounds):
        before = call_times()
        for k in range(a.burst):
            t = time.perf_counter()
            out = f(*leaves)
            took = time.perf_counter() - t
            after = call_times()
            if k > 0:
                host.append(took * 1e6)
                # Less the timers' own cost (two clock reads an entry).
                timer_us = after.get('timer_ns_per_entry', 0.0) / 1e3
                spent = {e: (v[1] - before['entries'].get(e, [0, 0])[1]) / 1e3
                         - (v[0] - before['entries'].get(e, [0, 0])[0]) * timer_us
                         for e, v in after['entries'].items()}
                inside.append(sum(spent.values()))
                engine.append((after['engine_execute'][1] - before['engine_execute'][1]) / 1e3)
                for e, us in spent.items():
                    if us > 0:
                        entries.setdefault(e, []).append(us)
            before = after
        jax.block_until_ready(out)
    calls = len(host)
    return dict(attributed_host_us=float(np.median(host)), inside_us=float(np.median(inside)),
                engine_us=float(np.median(engine)),
                adds_us=float(np.median(np.asarray(inside) - np.asarray(engine))),
                entries_us={e: round(float(np.sum(v)) / calls, 2) for e, v in sorted(entries.items())})


def measure_side(a):
    """In the child: every workload on this side's platform."""
    import jax
    import numpy as np
    call_times = None
    if a.side == 'hlograph':
        sys.path.insert(0, os.path.join(ROOT, 'python'))
        import hlograph_jax
        hlograph_jax.initialize()
        call_times = plugin_call_times()
    device = jax.devices()[0]
    rows = {}
    for name in a.names:
        g, leaves = workload(name)
        leaves = jax.device_put(leaves, device)
        f = jax.jit(g)
        row = dict(device=str(device))
        try:
            t = time.perf_counter()
            out = f(*leaves)
            jax.block_until_ready(out)
            row['first_call_s'] = time.perf_counter() - t
            for _ in range(20):
                jax.block_until_ready(f(*leaves))
            lat = []
            for _ in range(min(a.calls, 300)):
                t = time.perf_counter()
                jax.block_until_ready(f(*leaves))
                lat.append(time.perf_counter() - t)
            row['latency_us'] = float(np.median(lat) * 1e6)
            bursts, each = [], np.zeros((a.rounds, a.burst))
            for r in range(a.rounds):
                t = start = time.perf_counter()
                for k in range(a.burst):
                    out = f(*leaves)
                    t, each[r, k] = time.perf_counter(), time.perf_counter() - t
                bursts.append((t - start) / a.burst)
                jax.block_until_ready(out)
            row['host_us'] = float(np.median(bursts) * 1e6)
            # Per position in the burst: a call that waits for earlier ones shows here.
            row['burst_us'] = [round(float(v) * 1e6, 1) for v in np.median(each, axis=0)]
            row['steady_host_us'] = float(np.median(each[:, 1:]) * 1e6)
            if call_times is not None and 'PJRT_LoadedExecutable_Execute' in call_times()['entries']:
                row.update(attribute(f, leaves, a, call_times))
            time.sleep(0.5)
            t = time.perf_counter()
            for _ in range(a.calls):
                out = f(*leaves)
            jax.block_until_ready(out)
            row['queued_us'] = (time.perf_counter() - t) / a.calls * 1e6
            flat_out = [np.asarray(o) for o in jax.tree_util.tree_leaves(f(*leaves))]
            np.savez(os.path.join(a.workdir, f'{name}.{a.side}.npz'), *flat_out)
            if a.side == 'xla':
                with open(os.path.join(a.workdir, f'{name}.mlir'), 'w') as fh:
                    fh.write(f.lower(*leaves).as_text())
                np.savez(os.path.join(a.workdir, f'{name}.inputs.npz'), *[np.asarray(x) for x in leaves])
        except Exception as e:  # noqa: BLE001 (a failing workload is reported in its row)
            row['error'] = f'{type(e).__name__}: {e}'.splitlines()[0][:200]
        rows[name] = row
    with open(a.out, 'w') as fh:
        json.dump(rows, fh)


def check(name, workdir):
    import numpy as np
    try:
        x = np.load(os.path.join(workdir, f'{name}.xla.npz'))
        h = np.load(os.path.join(workdir, f'{name}.hlograph.npz'))
    except OSError as e:
        return f'no results ({e.strerror})'
    worst = 0.0
    for k in x.files:
        ref, got = x[k].astype(np.float64), h[k].astype(np.float64)
        if ref.shape != got.shape or np.isnan(got).any() != np.isnan(ref).any():
            return f'MISMATCH ({k}: shape or NaN)'
        tol = TOL.get(str(x[k].dtype), 0.0)
        err = float(np.linalg.norm((got - ref).ravel()) / max(np.linalg.norm(ref.ravel()), 1e-30))
        if err > tol:
            return f'MISMATCH ({k}: relative error {err:.1e} > {tol})'
        worst = max(worst, err)
    return f'ok ({worst:.1e})'


def hlograph_execute_us(a, name, workdir, result_sets=1):
    """`hlograph bench`'s host time in Execute: on an idle device, and with
    the device busy (calls 2..8 of its queued run, as in the bursts here)."""
    mlir = os.path.join(workdir, f'{name}.mlir')
    if not os.path.exists(mlir):
        return {}
    p = subprocess.run([a.hlograph, 'bench', mlir, '--inputs', os.path.join(workdir, f'{name}.inputs.npz'),
                        '--iters', '300', '--json', '--backend', a.platform, '--result-sets', str(result_sets)],
                       capture_output=True, text=True, timeout=900)
    try:
        r = json.loads(p.stdout.strip().splitlines()[-1])
        return {'idle': r.get('host_us'), 'busy': r.get('host_queued_us')}
    except (ValueError, IndexError):
        sys.stderr.write(p.stdout + p.stderr)
        return {}


def main():
    a = parse_args()
    a.names = a.names or DEFAULT
    if a.side:
        return measure_side(a)
    workdir = tempfile.mkdtemp(prefix='pjrt-overhead-')
    sides = {}
    for side in ('xla', 'hlograph'):
        env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE='false')
        if side == 'xla':
            env['JAX_PLATFORMS'] = 'cuda' if a.platform == 'gpu' else 'cpu'
        else:
            env.update(JAX_PLATFORMS='hlograph', HLOGRAPH_PJRT_BACKEND=a.platform, HLOGRAPH_PJRT_LIBRARY=a.plugin)
            env.setdefault('HLOGRAPH_PJRT_STATS', '1')
        out = os.path.join(workdir, f'{side}.json')
        cmd = [sys.executable, __file__, '--side', side, '--out', out, '--workdir', workdir,
               '--calls', str(a.calls), '--burst', str(a.burst), '--rounds', str(a.rounds)] + a.names
        subprocess.run(cmd, env=env, check=False, timeout=1800)
        sides[side] = json.load(open(out)) if os.path.exists(out) else {}
    print(f'Host time per call in microseconds (median of {a.rounds} bursts of {a.burst} calls on an idle device); '
          f'latency: each call waited for; queued: {a.calls} calls, one wait.')
    print('| workload | XLA host / latency / queued | plugin host / latency / queued | hlograph execute host, '
          'idle / device busy | overhead (over busy) | check |')
    print('|---|---|---|---|---|---|')
    alternating = {}  # hlograph's execute with results alternating between two sets, as the plugin's do
    for name in a.names:
        x, h = sides['xla'].get(name, {}), sides['hlograph'].get(name, {})
        own = hlograph_execute_us(a, name, workdir)
        alternating[name] = hlograph_execute_us(a, name, workdir, result_sets=2)
        def cell(r):
            if not r:
                return 'missing'
            if 'error' in r:
                return r['error']
            return f"{r['host_us']:.1f} / {r['latency_us']:.0f} / {r['queued_us']:.0f}"
        busy = own.get('busy')
        over = f"{h['host_us'] - busy:.1f}" if busy is not None and 'host_us' in h else '-'
        own_s = f"{own['idle']:.1f} / {busy:.1f}" if busy is not None else '-'
        print(f'| {name} | {cell(x)} | {cell(h)} | {own_s} | {over} | {check(name, workdir)} |')
    print('Host time of each call of a burst, by position (median): XLA | plugin')
    for name in a.names:
        x, h = sides['xla'].get(name, {}), sides['hlograph'].get(name, {})
        print(f"  {name}: {x.get('burst_us')} | {h.get('burst_us')}")
    if not any('inside_us' in sides['hlograph'].get(n, {}) for n in a.names):
        print('(HLOGRAPH_PJRT_STATS=1 shows where a steady call\'s host time goes)')
        return
    print('Where a steady call\'s host time goes (calls 2.. of each burst, medians, us). XLA / plugin host: the '
          'bursts above; then calls timed one by one with the plugin\'s totals read between them: host = JAX '
          'outside the plugin + inside the plugin; inside = engine Execute + plugin adds; last: `hlograph bench`\'s '
          'execute with the device busy and results alternating between two sets of buffers, as the plugin\'s do')
    print('| workload | XLA host | plugin host | host | JAX outside | inside plugin | engine Execute | plugin adds '
          '| bench execute, busy, 2 result sets |')
    print('|---|---|---|---|---|---|---|---|---|')
    for name in a.names:
        x, h = sides['xla'].get(name, {}), sides['hlograph'].get(name, {})
        if 'inside_us' not in h:
            continue
        print(f"| {name} | {x.get('steady_host_us', float('nan')):.1f} | {h['steady_host_us']:.1f} | "
              f"{h['attributed_host_us']:.1f} | {h['attributed_host_us'] - h['inside_us']:.1f} | "
              f"{h['inside_us']:.1f} | {h['engine_us']:.1f} | {h['adds_us']:.1f} | "
              f"{'-' if alternating[name].get('busy') is None else format(alternating[name]['busy'], '.1f')} |")
    for name in a.names:
        h = sides['hlograph'].get(name, {})
        if 'entries_us' in h:
            print(f"  {name} inside the plugin per call: " +
                  ', '.join(f'{e[5:]} {us}' for e, us in h['entries_us'].items()))


if __name__ == '__main__':
    sys.exit(main())
