#!/usr/bin/env bash
# Prints a Python >= MIN (default 3.12) that runs: $PYTHON if set, else the
# newest python3.N on PATH (every directory is looked in: a shim that refuses
# to run, as pyenv's do for versions not selected, is passed over), else the
# newest of python3 on PATH and pyenv's installed versions. Exits 1, saying what it looked for, when
# there is none.
#
# Usage: scripts/find_python.sh [MIN]     e.g. scripts/find_python.sh 3.12
set -euo pipefail

min=${1:-3.12}
min_major=${min%%.*}
min_minor=${min#*.}

# The interpreter's version as "major minor", if it runs.
version_of() {
  "$1" -c 'import sys; print(*sys.version_info[:2])' 2>/dev/null
}

good_enough() {
  local v
  v=$(version_of "$1") || return 1
  set -- $v
  [ "$1" -gt "$min_major" ] || { [ "$1" -eq "$min_major" ] && [ "$2" -ge "$min_minor" ]; }
}

if [ -n "${PYTHON:-}" ]; then
  if good_enough "$PYTHON"; then
    echo "$PYTHON"
    exit 0
  fi
  echo "find_python: PYTHON=$PYTHON is not a working Python >= $min" >&2
  exit 1
fi

# Named by version, newest first: the first that runs is the answer.
IFS=: read -r -a path_dirs <<<"$PATH"
for minor in $(seq 30 -1 "$min_minor"); do
  for dir in "${path_dirs[@]}"; do
    exe=$dir/python$min_major.$minor
    if [ -x "$exe" ] && good_enough "$exe"; then
      echo "$exe"
      exit 0
    fi
  done
done
# Else the newest of python3 on PATH and pyenv's versions not selected.
candidates=()
for dir in "${path_dirs[@]}"; do
  [ -x "$dir/python3" ] && candidates+=("$dir/python3")
done
for exe in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/*/bin/python3; do
  [ -x "$exe" ] && candidates+=("$exe")
done
best="" best_key=-1
for exe in "${candidates[@]}"; do
  good_enough "$exe" || continue
  read -r major minor <<<"$(version_of "$exe")"
  key=$((major * 1000 + minor))
  if [ "$key" -gt "$best_key" ]; then
    best=$exe best_key=$key
  fi
done
if [ -n "$best" ]; then
  echo "$best"
  exit 0
fi
echo "find_python: no Python >= $min: looked for python3.N and python3 on PATH and in" \
  "${PYENV_ROOT:-$HOME/.pyenv}/versions. Install one (Ubuntu 24.04 and Debian 13 have it as python3)" \
  "or set PYTHON=/path/to/python." >&2
exit 1
