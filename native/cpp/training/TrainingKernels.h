// Registers the CPU reference of the operations whose kernels live in training/ (platform/KernelFactory.h):
// the pair loss.
#pragma once

namespace hookmd {

void registerTrainingKernels();

}  // namespace hookmd
