#!/usr/bin/env python3
"""Programs through jax.jit on XLA's own PJRT plugin and on hlograph's, side
by side, with hlograph's roofline for each:

    python3 bench/jit_side_by_side.py [NAME ...] [--zoo] [--small] \
        [--plugin build-gpu/libhlograph_pjrt.so] [--hlograph build-gpu/hlograph] \
        [--json out.json] [--png out.png] [--markdown out.md]

NAMEs come from bench/zoo.py or bench/workloads.py (default: the whole zoo).
Each side runs in a child process of its own, the same kind of process
(JAX_PLATFORMS=cuda,cpu for XLA, hlograph,cpu for the plugin), on the same
argument values (every builder draws them from a fixed seed, on the CPU;
each child reports a digest of its arguments and the two must agree). Per
program and side:
  - first call: trace, compile and one run;
  - latency: the median of calls each waited for;
  - queued: calls back to back after an idle spell, one wait, per call;
    as many calls as fit in --budget seconds (at least 3, at most --iters);
  - the results, saved and checked against XLA's: integers and booleans
    exact, floats by normwise relative error (f32 1e-2, as TF32 products
    round; bf16/f16 5e-2, and every float result of a program computing in
    16 bits; f64 1e-6; complex per component), NaN never passing. With
    --platform cpu the conformance rules of tests/conformance/compare.py
    apply instead (CPU against CPU), but to programs computing in 16 bits.
Then, on the GPU, `hlograph bench --profile --json` on the program JAX
lowered for the plugin, with the same arguments: each step's time, bytes,
FLOPs and fractions of the H200's limits, and the share of the call the
GPU was idle (plan/roofline.h). ratio = hlograph queued / XLA queued.

--platform cpu is the same run on the CPU: XLA:CPU against the plugin on
hlograph's CPU interpreter (CI runs the zoo so, at --small sizes, and fails
on any mismatch or error). A side's child that crashes or hangs (--timeout
per program) loses that program only: the next child goes on after it.
"""
import argparse
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOL = {'float32': 1e-2, 'bfloat16': 5e-2, 'float16': 5e-2, 'float64': 1e-6,
       'complex64': 1e-2, 'complex128': 1e-6}
