#!/usr/bin/env bash
# One call on the GPU machine: build, run the test suite (GPU tests
# included), run the corpus on the GPU against XLA:CPU, run
# compute-sanitizer on a few programs, and print a summary table last.
#
#   tools/gpu_check.sh [--quick]    (--quick: skip the sanitizer runs)
#
# Logs go to gpu-check/; when $OUT is set (the device tool), they are also
# packed into $OUT/gpu-check.tgz with the summary in $OUT/summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-check
rm -rf "$out"
mkdir -p "$out"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
python=${PYTHON:-python3}
declare -a summary

step() {  # step NAME COMMAND...: runs, logs to $out/NAME.log, records the result
  local name=$1
  shift
  local start=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  summary+=("$(printf '%-22s %-5s %4ds  %s' "$name" "$([ $rc = 0 ] && echo ok || echo FAIL)" $((SECONDS - start)) "$(tail -n 1 "$out/$name.log" | cut -c1-90)")")
  return $rc
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +changes)" | tee -a "$out/gpu.txt"

step configure cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DHLOGRAPH_WERROR=OFF
step build ninja -C build-gpu -j "$(nproc)" || { printf '%s\n' "${summary[@]}"; tail -n 40 "$out/build.log"; exit 1; }

# The unit tests, GPU suites included (they skip only without a device).
step unit_tests ctest --test-dir build-gpu -j 8 -E '^conformance' --output-on-failure
step gpu_unit_tests build-gpu/tests/hlograph_unit_tests --gtest_filter='Gpu*' --gtest_brief=1

# The corpus on the GPU against XLA:CPU on the same random inputs.
step corpus_gpu_vs_xla env JAX_PLATFORMS=cpu "$python" tests/conformance/run_corpus.py \
  --hlograph build-gpu/hlograph --backend gpu --jobs 4 --seed 0 --json "$out/corpus_gpu.json"
grep -E '^(FAIL|SKIP)' "$out/corpus_gpu_vs_xla.log" | cut -c1-200 >"$out/corpus_gpu_problems.txt"

if [ $quick = 0 ] && command -v compute-sanitizer >/dev/null; then
  for p in softmax mlp_grad while_loop_newton_sqrt switch_four_branches transformer_block; do
    step "memcheck_$p" compute-sanitizer --tool memcheck --error-exitcode 1 \
      build-gpu/hlograph run "tests/corpus/$p.mlir" --random 0 --backend gpu
  done
fi

{
  echo
  echo "== problems on the GPU corpus run"
  cat "$out/corpus_gpu_problems.txt"
  grep -E '^(matched|[0-9]+ passed)' "$out/corpus_gpu_vs_xla.log"
  echo
  echo "== summary ($(tr '\n' ' ' <"$out/gpu.txt"))"
  printf '%s\n' "${summary[@]}"
} | tee "$out/summary.txt"
if [ -n "${OUT:-}" ]; then
  cp "$out/summary.txt" "$OUT/"
  tar czf "$OUT/gpu-check.tgz" "$out"
fi
