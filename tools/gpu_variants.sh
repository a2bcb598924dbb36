#!/usr/bin/env bash
# Queued and waited-for time per call of workloads under settings side by
# side, on the GPU machine, after building and running the GPU unit tests:
#
#   tools/gpu_variants.sh "HLOGRAPH_GPU_CLUSTER_SUM=0" "HLOGRAPH_GPU_CLUSTER_SUM=1" -- mlp_chain gpt_decode
#
# Each quoted argument before `--` is one setting (space-separated
# VAR=VALUE pairs, "" for the defaults); after it come the workloads
# (bench/programs/NAME.mlir). Prints "workload | setting | queued us |
# latency us | host us | MiB" rows and a CUPTI kernel profile of each
# workload with the last setting: the time in each kernel, and from one
# call's timeline how much of the call each kernel's end adds (the whole
# timeline goes to build-gpu/timelines/timeline-WORKLOAD.txt, packed into
# $OUT/timelines.tgz when OUT is set, and all that is printed to
# $OUT/variants.txt).
# TESTS=0 skips the unit tests (TESTS=GtestFilter runs those only), PROFILE=0 the profile
# (PROFILE=all profiles every setting).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if [ -n "${OUT:-}" ] && [ -z "${VARIANTS_LOGGED:-}" ]; then
  VARIANTS_LOGGED=1 "$0" "$@" 2>&1 | tee "$OUT/variants.txt"
  exit "${PIPESTATUS[0]}"
fi
declare -a settings workloads
seen_sep=0
for a in "$@"; do
  if [ "$a" = "--" ]; then seen_sep=1; elif [ $seen_sep = 0 ]; then settings+=("$a"); else workloads+=("$a"); fi
done
[ ${#settings[@]} -gt 0 ] || settings=("")
[ ${#workloads[@]} -gt 0 ] || workloads=(mlp_chain fori_tanh scan_layers gpt_decode)

[ -f build-gpu/build.ninja ] || cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DHLOGRAPH_WERROR=OFF >/dev/null
targets=(hlograph)
[ "${TESTS:-1}" = 0 ] || targets+=(hlograph_unit_tests)
ninja -C build-gpu -j "$(nproc)" "${targets[@]}" >build-gpu/variants-build.log 2>&1 \
  || { tail -n 30 build-gpu/variants-build.log; exit 1; }
if [ "${TESTS:-1}" != 0 ]; then
  filter='Gpu*'
  [ "${TESTS:-1}" = 1 ] || filter=$TESTS
  build-gpu/tests/hlograph_unit_tests --gtest_filter="$filter" --gtest_brief=1 >build-gpu/variants-tests.log 2>&1
  tail -n 3 build-gpu/variants-tests.log
  grep -A5 'FAILED\|Failure' build-gpu/variants-tests.log | head -40
fi

echo "| workload | setting | queued us | latency us | host us | MiB |"
echo "|---|---|---|---|---|---|"
for w in "${workloads[@]}"; do
  for s in "${settings[@]}"; do
    line=$(env $s build-gpu/hlograph bench "bench/programs/$w.mlir" --iters 200 --json 2>&1 | tail -n 1)
    echo "$line" | python3 -c "import json, sys; d = json.loads(sys.stdin.read()); \
print('| $w | ${s:-defaults} | %.1f | %.1f | %.1f | %.1f |' % (d['queued_us'], d['latency_us']['median'], \
d.get('host_us', float('nan')), d['peak_device_bytes'] / 1048576))" 2>/dev/null \
      || echo "| $w | ${s:-defaults} | error: ${line:0:120} |"
  done
done
[ "${PROFILE:-1}" = 0 ] && exit 0
# The last setting's profile (PROFILE=all: every setting's, each timeline
# as timeline-WORKLOAD-N.txt, N the setting's position from 1).
rm -rf build-gpu/timelines
mkdir -p build-gpu/timelines
profiled=("${settings[${#settings[@]}-1]}")
[ "${PROFILE:-1}" = all ] && profiled=("${settings[@]}")
for w in "${workloads[@]}"; do
  for i in "${!profiled[@]}"; do
    s=${profiled[$i]}
    echo "== $w (${s:-defaults}): kernel profile"
    env $s build-gpu/hlograph bench "bench/programs/$w.mlir" --profile --timeline --iters 30 >build-gpu/profile.txt 2>&1
    sed -n '/kernel time/,/timeline of one call/p' build-gpu/profile.txt | head -n 12
    name="timeline-$w.txt"
    [ "${PROFILE:-1}" = all ] && name="timeline-$w-$((i + 1)).txt"
    cp build-gpu/profile.txt "build-gpu/timelines/$name"
    echo "   per kernel: summed 'ends later' (the call's critical path) and summed duration, us"
    sed -n '/timeline of one call/,$p' build-gpu/profile.txt | awk 'NR > 2 && NF >= 5 {
        later[$5] += ($4 > 0 ? $4 : 0); dur[$5] += $3; n[$5]++ }
      END { for (k in later) printf "   %9.1f %9.1f  x%-3d %s\n", later[k], dur[k], n[k], k }' | sort -rn | head -n 14
  done
done
[ -n "${OUT:-}" ] && tar czf "$OUT/timelines.tgz" -C build-gpu timelines
exit 0