SIDES = ('xla', 'hlograph')


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('names', nargs='*', help='programs (default: every program of bench/zoo.py)')
    ap.add_argument('--small', action='store_true', help="the zoo's small sizes (for the CPU interpreter)")
    ap.add_argument('--platform', choices=['gpu', 'cpu'], default='gpu')
    ap.add_argument('--plugin', help='libhlograph_pjrt.so (default build-gpu/, or build/ with --platform cpu)')
    ap.add_argument('--hlograph', help='the CLI, for the roofline (default build-gpu/hlograph)')
    ap.add_argument('--budget', type=float, default=0.5, help='seconds of calls per measurement (default 0.5)')
    ap.add_argument('--iters', type=int, default=200, help='calls per measurement at most (default 200)')
    ap.add_argument('--cooldown', type=float, default=0.5, help='idle seconds before the queued calls')
    ap.add_argument('--timeout', type=float, default=300, help='seconds a side may take for one program')
    ap.add_argument('--chunk', type=int, default=4,
                    help='programs per pair of children; --json is written after each chunk (default 4)')
    ap.add_argument('--no-profile', action='store_true', help='skip hlograph bench --profile (the roofline)')
    ap.add_argument('--json', dest='json_out', help='write everything measured to this JSON file')
    ap.add_argument('--png', help='write a bar chart of the ratios')
    ap.add_argument('--markdown', help='write the table and the losing kernels as Markdown')
    ap.add_argument('--workdir', help='where arguments, results and programs go (default: a temporary folder)')
    ap.add_argument('--report', nargs='+', metavar='JSON',
                    help='measure nothing: print (and write) the report of earlier runs\' --json files, merged')
    ap.add_argument('--side', choices=SIDES, help=argparse.SUPPRESS)
    ap.add_argument('--out', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    build = 'build' if a.platform == 'cpu' else 'build-gpu'
    a.plugin = a.plugin or os.path.join(ROOT, build, 'libhlograph_pjrt.so')
    a.hlograph = a.hlograph or os.path.join(ROOT, build, 'hlograph')
    return a


# ---------------------------------------------------------------------------
# The programs

def registry():
    """name -> (builder(small) -> (fn, args), kind)."""
    sys.path.insert(0, HERE)
    import workloads
    import zoo
    programs = {n: (lambda small, b=b: b(), 'tuned') for n, b in workloads.ALL.items()}
    programs.update({n: (lambda small, b=b: b(small=small), zoo.KIND[n]) for n, b in zoo.ALL.items()})
    return programs, list(zoo.ALL)


def flat_program(name, small):
    """(g over the argument leaves, leaves as numpy arrays)."""
    import jax
    fn, args = registry()[0][name][0](small)
    leaves, treedef = jax.tree_util.tree_flatten(args)

    def g(*xs):
        return fn(*jax.tree_util.tree_unflatten(treedef, xs))
    g.__name__ = name
    return g, [np.asarray(x) for x in leaves]


def digest(leaves):
    h = hashlib.sha1()
    for x in leaves:
        h.update(('%s%s' % (x.dtype, x.shape)).encode())
        h.update(x.reshape(-1).view(np.uint8)[:1 << 20].tobytes() if x.size else b'')
    return h.hexdigest()[:16]


# ---------------------------------------------------------------------------
# A side's child: every program on its platform

def measure(f, leaves, a):
    """Timings of one compiled function on placed arguments."""
    import jax
    t = time.perf_counter()
    out = f(*leaves)
    jax.block_until_ready(out)
    row = dict(first_call_s=time.perf_counter() - t)
    t = time.perf_counter()
    jax.block_until_ready(f(*leaves))
    once = time.perf_counter() - t
    n = int(max(3, min(a.iters, a.budget / max(once, 1e-6))))
    if a.platform == 'cpu':
        n = 1
    lat = []
    for _ in range(n):
        t = time.perf_counter()
        jax.block_until_ready(f(*leaves))
        lat.append((time.perf_counter() - t) * 1e6)
    time.sleep(a.cooldown if a.platform == 'gpu' else 0)
    t = time.perf_counter()
    for _ in range(n):
        out = f(*leaves)  # only the last result is kept alive
    jax.block_until_ready(out)
    row.update(calls=n, latency_us=float(np.median(lat)), queued_us=(time.perf_counter() - t) * 1e6 / n)
    return row, out


def target_platform(side, platform):
    """The JAX platform a side's programs run on."""
    if side == 'hlograph':
        return 'hlograph'
    return 'cuda' if platform == 'gpu' else 'cpu'


def side_main(a):
    import jax
    if a.side == 'hlograph':
        sys.path.insert(0, os.path.join(ROOT, 'python'))
        import hlograph_jax
        hlograph_jax.initialize()
    sys.path.insert(0, HERE)
    import export
    device = jax.devices(target_platform(a.side, a.platform))[0]
    host_device = jax.devices('cpu')[0]
    rows = {}
    for name in a.names:
        with open(a.out + '.started', 'w') as fh:  # the program a crash or hang belongs to
            fh.write(name)
        row = dict(device=str(device))
        try:
            with jax.default_device(host_device):  # the same values on both sides, made on the CPU
                g, host = flat_program(name, a.small)
            row['digest'] = digest(host)
            leaves = jax.device_put(host, device)
            f = jax.jit(g)
            timing, out = measure(f, leaves, a)
            row.update(timing)
            results = [np.asarray(o) for o in jax.tree_util.tree_leaves(out)]
            export.save_inputs(os.path.join(a.workdir, f'{name}.{a.side}.npz'), results)
            row['result_dtypes'] = [export.dtype_name(r.dtype) for r in results]
            row['half'] = re.search(r'[x<]b?f16>', f.lower(*leaves).as_text()) is not None
            if a.side == 'hlograph' and not a.no_profile:  # what the CLI's roofline runs
                with open(os.path.join(a.workdir, f'{name}.mlir'), 'w') as fh:
                    fh.write(f.lower(*leaves).as_text())
                export.save_inputs(os.path.join(a.workdir, f'{name}.inputs.npz'), host)
            del out, results, leaves, host
        except Exception as e:  # noqa: BLE001 (a failing program is reported in its row)
            row['error'] = f'{type(e).__name__}: {e}'.strip().splitlines()[0][:300]
        rows[name] = row
        with open(a.out, 'w') as fh:  # after each program: partial results survive a crash
            json.dump(rows, fh)


def run_side(a, side, names, workdir):
    """The side's rows: children run the programs in order; a crash or a
    hang costs the program it happened in, and a new child goes on after it."""
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE='false')
    target = target_platform(side, a.platform)
    env['JAX_PLATFORMS'] = target if target == 'cpu' else target + ',cpu'  # arguments are made on the CPU
    if side == 'hlograph':
        env.update(HLOGRAPH_PJRT_BACKEND=a.platform, HLOGRAPH_PJRT_LIBRARY=a.plugin)
    rows, left = {}, list(names)
    while left:
        out = os.path.join(workdir, f'{side}.json')
        for p in (out, out + '.started'):
            if os.path.exists(p):
                os.remove(p)
        cmd = [sys.executable, os.path.abspath(__file__), '--side', side, '--out', out, '--workdir', workdir,
               '--platform', a.platform, '--budget', str(a.budget), '--iters', str(a.iters),
               '--cooldown', str(a.cooldown)] + (['--small'] if a.small else []) + \
              (['--no-profile'] if a.no_profile else []) + left
        print(f'{side}: {len(left)} programs ...', flush=True)
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout * len(left))
            problem = None if p.returncode == 0 else f'child exited with {p.returncode}: ' + \
                ((p.stderr.strip().splitlines() or [''])[-1])[:200]
        except subprocess.TimeoutExpired:
            problem = f'timed out ({a.timeout:.0f} s a program)'
        done = json.load(open(out)) if os.path.exists(out) else {}
        rows.update(done)
        for n in done:
            print(f"  {side} {n}: " + (done[n].get('error') or f"{done[n]['queued_us']:.1f} us"), flush=True)
        left = [n for n in left if n not in done]
        if problem and left:
            stuck = open(out + '.started').read() if os.path.exists(out + '.started') else left[0]
            stuck = stuck if stuck in left else left[0]
            rows[stuck] = dict(error=problem)
            print(f'  {side} {stuck}: {problem}', flush=True)
            left.remove(stuck)
    return rows


