#!/usr/bin/env python3
"""The include rules of docs/ARCHITECTURE.md, checked: each source file's
project includes must come from its own layer or from one the table below
allows it (a lower one). The exceptions are listed with their reason; a new
include across the layers fails, naming the file, the line and the rule.

    python3 tools/check_layers.py [ROOT]      # exit 1 on a violation
    python3 tools/check_layers.py --self-test # the check finds a planted one
"""
import os
import re
import sys

# Layer of a path (relative to the root), most specific first.
LAYERS = [
    ('include/hlograph/', 'api'),
    ('src/ir/', 'ir'),
    ('src/passes/', 'passes'),
    ('src/frontend/', 'frontend'),
    ('src/io/', 'io'),
    ('src/backends/cpu/', 'cpu'),
    ('src/backends/gpu/plan/', 'gpu/plan'),
    ('src/backends/gpu/codegen/', 'gpu/codegen'),
    ('src/backends/gpu/runtime/', 'gpu/runtime'),
    ('src/backends/gpu/', 'gpu'),
    ('src/backends/', 'backends'),
    ('src/runtime/', 'runtime'),
    ('src/pjrt/', 'pjrt'),
    ('tools/hlograph/', 'cli'),
]

# What each layer may include besides itself: the layers below it.
ALLOWED = {
    'api': set(),
    'ir': {'api'},
    'passes': {'api', 'ir'},
    'frontend': {'api', 'ir'},
    'cpu': {'api', 'ir', 'passes'},
    'io': {'api', 'ir'},
    'backends': {'api', 'ir'},
    # The GPU backend's stages: plan/ is plain data, below both the code
    # generator and the runtime, which do not include each other.
    'gpu/plan': {'api', 'ir', 'passes'},
    'gpu/codegen': {'api', 'ir', 'gpu/plan'},
    'gpu/runtime': {'api', 'ir', 'gpu/plan', 'backends'},
    'gpu': {'api', 'ir', 'passes', 'io', 'cpu', 'backends', 'gpu/plan', 'gpu/codegen', 'gpu/runtime'},
    'runtime': {'api', 'ir', 'passes', 'frontend', 'io', 'cpu', 'backends', 'gpu', 'gpu/plan', 'gpu/runtime'},
    'pjrt': {'api', 'ir', 'passes', 'frontend', 'io', 'cpu', 'backends', 'gpu', 'gpu/plan', 'gpu/runtime',
             'runtime'},
    'cli': {'api', 'ir', 'passes', 'frontend', 'io', 'cpu', 'backends', 'gpu', 'gpu/plan', 'gpu/codegen',
            'gpu/runtime', 'runtime'},
}

# Known crossings, each to be removed by moving what it needs down a layer.
EXCEPTIONS = {
    ('src/io/', 'backends/cpu/tensor.h'): 'host arrays are cpu::Tensor until the runtime owns an array type',
    ('src/backends/gpu/plan/prefix_scan.cpp', 'backends/cpu/interpreter.h'):
        'a scan body is matched by running it on the interpreter',
    ('src/backends/gpu/codegen/fusion_emitter.h', 'backends/gpu/runtime/kernel_module.h'):
        'a kernel\'s launch dims are declared with the module that launches them',
    ('src/backends/gpu/codegen/nvrtc_compiler.cpp', 'backends/gpu/runtime/cache_file.h'):
        'compiled kernels share the runtime\'s on-disk cache files',
    ('src/backends/gpu/codegen/nvrtc_compiler.cpp', 'backends/gpu/runtime/cuda_status.h'):
        'CUDA errors are turned into Status the runtime\'s way',
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    for prefix, name in LAYERS:
        if path.startswith(prefix):
            return name
    return None


def included_layer(header):
    if header.startswith('hlograph/'):
        return 'api'
    return layer_of('src/' + header)


def excepted(path, header):
    return any(path.startswith(p) and header == h for p, h in EXCEPTIONS)


def violations(root):
    found = []
    for top in ('include', 'src', 'tools/hlograph'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(('.h', '.cpp')):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                mine = layer_of(path)
                if mine is None:
                    continue
                with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    header = m.group(1)
                    theirs = included_layer(header)
                    if theirs is None or theirs == mine or theirs in ALLOWED[mine] or excepted(path, header):
                        continue
                    line = text.count('\n', 0, m.start()) + 1
                    found.append(f'{path}:{line}: {mine} includes "{header}" of layer {theirs}; '
                                 f'{mine} may include {", ".join(sorted(ALLOWED[mine])) or "nothing else"}')
    return found


def self_test():
    """A tree with plan/ including the runtime, and one that keeps the rules."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), 'w') as f:
                f.write(text)
        write('src/backends/gpu/runtime/gemm.h', '#pragma once\n')
        write('src/backends/gpu/plan/program.h', '#include "ir/type.h"\n')
        good = violations(root)
        write('src/backends/gpu/plan/program.h', '#include "ir/type.h"\n#include "backends/gpu/runtime/gemm.h"\n')
        bad = violations(root)
    ok = good == [] and len(bad) == 1 and 'src/backends/gpu/plan/program.h:2: gpu/plan includes' in bad[0]
    print('self-test ' + ('passed' if ok else f'FAILED: {good} {bad}'))
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = violations(root)
    for v in found:
        print(v)
    used = set()
    for p, h in EXCEPTIONS:
        # An exception no file needs any more is stale: drop it from the list.
        for dirpath, _, files in os.walk(os.path.join(root, os.path.dirname(p) if p.endswith(('.h', '.cpp')) else p)):
            for name in files:
                path = os.path.relpath(os.path.join(dirpath, name), root)
                if path.startswith(p) and f'#include "{h}"' in open(os.path.join(root, path), errors='replace').read():
                    used.add((p, h))
    for stale in sorted(set(EXCEPTIONS) - used):
        print(f'stale exception in tools/check_layers.py: {stale[0]} no longer includes "{stale[1]}"')
        found.append(stale)
    if found:
        return 1
    print(f'include rules hold ({len(EXCEPTIONS)} listed exceptions)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
