#!/usr/bin/env bash
# Conformance test: runs every program of tests/corpus on hlograph's CPU
# interpreter and on XLA:CPU with the same fresh random arguments and compares
# the results leaf by leaf (tests/conformance/run_corpus.py).
#
# Usage: scripts/conformance.sh [run_corpus.py options] [NAME|GLOB ...]
#   scripts/conformance.sh                        # whole corpus, random seed (printed)
#   scripts/conformance.sh --seed 1234 mlp_grad 'conv2d_*'
#   scripts/conformance.sh --jobs 1 --time-repeats 3 --json times.json  # timings
#
# Environment:
#   HLOGRAPH   binary to test (default: $BUILD_DIR/hlograph, configured with
#              -DHLOGRAPH_CPU_BACKEND=ON if it is not, and brought up to date
#              with ninja first)
#   BUILD_DIR  build directory (default: build)
#   JOBS       ninja parallelism (default: 2)
#
# XLA runs with the default single CPU device (what the corpus was lowered
# for); run_corpus.py computes the references of sharded programs in a child
# process with --xla_force_host_platform_device_count=8.
# Exit status: 0 if every program passed or was skipped, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

python="$(scripts/setup_venv.sh | tail -n 1)"

if [[ -z "${HLOGRAPH:-}" ]]; then
    build_dir="${BUILD_DIR:-build}"
    # `hlograph run` exists only with the CPU backend, which is off by default.
    if [[ ! -f "${build_dir}/build.ninja" ]] \
        || ! grep -qx 'HLOGRAPH_CPU_BACKEND:BOOL=ON' "${build_dir}/CMakeCache.txt"; then
        echo "conformance: configuring ${build_dir} with -DHLOGRAPH_CPU_BACKEND=ON" >&2
        cmake -S . -B "${build_dir}" -G Ninja -DHLOGRAPH_CPU_BACKEND=ON >/dev/null
    fi
    ninja -C "${build_dir}" -j "${JOBS:-2}" hlograph >&2
    HLOGRAPH="${build_dir}/hlograph"
fi

export JAX_PLATFORMS=cpu
exec "${python}" tests/conformance/run_corpus.py --hlograph "${HLOGRAPH}" "$@"
