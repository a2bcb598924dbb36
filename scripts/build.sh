#!/usr/bin/env bash
# Configures and builds hlograph into build/ (or $BUILD_DIR). Extra arguments
# go to CMake, e.g. scripts/build.sh -DHLOGRAPH_SANITIZE=ON; $TARGETS limits
# what is built. Missing system packages are installed first (only those:
# when all are there, install_deps.sh only looks).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
# Of CMake's output, only its summary: what this build has and found.
cmake -S . -B "$BUILD_DIR" -G Ninja "$@" | sed -n -E '/^-- (hlograph |  )/p'
ninja -C "$BUILD_DIR" -j "$JOBS" ${TARGETS:-}
