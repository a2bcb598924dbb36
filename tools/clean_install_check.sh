#!/usr/bin/env bash
# From a fresh clone to jax.jit on hlograph with exactly the README's
# commands: it runs the block between <!-- install:begin --> and
# <!-- install:end --> of CLONE/README.md in CLONE, then checks what the
# installed package does (tools/jax_smoke_check.py): the platform is there,
# jax.jit runs on it, and without a GPU it is not JAX's default unless asked.
#
# Usage: tools/clean_install_check.sh CLONE
# CLONE is a fresh clone (git clone URL CLONE), or a copy of a working tree.
# It needs what the README assumes: Debian or Ubuntu, root or sudo for
# missing packages, the network (apt, PyPI).
set -euo pipefail
clone=$(cd "${1:?usage: $0 CLONE}" && pwd)
cd "$clone"

commands=$(sed -n '/^<!-- install:begin/,/^<!-- install:end/{/^<!--/d;/^```/d;p}' README.md)
if [ -z "$commands" ]; then
  echo "clean_install_check: README.md has no install block" >&2
  exit 1
fi
echo "== the README's commands, in $clone"
start=$SECONDS
# -x echoes each command as it runs; the first to fail stops the check.
bash -euxo pipefail -c "$commands"
echo "== installed in $((SECONDS - start)) s; checking"
# From elsewhere, so that Python imports the installed package, not python/.
cd /
"$clone/.venv/bin/python" "$clone/tools/jax_smoke_check.py"
