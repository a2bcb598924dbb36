#!/usr/bin/env python3
"""Side-by-side timing of the benchmark workloads: JAX/XLA against hlograph.

Meant for the GPU machine (python3 there has jax with CUDA, numpy,
matplotlib):

    python3 bench/side_by_side.py [NAME ...] [--iters 300] \
        [--hlograph build-gpu/hlograph] [--json out.json] [--png out.png]

For each workload (bench/workloads.py; all by default) with the same
arguments (fixed seeds):
  - XLA, default flags: compile time; latency = median/p10/p90 over N calls,
    each followed by block_until_ready; throughput = N calls queued, then
    one block_until_ready, divided by N, after --cooldown seconds idle (on
    both sides: sustained load lowers the GPU's clocks, and the latency
    runs before leave the GPU idle for different shares of the time);
  - XLA with XLA_FLAGS=--xla_gpu_enable_command_buffer= (command buffers
    off), the same measurements, in a child process of this script
    (`--xla-only`), since flags must be set before jax is imported;
  - hlograph: `hlograph run --output` to check the results against XLA's
    (normwise relative error: f32 1e-2 (TF32 matmuls), bf16 5e-2, integers
    exact), then `hlograph bench --json` for the timing and
    `hlograph bench --profile --json` for the kernel-busy time and the
    roofline (the first steps of each program are printed after the table);
  - the bytes-moved floor: (argument + result bytes) / the device copy rate
    (measured once by timing a jitted x + 1 over a large array, counting the
    read and the write).
Prints a table, and writes --json and --png (bar chart of hlograph/XLA
throughput time ratios) when asked. A failing hlograph step marks its row
and the script goes on.

`--platform cpu` runs everything on the CPU (JAX on CPU, hlograph
--backend cpu) as a dry run for testing the script.
"""
import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

NO_CMDBUF_FLAG = '--xla_gpu_enable_command_buffer='
TOL = {'float32': 1e-2, 'bfloat16': 5e-2, 'float16': 5e-2, 'float64': 1e-6}


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description='JAX/XLA vs hlograph, workload by workload.')
    ap.add_argument('names', nargs='*', help='workloads (default: all in bench/workloads.py)')
    ap.add_argument('--hlograph', default=None,
                    help='the hlograph binary (default build-gpu/hlograph; build/hlograph with --platform cpu)')
    ap.add_argument('--iters', type=int, default=300, help='calls per measurement (default 300)')
    ap.add_argument('--warmup', type=int, default=5, help='untimed calls first (default 5)')
    ap.add_argument('--platform', choices=['gpu', 'cpu'], default='gpu',
                    help='gpu (default) or cpu (a dry run: JAX on CPU, hlograph --backend cpu)')
    ap.add_argument('--json', dest='json_out', help='write all results to this JSON file')
    ap.add_argument('--png', help='write a bar chart of hlograph/XLA throughput ratios')
    ap.add_argument('--programs', default=os.path.join(HERE, 'programs'),
                    help='where <name>.mlir are (exported there when missing)')
    ap.add_argument('--workdir', help='where inputs/outputs .npz go (default: a temporary folder)')
    ap.add_argument('--keep', action='store_true', help='keep the .npz files in the workdir')
    ap.add_argument('--no-child', action='store_true', help='skip the command-buffers-off XLA run')
    ap.add_argument('--rounds', type=int, default=2,
                    help='measure XLA and hlograph this many times each, alternating, and keep each one\'s '
                         'fastest (a GPU warmed by one side slows the other; default 2)')
    ap.add_argument('--cooldown', type=float, default=1.0,
                    help='idle seconds before each side\'s queued calls (sustained load lowers the GPU\'s '
                         'clocks; default 1.0)')
    ap.add_argument('--timeout', type=int, default=900, help='seconds per hlograph command')
    ap.add_argument('--xla-only', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--xla-out', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.hlograph is None:
        a.hlograph = os.path.join(ROOT, 'build/hlograph' if a.platform == 'cpu' else 'build-gpu/hlograph')
    return a


ARGS = parse_args()
# Before jax is imported: the platform, and no preallocation (the XLA child
# and hlograph share the GPU with this process).
if ARGS.platform == 'cpu':
    os.environ['JAX_PLATFORMS'] = 'cpu'
os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import workloads  # noqa: E402
import export  # noqa: E402


# ---------------------------------------------------------------------------
# XLA measurements

def _pct(ts_us):
    ts = np.asarray(ts_us)
    return dict(median=float(np.median(ts)), p10=float(np.percentile(ts, 10)),
                p90=float(np.percentile(ts, 90)))


def xla_device_bytes(compiled):
    """Device memory a call of the compiled program holds by XLA's own
    accounting (arguments + results + temps + code, less what aliases), to
    set against hlograph's peak_device_bytes; None where XLA does not say."""
    try:
        m = compiled.memory_analysis()
        total = (m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes
                 + m.generated_code_size_in_bytes - m.alias_size_in_bytes)
        return int(total)
    except Exception:  # noqa: BLE001 (older jax, or a backend without the analysis)
        return None


def measure_xla(name, iters, warmup, keep_outputs):
    g, leaves, _ = workloads.flat(name)
    leaves = [jax.device_put(x) for x in leaves]
    jax.block_until_ready(leaves)
    t0 = time.perf_counter()
    compiled = jax.jit(g).lower(*leaves).compile()
    compile_s = time.perf_counter() - t0
    device_bytes = xla_device_bytes(compiled)
    out = None
    for _ in range(max(1, warmup)):
        out = compiled(*leaves)
        jax.block_until_ready(out)
    lat = []
    for _ in range(iters):
        t = time.perf_counter()
        out = compiled(*leaves)
        jax.block_until_ready(out)
        lat.append((time.perf_counter() - t) * 1e6)
    time.sleep(ARGS.cooldown)
    t = time.perf_counter()
    for _ in range(iters):
        out = compiled(*leaves)   # only the last result is kept alive
    jax.block_until_ready(out)
    queued = (time.perf_counter() - t) * 1e6 / iters
    res = dict(compile_s=compile_s, latency_us=_pct(lat), queued_us=queued)
    if device_bytes is not None:
        res['device_bytes'] = device_bytes
    outs = None
    if keep_outputs:
        outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(out)]
    host_leaves = [np.asarray(x) for x in leaves] if keep_outputs else None
    del out, leaves, compiled
    gc.collect()
    return res, outs, host_leaves


