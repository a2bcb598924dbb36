#!/usr/bin/env bash
# Runs every test: the unit, corpus, check and conformance tests (ctest), the
# same under AddressSanitizer + UndefinedBehaviorSanitizer, and a short
# fuzzing run of the parser. FUZZ_SECONDS (default 60) sets the fuzzing
# time; 0 skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
# CI's builds treat warnings as errors (a user's build only warns). The main
# build stays RelWithDebInfo, as CI has always built it: optimized, with
# debug info for backtraces (a user's build defaults to Release).
STRICT=-DHLOGRAPH_WERROR=ON

# Only what is missing is installed; clang and libFuzzer only when fuzzing.
if [ "$FUZZ_SECONDS" != 0 ]; then scripts/install_deps.sh --fuzz; else scripts/install_deps.sh; fi

echo "== Python environment (JAX is the conformance oracle)"
scripts/setup_venv.sh >/dev/null

echo "== build and test"
scripts/build.sh $STRICT -DCMAKE_BUILD_TYPE=RelWithDebInfo
ctest --test-dir build --output-on-failure -j "$(nproc)"

# Everything but the corpus-wide Python runs, conformance and the bytecode
# round trips (the same programs through the slow instrumented binary would
# double the CI time for little more coverage than the kernel suites, the
# check programs and the bytecode unit tests and fuzzer give).
echo "== AddressSanitizer + UndefinedBehaviorSanitizer"
BUILD_DIR=build-asan scripts/build.sh $STRICT -DHLOGRAPH_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -E '^(conformance|bytecode)\.'

if [ "$FUZZ_SECONDS" != 0 ]; then
  echo "== fuzzing the parser for ${FUZZ_SECONDS}s"
  BUILD_DIR=build-fuzz TARGETS=hlograph_parse_fuzzer scripts/build.sh $STRICT -DHLOGRAPH_FUZZ=ON -DHLOGRAPH_TESTS=OFF \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
  work=$(mktemp -d)
  cp tests/corpus/*.mlir "$work/"
  ./build-fuzz/tests/fuzz/hlograph_parse_fuzzer "$work" -dict=tests/fuzz/mlir.dict \
    -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/" 2>&1 | tail -n 15
  rm -rf "$work"
fi
echo "== all tests passed"
