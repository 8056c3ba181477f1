// The CUDA backend's many-body kernel (docs/cuda.md, "Many-body potentials on the GPU"): Tersoff and
// Stillinger–Weber on the device arrays of a CudaBackend, dark until a GPU verifies it (the many-body-forces
// family of platform/DarkKernels.h). Host-compiler safe: CudaBackend.cpp, built by the C++ compiler, includes it.
#pragma once

#include <memory>

#include "kernels/ManyBodyForceKernel.h"

namespace hookmd {

class CudaBackend;

/** A kernel for `spec` (already validated by the API layer) that runs on `backend`'s device arrays. */
std::unique_ptr<ManyBodyForceKernel> createCudaManyBodyForceKernel(CudaBackend& backend, const ManyBodyForceSpec& spec);

}  // namespace hookmd
