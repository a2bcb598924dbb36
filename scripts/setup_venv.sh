#!/usr/bin/env bash
# Create (or refresh) the project's Python virtual environment in .venv/.
#
# Usage: scripts/setup_venv.sh
#
# Environment:
#   PYTHON   interpreter to use instead of the automatic search (must be >= 3.12;
#            the search, scripts/find_python.sh, takes the newest on PATH)
#
# The venv is rebuilt only when python/requirements-dev.txt changes: a stamp
# file inside the venv holds the hash of the requirements it was built from.
# On success the path of the venv's python is printed as the last line.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv_dir="${repo_root}/.venv"
requirements="${repo_root}/python/requirements-dev.txt"
stamp="${venv_dir}/.requirements.sha256"
min_major=3
min_minor=12

log() { echo "setup_venv: $*" >&2; }

# Succeeds when "$1" runs and is a Python >= min_major.min_minor.
python_ok() {
    "$1" -c "import sys; sys.exit(0 if sys.version_info >= (${min_major}, ${min_minor}) else 1)" \
        >/dev/null 2>&1
}

if [[ ! -f "${requirements}" ]]; then
    log "missing ${requirements}"
    exit 1
fi

# Keep the venv and build trees out of version control.
gitignore="${repo_root}/.gitignore"
if [[ -s "${gitignore}" && -n "$(tail -c1 "${gitignore}")" ]]; then
    echo >>"${gitignore}"  # the file lacks a final newline
fi
for pattern in '.venv/' 'build*/' '__pycache__/'; do
    if [[ ! -f "${gitignore}" ]] || ! grep -qxF "${pattern}" "${gitignore}"; then
        echo "${pattern}" >>"${gitignore}"
    fi
done

want_hash="$(sha256sum "${requirements}" | cut -d' ' -f1)"
venv_python="${venv_dir}/bin/python"

if [[ -x "${venv_python}" && -f "${stamp}" ]] && python_ok "${venv_python}" \
    && [[ "$(cat "${stamp}")" == "${want_hash}" ]]; then
    log "venv is up to date"
    echo "${venv_python}"
    exit 0
fi

if ! base_python="$("${repo_root}/scripts/find_python.sh" "${min_major}.${min_minor}")"; then
    exit 1
fi
log "using $("${base_python}" -c 'import sys; print(sys.executable, sys.version.split()[0])')"

# A venv made from a too-old or vanished interpreter cannot be repaired in place.
if [[ -e "${venv_dir}" ]] && ! python_ok "${venv_python}"; then
    log "removing unusable venv at ${venv_dir}"
    rm -rf "${venv_dir}"
fi
if [[ ! -x "${venv_python}" ]]; then
    log "creating ${venv_dir}"
    "${base_python}" -m venv "${venv_dir}"
fi

rm -f "${stamp}"
log "installing ${requirements#"${repo_root}/"}"
"${venv_python}" -m pip install --quiet --disable-pip-version-check -r "${requirements}"
echo "${want_hash}" >"${stamp}"

echo "${venv_python}"