# ---------------------------------------------------------------------------
# Checking and the roofline

def check(name, workdir, dtypes, platform, half):
    """(ok, text): hlograph's results against XLA's. In a program computing
    with 16-bit floats (`half`), every float result gets their tolerance:
    its f32 results sum terms rounded to 16 bits, which the two sides round
    at different places."""
    sys.path.insert(0, HERE)
    import export
    try:
        x = np.load(os.path.join(workdir, f'{name}.xla.npz'))
        h = np.load(os.path.join(workdir, f'{name}.hlograph.npz'))
    except OSError as e:
        return False, f'no results ({e.strerror})'
    if len(x.files) != len(h.files):
        return False, f'{len(h.files)} results, XLA has {len(x.files)}'
    worst = []
    for i, dt in enumerate(dtypes):
        ref = export.from_npz_array(x[f'arr_{i}'], dt)
        got = export.from_npz_array(h[f'arr_{i}'], dt)
        if ref.shape != got.shape:
            return False, f'r{i} shape {got.shape}, XLA {ref.shape}'
        if platform == 'cpu' and not half:
            sys.path.insert(0, os.path.join(ROOT, 'tests', 'conformance'))
            import compare
            problem = compare.compare_leaf(ref, got, scaled=True)
            if problem:
                return False, f'r{i}: {problem}'
            continue
        if dt in TOL:
            r64 = ref.astype(np.complex128 if 'complex' in dt else np.float64).reshape(-1)
            g64 = got.astype(r64.dtype).reshape(-1)
            if not np.array_equal(np.isnan(r64), np.isnan(g64)) or not np.all(np.isfinite(g64) | np.isnan(r64)):
                return False, f'r{i} NaN or infinity where XLA has none'
            fin = np.isfinite(r64)
            err = float(np.linalg.norm(g64[fin] - r64[fin]) / max(np.linalg.norm(r64[fin]), 1e-30))
            tol = max(TOL[dt], TOL['bfloat16']) if half else TOL[dt]
            if err > tol:
                return False, f'r{i} relative error {err:.1e} > {tol:g}'
            worst.append(err)
        elif not np.array_equal(ref, got):
            diff = int(np.sum(ref != got))
            return False, f'r{i} {diff} of {ref.size} {dt} differ'
    if platform == 'cpu' and not half:
        return True, '(conformance rules)'
    return True, f'{max(worst):.1e}' if worst else 'exact'


