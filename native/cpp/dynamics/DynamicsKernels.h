// Registers the CPU reference of the operations whose kernels live in dynamics/ (platform/KernelFactory.h):
// the integrators, the native hooks and the small-system path.
#pragma once

namespace hookmd {

void registerDynamicsKernels();

}  // namespace hookmd
