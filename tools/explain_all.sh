#!/usr/bin/env bash
# Writes `hlograph explain --kernels` of every program given (default: the
# corpus, bench/*.mlir and the zoo exports under ZOO_DIR) into OUT_DIR, one
# file each, so that two builds' plans and kernels can be compared with
# `diff -r`: a change meant to leave every plan as it was shows none.
#
# The kernel prelude (the same for every kernel of a build) is left out
# unless PRELUDE=1.
#
#   tools/explain_all.sh OUT_DIR [FILE...]
#   HLOGRAPH=build/hlograph ZOO_DIR=scratch/zoo tools/explain_all.sh /tmp/before
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: tools/explain_all.sh OUT_DIR [FILE...]}
shift
hlograph=${HLOGRAPH:-build/hlograph}
zoo=${ZOO_DIR:-scratch/zoo}
if [ $# -eq 0 ]; then
  set -- tests/corpus/*.mlir bench/*.mlir "$zoo"/*.mlir
fi
mkdir -p "$out"
n=0
for f in "$@"; do
  [ -f "$f" ] || continue
  "$hlograph" explain "$f" --kernels 2>&1 |
    if [ "${PRELUDE:-0}" = 1 ]; then cat; else
      awk '/^\/\/ ---- hlograph kernel prelude ----/ {skip = 1} !skip {print} /^\/\/ ---- end of prelude ----/ {skip = 0}'
    fi > "$out/$(echo "$f" | tr '/' '_').txt" || true
  n=$((n + 1))
done
echo "$n programs explained into $out"