def profile(a, name, workdir, queued_us):
    """`hlograph bench --profile --json` on the lowered program: its roofline."""
    mlir, npz = os.path.join(workdir, f'{name}.mlir'), os.path.join(workdir, f'{name}.inputs.npz')
    if not os.path.exists(mlir):
        return None, 'no lowered program'
    iters = int(max(3, min(50, a.budget / max(queued_us * 1e-6, 1e-6))))
    cmd = [a.hlograph, 'bench', mlir, '--inputs', npz, '--backend', 'gpu', '--profile', '--json',
           '--iters', str(iters), '--warmup', '2']
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return None, 'hlograph bench timed out'
    if p.returncode != 0:
        return None, 'hlograph bench: ' + ((p.stderr.strip().splitlines() or ['?'])[-1])[:200]
    try:
        return json.loads(p.stdout.strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        return None, 'hlograph bench printed no JSON'


def top_loss(roofline):
    """The step losing the most time over its floor, and a line on why."""
    steps = (roofline or {}).get('steps') or []
    if not steps:
        return None, ''
    s = max(steps, key=lambda r: r['lost_us'])
    if s['bound'] == 'memory':
        rate = f"{100 * s['memory_fraction']:.0f}% of HBM ({s['gb_per_s']:.0f} GB/s)"
    else:
        rate = f"{100 * s['peak_fraction']:.1f}% of the {s['unit']} peak ({s['tflop_per_s']:.1f} TFLOP/s)"
    why = (f"{s['name']} ({s['summary'][:70]}): {s['us_per_call']:.1f} us a call in {s['runs_per_call']:g} runs, "
           f"floor {s['floor_us']:.1f} us, {s['bound']}-bound at {rate}")
    if s.get('launch'):
        why += f"; {s['launch']}"
    return s, why


# ---------------------------------------------------------------------------
# Output

def fmt_us(v):
    return '-' if v is None else (f'{v:.0f}' if v >= 100 else f'{v:.1f}')


def table(rows, a):
    lines = ['| program | kind | XLA us | hlograph us | ratio | check | GPU idle | hlograph device busy us |',
             '|---|---|---|---|---|---|---|---|']
    for n, r in rows.items():
        x, h = r['xla'], r['hlograph']
        roof = r.get('roofline') or {}
        idle = roof.get('idle_fraction')
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
            n, r['kind'], ('FAIL: ' + x['error']) if 'error' in x else fmt_us(x.get('queued_us')),
            ('FAIL: ' + h['error']) if 'error' in h else fmt_us(h.get('queued_us')),
            f"{r['ratio']:.2f}" if r.get('ratio') else '-', r.get('check', '-'),
            f'{100 * idle:.0f}%' if idle is not None and idle >= 0 else '-',
            fmt_us(roof.get('busy_us')) if (roof.get('busy_us') or -1) >= 0 else '-'))
    ratios = [r['ratio'] for r in rows.values() if r.get('ratio')]
    geo = math.exp(sum(math.log(v) for v in ratios) / len(ratios)) if ratios else None
    return lines, geo, ratios


def losers(rows):
    lines = []
    for n, r in sorted(rows.items(), key=lambda kv: -(kv[1].get('ratio') or 0)):
        if (r.get('ratio') or 0) <= 1 or not r.get('loss'):
            continue
        lines.append(f"- **{n}** ({r['ratio']:.2f}x): {r['loss']}")
    return lines


def roofline_lines(name, roofline, count=6):
    if roofline['idle_fraction'] >= 0:
        busy = f"device busy {roofline['busy_us']:.1f} us (idle {100 * roofline['idle_fraction']:.0f}%)"
    else:
        busy = f"idle share unknown ({roofline.get('busy_unknown_why', '')})"
    out = [f"  {name}: wall {roofline['wall_us']:.1f} us, {busy}, steps alone {roofline['step_us']:.1f} us"]
    out.append('       us/call  runs      MB    GB/s  %HBM  TFLOP/s  %peak unit      lost us  step')
    for s in roofline['steps'][:count]:
        out.append('    %10.1f %5g %7.1f %7.0f %4.0f%% %8.2f %5.1f%% %-9s %7.1f  %s: %s' % (
            s['us_per_call'], round(s['runs_per_call'], 2), s['bytes_per_call'] / 1e6, s['gb_per_s'],
            100 * s['memory_fraction'], s['tflop_per_s'], 100 * s['peak_fraction'], s['unit'], s['lost_us'],
            s['name'], s['summary'][:60]))
    return out


