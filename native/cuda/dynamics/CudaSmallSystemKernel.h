// The CUDA backend's small-system kernel (kernels/SmallSystemKernel.h): device copies of the pair tables,
// species types and convergence checks (sent when the stepping loop says so), the flag block, and the
// launch of CudaSmallSystems.cuh over the batch's device arrays. Host-compiler safe.
#pragma once

#include <memory>

#include "kernels/SmallSystemKernel.h"

namespace hookmd {

class CudaBackend;

std::unique_ptr<SmallSystemKernel> createCudaSmallSystemKernel(CudaBackend& backend);

}  // namespace hookmd
