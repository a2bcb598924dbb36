#!/usr/bin/env bash
# Fails when an HLOGRAPH_* environment variable that the code reads is not
# in docs/ENVIRONMENT.md's table, or when the table lists one nothing reads.
# "Reads" means the name as a string literal in C++ or Python (getenv, the
# helpers that take a name, os.environ) under src/, tools/ and python/, or
# expanded ($NAME, ${NAME}) in a shell script under scripts/ and tools/.
# Macros and CMake options share the prefix but are not quoted, so they do
# not count.
#
# Usage: tests/docs/environment_documented.sh [REPOSITORY_ROOT]
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"

names() { grep -oE 'HLOGRAPH_[A-Z0-9_]+' | sort -u; }

read_in_code=$(
  {
    grep -rhoE "[\"']HLOGRAPH_[A-Z0-9_]+[\"']" src tools python --include='*.cpp' --include='*.h' --include='*.py' || true
    grep -rhoE '\$\{?HLOGRAPH_[A-Z0-9_]+' scripts tools --include='*.sh' || true
  } | names
)
# Tests and benchmarks read a few of their own; the table may list those too.
read_anywhere=$(
  {
    echo "$read_in_code"
    grep -rhoE "[\"']HLOGRAPH_[A-Z0-9_]+[\"']|\\\$\{?HLOGRAPH_[A-Z0-9_]+" tests bench .ci || true
  } | names
)
# A row of the table starts with the variable's name in backquotes.
documented=$(grep -oE '^\| `HLOGRAPH_[A-Z0-9_]+`' docs/ENVIRONMENT.md | names)

status=0
missing=$(comm -23 <(echo "$read_in_code") <(echo "$documented"))
if [ -n "$missing" ]; then
  echo "read by the code but not in docs/ENVIRONMENT.md:"
  echo "$missing" | sed 's/^/  /'
  status=1
fi
stale=$(comm -13 <(echo "$read_anywhere") <(echo "$documented"))
if [ -n "$stale" ]; then
  echo "in docs/ENVIRONMENT.md but read nowhere:"
  echo "$stale" | sed 's/^/  /'
  status=1
fi
[ "$status" = 0 ] && echo "all $(echo "$documented" | wc -l) documented variables are read, and every one read is documented"
exit "$status"
