// The CPU reference of the pair-loss kernel (kernels/PairLossKernel.h): systems in parallel on the thread
// pool, each one serially along its half neighbor list into its own outputs and gradient slot, so results
// do not depend on the number of threads.
#pragma once

#include <memory>

#include "kernels/PairLossKernel.h"

namespace hookmd {

/** The reference kernel for `spec`'s evaluator. */
std::unique_ptr<PairLossKernel> createCpuPairLossKernel(const PairLossSpec& spec);

}  // namespace hookmd
