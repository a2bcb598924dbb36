#!/usr/bin/env bash
# On a fresh machine: install what is needed, build, and run an example
# program (an MLP gradient exported from JAX) on the CPU backend with
# random arguments, then run the hand-written check programs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
./build/hlograph verify tests/corpus/mlp_grad.mlir
./build/hlograph run tests/corpus/mlp_grad.mlir --random 0
for f in tests/check/*.mlir; do
  out=$(./build/hlograph check "$f")
  echo "$f: ${out##*$'\n'}"
done
