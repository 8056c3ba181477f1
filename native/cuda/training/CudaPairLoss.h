// The CUDA backend's pair-loss kernel (docs/cuda.md): the forward and backward passes of the force-matching
// loss over a bound training set, on the device. Host-compiler safe: CudaBackend.cpp, built by the C++
// compiler, includes it.
#pragma once

#include <memory>

#include "kernels/PairLossKernel.h"

namespace hookmd {

/**
 * A kernel for `spec` (validated by PairLoss). Uploads the set's neighbor lists, wrapped positions and
 * species once, here; throws OUT_OF_MEMORY or CUDA_ERROR, named after the model's loss.
 */
std::unique_ptr<PairLossKernel> createCudaPairLossKernel(const PairLossSpec& spec);

}  // namespace hookmd