def copy_bandwidth():
    """Bytes per second of a device read+write, from a jitted x + 1."""
    n = (1 << 28) if ARGS.platform == 'gpu' else (1 << 24)  # 1 GiB / 64 MiB of f32
    x = jnp.ones((n,), jnp.float32)
    f = jax.jit(lambda x: x + 1.0)
    y = f(x)
    y.block_until_ready()
    # Calls queued, one wait: the device's rate, not the host's round trip.
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(10):
            y = f(x)
        y.block_until_ready()
        ts.append((time.perf_counter() - t) / 10)
    del x, y
    gc.collect()
    return 2 * 4 * n / float(np.min(ts))


def xla_only_main():
    """Child mode: XLA measurements only, for the names given, as JSON."""
    results = {}
    for n in ARGS.names:
        try:
            r, _, _ = measure_xla(n, ARGS.iters, ARGS.warmup, False)
        except Exception as e:  # noqa: BLE001
            r = dict(error='%s: %s' % (type(e).__name__, str(e).split('\n')[0]))
        results[n] = r
        with open(ARGS.xla_out, 'w') as f:   # after each workload: partial results survive a crash
            json.dump(dict(xla_flags=os.environ.get('XLA_FLAGS', ''), results=results), f)


def run_xla_child(names):
    fd, path = tempfile.mkstemp(suffix='.json', prefix='xla_nocmdbuf_')
    os.close(fd)
    env = dict(os.environ)
    env['XLA_FLAGS'] = (env.get('XLA_FLAGS', '') + ' ' + NO_CMDBUF_FLAG).strip()
    cmd = [sys.executable, os.path.abspath(__file__), '--xla-only', '--xla-out', path,
           '--iters', str(ARGS.iters), '--warmup', str(ARGS.warmup), '--cooldown', str(ARGS.cooldown),
           '--platform', ARGS.platform] + names
    print('XLA with %s (child process) ...' % NO_CMDBUF_FLAG, flush=True)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    try:
        with open(path) as f:
            res = json.load(f)['results']
    except Exception:  # noqa: BLE001
        res = {}
    finally:
        os.remove(path)
    if p.returncode != 0:
        err = (p.stderr.strip().split('\n') or [''])[-1]
        print('  child exited with %d: %s' % (p.returncode, err), flush=True)
        for n in names:
            res.setdefault(n, dict(error='child exited with %d: %s' % (p.returncode, err)))
    return res


