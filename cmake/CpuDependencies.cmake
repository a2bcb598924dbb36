# What the CPU backend links: OpenBLAS for dots and triangular solves (the
# kernels call its cblas.h) and zlib for .npz files. Each missing one stops
# the configuration with what to install.
set(BLA_VENDOR OpenBLAS)
find_package(BLAS QUIET)
if(NOT BLAS_FOUND)
  message(FATAL_ERROR "OpenBLAS not found: the CPU backend needs it for dots. Install it (Debian and Ubuntu: "
                      "apt-get install libopenblas-dev, or run scripts/install_deps.sh), or configure with "
                      "-DHLOGRAPH_CPU_BACKEND=OFF for a build that only parses, verifies and prints programs.")
endif()
find_package(ZLIB QUIET)
if(NOT ZLIB_FOUND)
  message(FATAL_ERROR "zlib not found: the CPU backend needs it to read and write .npz files. Install it "
                      "(Debian and Ubuntu: apt-get install zlib1g-dev, or run scripts/install_deps.sh), or "
                      "configure with -DHLOGRAPH_CPU_BACKEND=OFF.")
endif()
