#!/usr/bin/env bash
# One call on the GPU machine: build, run the GPU tests, run the corpus on
# the GPU against XLA:CPU, run compute-sanitizer on a few programs, run the
# benchmarks side by side with XLA, and print a summary table last.
#
#   tools/gpu_check.sh [--quick] [--no-bench] [--no-corpus] [--all-tests] [--pjrt] [--memory] [--zoo] [WORKLOAD ...]
#     --quick      skip the sanitizer runs
#     --no-corpus  skip the corpus on the GPU
#     --no-bench   skip bench/side_by_side.py (WORKLOADs: which ones; default all)
#     --all-tests  also run the CPU unit tests (CI runs them anyway)
#     --pjrt       also run jax.jit through the PJRT plugin on the GPU backend
#                  (the plugin tests, the corpus against JAX's CPU backend,
#                  and bench/pjrt_overhead.py against XLA's own plugin)
#     --memory     also the out-of-memory probes (bench/oom_check.py) and the
#                  memory stress against XLA (bench/memory_stress.py; $EXES
#                  live executables, default 1000)
#     --zoo        also run the zoo (bench/zoo.py; the programs named in $ZOO,
#                  else all) through jax.jit side by side with XLA, with
#                  hlograph's roofline of each (bench/jit_side_by_side.py)
#
# GPU_TESTS (a gtest filter, default Gpu*) picks the GPU unit tests.
# Logs go to gpu-check/, the summary last in gpu-check/summary.txt; when
# $OUT is set (the device tool) they are packed into $OUT/gpu-check.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-check
rm -rf "$out"
mkdir -p "$out"
quick=0 bench=1 all_tests=0 pjrt=0 zoo=0 corpus=1 memory=0
declare -a workloads
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    --no-bench) bench=0 ;;
    --all-tests) all_tests=1 ;;
    --pjrt) pjrt=1 ;;
    --zoo) zoo=1 ;;
    --memory) memory=1 ;;
    --no-corpus) corpus=0 ;;
    *) workloads+=("$a") ;;
  esac
done
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

# The GPU suites (they skip only without a device); the rest with --all-tests.
[ $all_tests = 1 ] && step unit_tests ctest --test-dir build-gpu -j 8 -E '^conformance' --output-on-failure
step gpu_unit_tests build-gpu/tests/hlograph_unit_tests --gtest_filter="${GPU_TESTS:-Gpu*}" --gtest_brief=1

# The corpus on the GPU against XLA:CPU on the same random inputs.
if [ $corpus = 1 ]; then
  step corpus_gpu_vs_xla env JAX_PLATFORMS=cpu "$python" tests/conformance/run_corpus.py \
    --hlograph build-gpu/hlograph --backend gpu --jobs 4 --seed 0 --json "$out/corpus_gpu.json"
  grep -E '^(FAIL|SKIP)' "$out/corpus_gpu_vs_xla.log" | cut -c1-200 >"$out/corpus_gpu_problems.txt"
fi

if [ $pjrt = 1 ]; then
  plugin=build-gpu/libhlograph_pjrt.so
  step pjrt_gpu env HLOGRAPH_PJRT_BACKEND=gpu "$python" tests/pjrt/jax_plugin_test.py "$plugin"
  step pjrt_corpus_gpu env HLOGRAPH_PJRT_BACKEND=gpu "$python" tests/pjrt/jax_corpus_test.py "$plugin"
  step pjrt_overhead env PYTHONUNBUFFERED=1 "$python" bench/pjrt_overhead.py --plugin "$plugin" --hlograph build-gpu/hlograph
fi

if [ $quick = 0 ] && command -v compute-sanitizer >/dev/null; then
  for p in softmax mlp_grad while_loop_newton_sqrt switch_four_branches transformer_block conv2d_nhwc_strided; do
    step "memcheck_$p" compute-sanitizer --tool memcheck --error-exitcode 1 \
      build-gpu/hlograph run "tests/corpus/$p.mlir" --random 0 --backend gpu
  done
fi

if [ $memory = 1 ]; then
  step oom_check "$python" bench/oom_check.py --plugin build-gpu/libhlograph_pjrt.so --hlograph build-gpu/hlograph
  step memory_stress "$python" bench/memory_stress.py --plugin build-gpu/libhlograph_pjrt.so \
    --executables "${EXES:-1000}" --json "$out/memory_stress.json"
fi

if [ $zoo = 1 ]; then
  # shellcheck disable=SC2086 # $ZOO: program names
  step zoo env PYTHONUNBUFFERED=1 "$python" bench/jit_side_by_side.py --plugin build-gpu/libhlograph_pjrt.so \
    --hlograph build-gpu/hlograph --timeout 150 --json "$out/zoo.json" --png "$out/zoo.png" \
    --markdown "$out/zoo.md" --workdir /tmp/zoo-work ${ZOO:-}
fi

if [ $bench = 1 ]; then
  step bench env PYTHONUNBUFFERED=1 "$python" bench/side_by_side.py --hlograph build-gpu/hlograph --iters 100 \
    --json "$out/bench.json" --png "$out/bench.png" "${workloads[@]}"
fi

{
  echo
  [ $bench = 1 ] && { echo "== benchmarks"; sed -n '/^Times in microseconds/,$p' "$out/bench.log"; }
  [ $zoo = 1 ] && { echo "== zoo through jax.jit"; sed -n '/^jax.jit, calls queued/,/^geomean/p' "$out/zoo.log"; }
  [ $pjrt = 1 ] && { echo; echo "== jax.jit through the plugin"; sed -n '/^Host time per call/,$p' "$out/pjrt_overhead.log";
                     grep -E '^(FAIL|SKIP)' "$out/pjrt_gpu.log" "$out/pjrt_corpus_gpu.log" | cut -c1-200 | head -40; }
  echo
  echo "== failed GPU tests"
  grep -E '^\[  FAILED  \]|Failure$' -A4 "$out/gpu_unit_tests.log" | grep -v '^--$' | cut -c1-200 | head -60
  echo
  if [ $corpus = 1 ]; then
    echo "== problems on the GPU corpus run"
    cat "$out/corpus_gpu_problems.txt"
    grep -E '^(matched|[0-9]+ passed)' "$out/corpus_gpu_vs_xla.log"
  fi
  echo
  echo "== summary ($(tr '\n' ' ' <"$out/gpu.txt"))"
  printf '%s\n' "${summary[@]}"
} | tee "$out/summary.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-check.tgz" "$out"
exit 0
