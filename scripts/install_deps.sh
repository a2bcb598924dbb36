#!/usr/bin/env bash
# Installs the system packages hlograph builds with, and only those missing:
# each is looked for first, so when all are there nothing runs (no apt-get
# update), however often this is called. Debian and Ubuntu, x86_64 and
# aarch64; elsewhere it names what is missing and stops.
#
#   always       g++, CMake >= 3.25, Ninja, OpenBLAS, zlib, GoogleTest, and a
#                Python >= 3.12 with venv (for JAX: the package and the tests)
#   --fuzz       clang and its libFuzzer runtime (scripts/test.sh's fuzzing)
#   CUDA         where the CUDA toolkit is installed, cuDNN's and CUPTI's
#                headers when NVIDIA's apt repository offers them (the GPU
#                backend compiles against them)
#
# Usage: scripts/install_deps.sh [--fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz=0
for arg in "$@"; do
  case $arg in
    --fuzz) fuzz=1 ;;
    *) echo "usage: $0 [--fuzz]" >&2; exit 2 ;;
  esac
done

# Whether any path matches the glob patterns given (multiarch directories
# differ between x86_64 and aarch64, so paths are matched, not spelled).
exists() {
  local pattern
  for pattern in "$@"; do
    compgen -G "$pattern" >/dev/null && return 0
  done
  return 1
}

cmake_recent() {
  local version
  version=$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p') || return 1
  [ -n "$version" ] || return 1
  set -- $version
  [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 25 ]; }
}

python_with_venv() {
  local python
  python=$(scripts/find_python.sh 3.12 2>/dev/null) || return 1
  "$python" -c 'import ensurepip, venv' 2>/dev/null
}

need=()
command -v g++ >/dev/null || need+=(g++)
cmake_recent || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
exists /usr/include/gtest/gtest.h || need+=(libgtest-dev)
exists /usr/lib/libopenblas.so '/usr/lib/*/libopenblas.so' /usr/lib64/libopenblas.so || need+=(libopenblas-dev)
exists /usr/include/zlib.h || need+=(zlib1g-dev)
have_python=1
python_with_venv || { have_python=0; need+=(python3 python3-venv); }

if [ "$fuzz" = 1 ]; then
  command -v clang++ >/dev/null || need+=(clang)
  arch=$(uname -m)
  exists "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-$arch.a" \
    "/usr/lib/llvm-*/lib/clang/*/lib/$arch-*/libclang_rt.fuzzer.a" || need+=(libclang-rt-dev)
fi

# The GPU backend: only where the toolkit is, and only packages NVIDIA's
# repository has (otherwise CMake's summary says what is missing).
nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ] && command -v apt-cache >/dev/null; then
  cuda_root=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  release=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  set -- ${release:-0 0}
  offered() { [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v none)" ]; }
  if ! exists "$cuda_root/include/cudnn.h" /usr/include/cudnn.h '/usr/include/*/cudnn.h' \
    "${CUDNN_ROOT:-/nonexistent}/include/cudnn.h"; then
    offered "libcudnn9-dev-cuda-$1" && need+=("libcudnn9-dev-cuda-$1")
  fi
  if ! exists "$cuda_root/include/cupti.h" "$cuda_root/extras/CUPTI/include/cupti.h" \
    "$cuda_root/targets/*/include/cupti.h"; then
    offered "cuda-cupti-dev-$1-$2" && need+=("cuda-cupti-dev-$1-$2")
  fi
fi

# A package installed already but not enough (apt's CMake or Python too old,
# as on Ubuntu 22.04 or Debian 12) is reported, not installed again: it
# would not help, and every build would run apt-get.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
install=()
for package in "${need[@]}"; do
  if command -v dpkg-query >/dev/null && installed "$package"; then
    case $package in
      cmake) echo "install_deps: $(cmake --version | head -n1) is older than 3.25: pip install cmake," \
               "or see https://apt.kitware.com" >&2
             exit 1 ;;
      python3|python3-venv) ;;  # said once below
      *) echo "install_deps: $package is installed but what it provides was not found" >&2 ;;
    esac
  else
    install+=("$package")
  fi
done
if [ "$have_python" = 0 ] && installed python3 && installed python3-venv; then
  echo "install_deps: warning: no Python >= 3.12 with venv (this system's python3 is older; JAX needs" \
    "3.12): install one (deadsnakes, pyenv, uv) and point PYTHON at it; building needs no Python" >&2
fi

if [ ${#install[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "install_deps: missing (Debian package names): ${install[*]}; install their equivalents" \
    "with this system's package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null; then
    echo "install_deps: missing: ${install[*]}; as root: apt-get update && apt-get install -y ${install[*]}" >&2
    exit 1
  fi
  SUDO=sudo
fi
echo "install_deps: installing ${install[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${install[@]}"
cmake_recent || { echo "install_deps: $(cmake --version | head -n1) is older than 3.25: pip install cmake," \
  "or see https://apt.kitware.com" >&2; exit 1; }
python_with_venv || echo "install_deps: warning: no Python >= 3.12 with venv after installing python3" \
  "(JAX needs 3.12): install one (deadsnakes, pyenv, uv) and point PYTHON at it" >&2
