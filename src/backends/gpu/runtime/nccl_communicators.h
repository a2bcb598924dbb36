// NCCL communicators, one per list of CUDA devices (a collective's group
// in rank order), made once and kept for the life of the process: every
// executable whose collectives span the same devices shares them, and no
// call pays for making one. NCCL is loaded on first use
// (runtime/cuda_libraries.cpp); a build without nccl.h has none.
#pragma once

#include <string>
#include <vector>

#include "hlograph/status.h"

struct ncclComm;  // nccl.h's, kept out of the headers that include this one

namespace hlograph::gpu {

// Ok when this build has NCCL and the library loads; else why not.
Status NcclUsable();
// "2.28.9", or why NCCL is not usable.
std::string NcclVersion();

// The communicator of rank `rank` among the CUDA devices `devices` (rank
// order; each device once). The first ask for a device list makes the
// communicators of all its ranks at once (ncclCommInitAll: the devices of
// one process, a single GPU included), so every rank's executable of an
// in-process grid finds its own.
StatusOr<ncclComm*> CommunicatorFor(const std::vector<int>& devices, int rank);

}  // namespace hlograph::gpu