# ---------------------------------------------------------------------------
# hlograph

def first_line(s):
    for line in (s or '').split('\n'):
        if line.strip():
            return line.strip()
    return ''


def run_cmd(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=ARGS.timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, '', 'timed out after %d s' % ARGS.timeout
    except OSError as e:
        return 127, '', str(e)


def parse_json_out(s):
    s = s.strip()
    try:
        return json.loads(s)
    except ValueError:
        pass
    # Tolerate text around the object: take the last line that parses,
    # else the span from the first '{' to the last '}'.
    for line in reversed(s.split('\n')):
        line = line.strip()
        if line.startswith('{'):
            try:
                return json.loads(line)
            except ValueError:
                pass
    i, j = s.find('{'), s.rfind('}')
    if 0 <= i < j:
        return json.loads(s[i:j + 1])
    raise ValueError('no JSON object in the output')


def hlograph_bench(mlir, npz, extra):
    """Runs `hlograph bench`; retries without --iters/--warmup if the CLI rejects it
    as bad usage (exit 2). Returns (dict or None, error line or None)."""
    base = [ARGS.hlograph, 'bench', mlir, '--inputs', npz, '--backend', ARGS.platform, '--json'] + extra
    rc, out, err = run_cmd(base + ['--iters', str(ARGS.iters), '--warmup', str(ARGS.warmup),
                                   '--cooldown', str(int(ARGS.cooldown * 1000))])
    if rc == 2:
        rc, out, err = run_cmd(base)
    if rc != 0:
        return None, 'exit %d: %s' % (rc, first_line(err) or first_line(out))
    try:
        return parse_json_out(out), None
    except ValueError as e:
        return None, 'bad JSON: %s (%s)' % (e, first_line(out))


def find_key(d, pred):
    """The first value in nested dict `d` whose key satisfies pred."""
    if isinstance(d, dict):
        for k, v in d.items():
            if pred(k) and isinstance(v, (int, float)):
                return float(v)
        for v in d.values():
            r = find_key(v, pred)
            if r is not None:
                return r
    return None


def kernel_busy_us(prof):
    v = find_key(prof, lambda k: k in ('kernel_busy_us', 'kernel_us', 'gpu_busy_us', 'busy_us'))
    if v is None:
        v = find_key(prof, lambda k: 'busy' in k and k.endswith('_us'))
    return v


def compare(ref_outs, got_npz, result_dtypes):
    """(ok, message): normwise relative errors per result."""
    z = np.load(got_npz)
    if len(z.files) != len(ref_outs):
        return False, '%d results, XLA has %d' % (len(z.files), len(ref_outs))
    ok, worst = True, []
    for i, (ref, dt) in enumerate(zip(ref_outs, result_dtypes)):
        got = export.from_npz_array(z['arr_%d' % i], dt)
        if tuple(got.shape) != tuple(ref.shape):
            return False, 'result %d has shape %s, XLA %s' % (i, got.shape, ref.shape)
        a = np.asarray(ref).astype(np.float64)
        b = np.asarray(got).astype(np.float64)
        if dt in TOL:
            if not np.all(np.isfinite(b)):
                ok = False
                worst.append('r%d non-finite' % i)
                continue
            e = float(np.linalg.norm(a - b) / max(np.linalg.norm(a), 1e-30))
            worst.append('r%d %.1e' % (i, e))
            ok &= e <= TOL[dt]
        else:
            nd = int(np.sum(a != b))
            if nd:
                ok = False
                worst.append('r%d %d of %d differ%s' % (
                    i, nd, a.size, ' (%s vs %s)' % (b.item(), a.item()) if a.size == 1 else ''))
            else:
                worst.append('r%d exact' % i)
    return ok, ', '.join(worst)


def run_hlograph(name, mlir, npz, ref_outs, result_dtypes, workdir):
    r = dict()
    out_npz = os.path.join(workdir, name + '.hlograph.npz')
    t = time.perf_counter()
    rc, out, err = run_cmd([ARGS.hlograph, 'run', mlir, '--inputs', npz, '--backend', ARGS.platform,
                            '--output', out_npz])
    r['run_s'] = time.perf_counter() - t
    if rc != 0:
        r['run_error'] = 'exit %d: %s' % (rc, first_line(err) or first_line(out))
    else:
        try:
            ok, msg = compare(ref_outs, out_npz, result_dtypes)
        except Exception as e:  # noqa: BLE001
            ok, msg = False, 'compare failed: %s' % e
        r['check_ok'], r['check'] = ok, msg
        if not ARGS.keep and os.path.exists(out_npz):
            os.remove(out_npz)
    bench, e = hlograph_bench(mlir, npz, [])
    if e:
        r['bench_error'] = e
    else:
        r['bench'] = bench
    prof, e = hlograph_bench(mlir, npz, ['--profile'])
    if e:
        r['profile_error'] = e
    else:
        r['profile'] = prof
        r['kernel_busy_us'] = kernel_busy_us(prof)
    return r


# ---------------------------------------------------------------------------
# The table

def fmt_lt(d):
    if not d or 'latency_us' not in d:
        return 'FAIL' if d and 'error' in d else '-'
    return '%.0f / %.0f' % (d['latency_us']['median'], d['queued_us'])


def hl_timing(h):
    b = (h or {}).get('bench') or {}
    lat = b.get('latency_us') or {}
    med = lat.get('median') if isinstance(lat, dict) else None
    return med, b.get('queued_us')


def print_table(rows):
    hdr = ['workload', 'XLA lat/thr', 'XLA no-cmdbuf lat/thr', 'hlograph lat/thr', 'ratio',
           'kernel-busy floor', 'bytes floor', 'MB XLA/hlograph', 'check']
    lines = []
    for n, r in rows.items():
        h = r.get('hlograph') or {}
        med, q = hl_timing(h)
        if med is not None and q is not None:
            hl = '%.0f / %.0f' % (med, q)
        else:
            hl = 'FAIL' if ('bench_error' in h or 'error' in h) else '-'
        ratio = r.get('ratio')
        kb = h.get('kernel_busy_us')
        if 'error' in h:
            check = 'FAIL: ' + h['error']
        elif 'run_error' in h:
            check = 'FAIL: ' + h['run_error']
        elif 'check_ok' in h:
            check = ('ok (%s)' if h['check_ok'] else 'MISMATCH (%s)') % h['check']
        else:
            check = '-'
        if 'bench_error' in h:
            check += '; bench: ' + h['bench_error']
        xla_mb = (r.get('xla') or {}).get('device_bytes')
        hl_mb = ((h.get('bench') or {}).get('peak_device_bytes'))
        mem = '%s / %s' % ('%.1f' % (xla_mb / 1e6) if xla_mb is not None and xla_mb >= 0 else '-',
                           '%.1f' % (hl_mb / 1e6) if hl_mb is not None and hl_mb >= 0 else '-')
        lines.append([n, fmt_lt(r.get('xla')), fmt_lt(r.get('xla_no_cmdbuf')), hl,
                      '%.2f' % ratio if ratio else '-',
                      '%.0f' % kb if kb is not None else '-',
                      '%.1f' % r['bytes_floor_us'] if r.get('bytes_floor_us') is not None else '-',
                      mem, check])
    print()
    print('Times in microseconds per call: lat = median latency (each call waited for), '
          'thr = %d calls queued after %.1f s idle, one wait; each side the fastest of %d alternating rounds. '
          'ratio = hlograph thr / XLA thr (lower is better for hlograph). MB: device memory a call holds '
          '(XLA: its memory analysis; hlograph: arena, workspace, constants, arguments, results).'
          % (ARGS.iters, ARGS.cooldown, ARGS.rounds))
    print('| ' + ' | '.join(hdr) + ' |')
    print('|' + '---|' * len(hdr))
    for l in lines:
        print('| ' + ' | '.join(l) + ' |')


def write_png(rows, path):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = [n for n, r in rows.items() if r.get('ratio')]
    vals = [rows[n]['ratio'] for n in names]
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(names) + 2), 4.5))
    ax.bar(range(len(names)), vals,
           color=['tab:green' if v <= 1 else 'tab:red' for v in vals])
    ax.axhline(1.0, color='k', lw=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha='right')
    ax.set_ylabel('hlograph time / XLA time (queued, per call)')
    ax.set_title('hlograph vs XLA (%s), lower is better' % ARGS.platform)
    if vals and max(vals) / max(min(vals), 1e-9) > 20:
        ax.set_yscale('log')
    for i, v in enumerate(vals):
        ax.text(i, v, '%.2f' % v, ha='center', va='bottom', fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


# ---------------------------------------------------------------------------

def main():
    names = ARGS.names or list(workloads.ALL)
    bad = [n for n in names if n not in workloads.ALL]
    if bad:
        sys.exit('unknown workload(s) %s; known: %s' % (', '.join(bad), ', '.join(workloads.ALL)))
    if ARGS.xla_only:
        return xla_only_main()

    workdir = ARGS.workdir or tempfile.mkdtemp(prefix='hlograph_bench_')
    os.makedirs(workdir, exist_ok=True)
    # The child first, before this process holds any device memory.
    nocmd = {} if ARGS.no_child else run_xla_child(names)
    bw = copy_bandwidth()
    print('device copy rate: %.1f GB/s (%s); jax %s, devices %s' % (
        bw / 1e9, ARGS.platform, jax.__version__, jax.devices()), flush=True)
    if not os.path.exists(ARGS.hlograph):
        print('note: %s does not exist: hlograph rows will fail' % ARGS.hlograph)

    rows = {}
    for n in names:
        print('%s ...' % n, flush=True)
        row = dict()
        rows[n] = row
        if n in nocmd:
            row['xla_no_cmdbuf'] = nocmd[n]
        try:
            xr, outs, host_leaves = measure_xla(n, ARGS.iters, ARGS.warmup, True)
        except Exception as e:  # noqa: BLE001
            row['xla'] = dict(error='%s: %s' % (type(e).__name__, first_line(str(e))))
            print('  XLA failed: %s' % row['xla']['error'])
            continue
        row['xla'] = xr
        arg_info = [export.leaf_info(x) for x in host_leaves]
        res_info = [export.leaf_info(x) for x in outs]
        row['arg_bytes'] = export.nbytes(arg_info)
        row['result_bytes'] = export.nbytes(res_info)
        row['bytes_floor_us'] = (row['arg_bytes'] + row['result_bytes']) / bw * 1e6
        mlir = os.path.join(ARGS.programs, n + '.mlir')
        try:
            if not os.path.exists(mlir):
                os.makedirs(ARGS.programs, exist_ok=True)
                print('  exporting %s' % mlir)
                export.export(n, ARGS.programs)
            npz = os.path.join(workdir, n + '.inputs.npz')
            export.save_inputs(npz, host_leaves)
            del host_leaves
            h = run_hlograph(n, mlir, npz, outs, [i['dtype'] for i in res_info], workdir)
            for _ in range(ARGS.rounds - 1):  # alternate; keep each side's fastest round
                xr2, _, _ = measure_xla(n, ARGS.iters, ARGS.warmup, False)
                if xr2['queued_us'] < xr['queued_us']:
                    xr = dict(xr2, compile_s=xr['compile_s'])
                    row['xla'] = xr
                b2, _ = hlograph_bench(mlir, npz, [])
                if b2 and 'bench' in h and b2.get('queued_us', 1e30) < h['bench'].get('queued_us', 1e30):
                    h['bench'] = b2
            if not ARGS.keep:
                os.remove(npz)
        except Exception as e:  # noqa: BLE001
            h = dict(error='%s: %s' % (type(e).__name__, first_line(str(e))))
        row['hlograph'] = h
        med, q = hl_timing(h)
        if q:
            row['ratio'] = q / xr['queued_us']
        for k in ('run_error', 'bench_error', 'error'):
            if k in h:
                print('  hlograph %s: %s' % (k.replace('_error', '').replace('error', 'failed'), h[k]))
        if 'check' in h:
            print('  check: %s (%s)' % ('ok' if h['check_ok'] else 'MISMATCH', h['check']))
        del outs
        gc.collect()

    print_table(rows)
    from jit_side_by_side import roofline_lines  # noqa: E402 (the same report as through jax.jit)
    for n, r in rows.items():
        roofline = (((r.get('hlograph') or {}).get('profile')) or {}).get('roofline')
        if roofline:
            print('\n'.join(roofline_lines(n, roofline)))
    if ARGS.json_out:
        with open(ARGS.json_out, 'w') as f:
            json.dump(dict(platform=ARGS.platform, jax_version=jax.__version__,
                           devices=[str(d) for d in jax.devices()], iters=ARGS.iters,
                           hlograph=ARGS.hlograph, copy_bytes_per_s=bw,
                           no_cmdbuf_flags=NO_CMDBUF_FLAG, workloads=rows), f, indent=1)
        print('wrote %s' % ARGS.json_out)
    if ARGS.png:
        try:
            write_png(rows, ARGS.png)
            print('wrote %s' % ARGS.png)
        except Exception as e:  # noqa: BLE001
            print('no PNG: %s' % first_line(str(e)))


if __name__ == '__main__':
    main()
