#!/usr/bin/env bash
# On a fresh machine: install what is needed, build, and print an example
# program (an MLP gradient exported from JAX) through hlograph.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
./build/hlograph verify tests/corpus/mlp_grad.mlir
./build/hlograph print tests/corpus/mlp_grad.mlir
