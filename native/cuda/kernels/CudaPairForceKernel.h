// The CUDA backend's pair-force kernel (docs/cuda.md): neighbor lists and the pair loop of LennardJones and
// Morse on the device, over the device arrays of a CudaBackend. Host-compiler safe: CudaBackend.cpp, built
// by the C++ compiler, includes it.
#pragma once

#include <memory>

#include "kernels/PairForceKernel.h"

namespace hookmd {

class CudaBackend;

/** A kernel for `spec` (already validated by the API layer) that runs on `backend`'s device arrays. */
std::unique_ptr<PairForceKernel> createCudaPairForceKernel(CudaBackend& backend, const PairForceSpec& spec);

}  // namespace hookmd