def write_png(rows, path, geo):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = [n for n, r in rows.items() if r.get('ratio')]
    vals = [rows[n]['ratio'] for n in names]
    fig, ax = plt.subplots(figsize=(max(8, 0.35 * len(names) + 2), 5))
    ax.bar(range(len(names)), vals, color=['tab:green' if v <= 1 else 'tab:red' for v in vals])
    ax.axhline(1.0, color='k', lw=1)
    if geo:
        ax.axhline(geo, color='tab:blue', lw=1, ls='--', label=f'geomean {geo:.2f}')
        ax.legend()
    ax.set_yscale('log')
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=60, ha='right', fontsize=8)
    ax.set_ylabel('hlograph time / XLA time (jax.jit, calls queued)')
    ax.set_title('hlograph vs XLA through jax.jit, lower is better')
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def report(rows, a):
    """The table, the rooflines and the losing steps; --json, --markdown, --png."""
    lines, geo, ratios = table(rows, a)
    print()
    print(f'jax.jit, calls queued, microseconds per call ({a.platform}, {"small" if a.small else "full"} sizes); '
          'ratio = hlograph / XLA (lower is better for hlograph)')
    print('\n'.join(lines))
    if geo:
        print(f'geomean ratio {geo:.2f} over {len(ratios)} programs; '
              f'{sum(v <= 1 for v in ratios)} at or under 1, {sum(v > 1 for v in ratios)} over')
    for n, r in rows.items():
        if r.get('roofline'):
            print('\n'.join(roofline_lines(n, r['roofline'])))
    loss = losers(rows)
    if loss:
        print('\nWhere the programs slower than XLA lose the most (the step with the most time over its floor):')
        print('\n'.join(loss))
    if a.json_out:
        with open(a.json_out, 'w') as fh:
            json.dump(dict(platform=a.platform, small=a.small, geomean=geo, programs=rows), fh, indent=1)
    if a.markdown:
        with open(a.markdown, 'w') as fh:
            fh.write('\n'.join(lines) + '\n\n')
            if geo:
                fh.write(f'Geomean ratio {geo:.2f} over {len(ratios)} programs.\n\n')
            fh.write('\n'.join(loss) + '\n')
    if a.png and ratios:
        try:
            write_png(rows, a.png, geo)
        except Exception as e:  # noqa: BLE001
            print(f'no PNG: {e}')


def run_all(a, names, kinds):
    """Both sides, the checks and the rooflines, --chunk programs at a time
    (the rows so far written to --json after each chunk): (rows, the
    programs that failed)."""
    workdir = a.workdir or tempfile.mkdtemp(prefix='jit-side-by-side-')
    os.makedirs(workdir, exist_ok=True)
    rows, failed = {}, []
    for at in range(0, len(names), a.chunk):
        chunk = names[at:at + a.chunk]
        run_chunk(a, chunk, kinds, workdir, rows, failed)
        if a.json_out:
            with open(a.json_out, 'w') as fh:
                json.dump(dict(platform=a.platform, small=a.small, programs=rows), fh, indent=1)
    return rows, failed


def run_chunk(a, names, kinds, workdir, rows, failed):
    sides = {side: run_side(a, side, names, workdir) for side in SIDES}
    for n in names:
        x, h = sides['xla'].get(n, dict(error='not run')), sides['hlograph'].get(n, dict(error='not run'))
        r = dict(kind=kinds[n], xla=x, hlograph=h)
        if 'error' not in x and 'error' not in h:
            if x.get('digest') != h.get('digest'):
                r['check'] = 'MISMATCH: the sides drew different arguments'
                failed.append(n)
            else:
                ok, text = check(n, workdir, x['result_dtypes'], a.platform, x.get('half', False))
                r['check'] = ('ok ' if ok else 'MISMATCH: ') + text
                if not ok:
                    failed.append(n)
            r['ratio'] = h['queued_us'] / x['queued_us']
            if a.platform == 'gpu' and not a.no_profile:
                prof, err = profile(a, n, workdir, h['queued_us'])
                if prof:
                    r['roofline'] = prof.get('roofline')
                    r['profile_error'] = prof.get('roofline_error')
                    r['loss_step'], r['loss'] = top_loss(r['roofline'])
                else:
                    r['profile_error'] = err
        else:
            failed.append(n)
        rows[n] = r
        print(f"{n}: ratio {r.get('ratio', float('nan')):.2f}, check {r.get('check', '-')}"
              + (f", profile: {r['profile_error']}" if r.get('profile_error') else ''), flush=True)


def main():
    a = parse_args()
    if a.side:
        return side_main(a)
    if a.report:
        rows = {}
        for path in a.report:
            with open(path) as fh:
                doc = json.load(fh)
            a.platform, a.small = doc['platform'], doc['small']
            rows.update(doc['programs'])
        report(rows, a)
        return 0
    programs, zoo_names = registry()
    names = a.names or zoo_names
    unknown = [n for n in names if n not in programs]
    if unknown:
        sys.exit(f"unknown program(s) {', '.join(unknown)}; known: {', '.join(programs)}")
    if not os.path.exists(a.plugin):
        sys.exit(f'no plugin at {a.plugin}')
    rows, failed = run_all(a, names, {n: programs[n][1] for n in names})
    report(rows, a)
    if failed:
        print(f"\n{len(failed)} of {len(names)} programs failed or mismatched: {', '.join(failed)}")
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
