#!/usr/bin/env python3
"""Exports the benchmark workloads (bench/workloads.py) as StableHLO.

    python bench/export.py [NAME ...] [--out DIR]

For each workload (all of them, or those named) writes to DIR (default
bench/programs):
  <name>.mlir         jax.jit(g).lower(*leaves).as_text(), where g takes the
                      pytree leaves of the workload's args in
                      jax.tree_util.tree_flatten order (so @main's arguments
                      are those leaves, in that order)
  <name>.inputs.npz   the leaves as arr_0, arr_1, ... when they total less
                      than 8 MB (bf16 leaves as raw 2-byte void '|V2', how
                      hlograph reads bf16); bigger inputs are not written:
                      bench/side_by_side.py builds them on the fly
and MANIFEST.json describing every exported workload (merged with the
entries already there for workloads not exported this time).

Only lowers (no execution), so the big workloads are cheap to export.
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import workloads  # noqa: E402

NPZ_LIMIT = 8 * 1024 * 1024


def dtype_name(dt):
    return jnp.dtype(dt).name  # 'float32', 'bfloat16', 'int32', ...


def to_numpy_for_npz(a):
    """A leaf as the array hlograph's .npz reader expects."""
    a = np.asarray(a)
    if a.dtype == jnp.bfloat16:
        return a.view(np.uint16).view('V2')
    return a


def save_inputs(path, leaves):
    np.savez(path, *[to_numpy_for_npz(a) for a in leaves])


def from_npz_array(a, dtype):
    """Inverse of to_numpy_for_npz for reading results: `dtype` is the
    expected dtype name ('bfloat16' arrives as '|V2')."""
    if dtype == 'bfloat16' and a.dtype.kind == 'V':
        return a.view(np.uint16).view(jnp.bfloat16)
    return a


def leaf_info(x):
    return dict(shape=list(x.shape), dtype=dtype_name(x.dtype))


def nbytes(infos):
    return int(sum(int(np.prod(i['shape'], dtype=np.int64)) * jnp.dtype(i['dtype']).itemsize
                   for i in infos))


def lower(name):
    """(mlir_text, leaves, manifest entry without file names)."""
    g, leaves, _ = workloads.flat(name)
    lowered = jax.jit(g).lower(*leaves)
    text = lowered.as_text()
    outs = jax.tree_util.tree_leaves(jax.eval_shape(g, *leaves))
    args = [leaf_info(x) for x in leaves]
    results = [leaf_info(x) for x in outs]
    doc = (workloads.ALL[name].__doc__ or '').strip().split('\n')[0]
    entry = dict(name=name, description=doc, args=args, results=results,
                 arg_bytes=nbytes(args), result_bytes=nbytes(results))
    return text, leaves, entry


def export(name, out_dir):
    text, leaves, entry = lower(name)
    mlir = os.path.join(out_dir, name + '.mlir')
    with open(mlir, 'w') as f:
        f.write(text)
    entry['file'] = name + '.mlir'
    entry['mlir_bytes'] = len(text.encode())
    npz = os.path.join(out_dir, name + '.inputs.npz')
    if entry['arg_bytes'] < NPZ_LIMIT:
        save_inputs(npz, leaves)
        entry['inputs'] = name + '.inputs.npz'
    else:
        if os.path.exists(npz):
            os.remove(npz)
        entry['inputs'] = None
        entry['inputs_note'] = ('not written: %d bytes of arguments (limit %d); '
                                'side_by_side.py builds them' % (entry['arg_bytes'], NPZ_LIMIT))
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('names', nargs='*', help='workloads (default: all)')
    ap.add_argument('--out', default=os.path.join(HERE, 'programs'))
    a = ap.parse_args()
    names = a.names or list(workloads.ALL)
    bad = [n for n in names if n not in workloads.ALL]
    if bad:
        ap.error('unknown workload(s) %s; known: %s' % (', '.join(bad), ', '.join(workloads.ALL)))
    os.makedirs(a.out, exist_ok=True)
    man_path = os.path.join(a.out, 'MANIFEST.json')
    manifest = dict(jax_version=jax.__version__, workloads={})
    if os.path.exists(man_path):
        with open(man_path) as f:
            old = json.load(f)
        manifest['workloads'] = {k: v for k, v in old.get('workloads', {}).items() if k in workloads.ALL}
    for n in names:
        e = export(n, a.out)
        manifest['workloads'][n] = e
        print('%-22s %8.1f KB mlir  %10.1f MB args  %s' % (
            n, e['mlir_bytes'] / 1024, e['arg_bytes'] / 2**20,
            e['inputs'] or '(no inputs file)'))
    manifest['workloads'] = {k: manifest['workloads'][k] for k in workloads.ALL
                             if k in manifest['workloads']}
    with open(man_path, 'w') as f:
        json.dump(manifest, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
