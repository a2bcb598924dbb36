# What the GPU backend compiles against: the CUDA toolkit (the runtime,
# NVRTC, cuBLASLt and CUPTI headers) and cuDNN's headers. Only the CUDA
# runtime is linked; the other libraries are loaded on first use
# (runtime/cuda_libraries.cpp), so building needs their headers, not a GPU.
# Without the toolkit the build goes on without the GPU backend; with the
# toolkit but without cuDNN or CUPTI headers it stops and says what to
# install, since the backend's sources include them unconditionally.
# NCCL (collectives) is optional: with nccl.h the backend runs collectives
# through libnccl, loaded at run time like the others; without it the
# backend builds and refuses programs with collectives when they run.
include(HeaderVersion)

find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND)
  message(WARNING "CUDA toolkit not found: building without the GPU backend. To build it, install the CUDA "
                  "toolkit (https://developer.nvidia.com/cuda-downloads) or point CUDAToolkit_ROOT at it.")
  set(HLOGRAPH_GPU_BACKEND OFF)
  set(HLOGRAPH_GPU_BACKEND_WHY "no CUDA toolkit found")
  return()
endif()
if(NOT HLOGRAPH_CPU_BACKEND)
  message(FATAL_ERROR "the GPU backend needs the CPU backend (its tensors and file I/O): configure with "
                      "-DHLOGRAPH_CPU_BACKEND=ON, or -DHLOGRAPH_GPU_BACKEND=OFF")
endif()
get_filename_component(HLOGRAPH_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)

find_path(HLOGRAPH_CUDNN_INCLUDE_DIR cudnn.h
          HINTS ENV CUDNN_ROOT ENV CUDNN_PATH ${CUDAToolkit_INCLUDE_DIRS}
          PATH_SUFFIXES include
          DOC "The directory of cuDNN's cudnn.h")
if(NOT EXISTS "${HLOGRAPH_CUDNN_INCLUDE_DIR}/cudnn.h")
  if(HLOGRAPH_CUDNN_INCLUDE_DIR)  # given by hand, and wrong
    set(cudnn_where " in HLOGRAPH_CUDNN_INCLUDE_DIR=${HLOGRAPH_CUDNN_INCLUDE_DIR}")
  endif()
  message(FATAL_ERROR "cuDNN headers (cudnn.h) not found${cudnn_where}: the GPU backend compiles against them (it runs "
                      "convolutions through cuDNN, loaded at run time). Install cuDNN's development files "
                      "(with NVIDIA's CUDA repository: apt-get install cudnn9-cuda-${CUDAToolkit_VERSION_MAJOR}; "
                      "see https://developer.nvidia.com/cudnn-downloads), or unpack NVIDIA's cuDNN archive and "
                      "set CUDNN_ROOT to where it is; or configure with -DHLOGRAPH_GPU_BACKEND=OFF to build "
                      "without the GPU backend.")
endif()
foreach(header cudnn_version.h cudnn.h)  # cuDNN 8 and later state the version in cudnn_version.h
  if(NOT HLOGRAPH_CUDNN_VERSION AND EXISTS "${HLOGRAPH_CUDNN_INCLUDE_DIR}/${header}")
    hlograph_header_version("${HLOGRAPH_CUDNN_INCLUDE_DIR}/${header}" CUDNN_MAJOR CUDNN_MINOR CUDNN_PATCHLEVEL
                            HLOGRAPH_CUDNN_VERSION)
  endif()
endforeach()
if(NOT HLOGRAPH_CUDNN_VERSION)
  set(HLOGRAPH_CUDNN_VERSION "version unknown")
endif()
find_library(HLOGRAPH_CUDNN_LIBRARY cudnn
             HINTS ENV CUDNN_ROOT ENV CUDNN_PATH ${CUDAToolkit_LIBRARY_DIR}
             PATH_SUFFIXES lib lib64
             DOC "cuDNN's library, only reported: it is loaded at run time")

if(NOT CUDAToolkit_CUPTI_INCLUDE_DIR)
  message(FATAL_ERROR "CUPTI headers (cupti.h) not found in the CUDA toolkit at ${HLOGRAPH_CUDA_ROOT}: the GPU "
                      "backend's profiler compiles against them. Install the toolkit's CUPTI package "
                      "(cuda-cupti-dev-${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR} from NVIDIA's "
                      "CUDA repository), or configure with -DHLOGRAPH_GPU_BACKEND=OFF.")
endif()

find_path(HLOGRAPH_NCCL_INCLUDE_DIR nccl.h
          HINTS ENV NCCL_ROOT ${CUDAToolkit_INCLUDE_DIRS}
          PATH_SUFFIXES include
          DOC "The directory of NCCL's nccl.h (collectives; libnccl is loaded at run time)")
if(HLOGRAPH_NCCL_INCLUDE_DIR AND EXISTS "${HLOGRAPH_NCCL_INCLUDE_DIR}/nccl.h")
  hlograph_header_version("${HLOGRAPH_NCCL_INCLUDE_DIR}/nccl.h" NCCL_MAJOR NCCL_MINOR NCCL_PATCH
                          HLOGRAPH_NCCL_VERSION)
  set(HLOGRAPH_HAVE_NCCL ON)
else()
  set(HLOGRAPH_HAVE_NCCL OFF)
endif()
