// The kernels that the device backends run on their device arrays. `mirror` emulates `cuda` and must move
// exactly the data cuda moves, so both answer supports() from this one table; everything else runs the CPU
// reference on the host mirrors. The many-body kernel counts only while its dark family is enabled.
#pragma once

#include "core/Backend.h"
#include "core/DarkKernels.h"

namespace hookmd {

inline bool deviceImplements(Kernel kernel) {
  return kernel == Kernel::Reductions || kernel == Kernel::PairForces || kernel == Kernel::Integrator ||
         kernel == Kernel::NativeHooks || kernel == Kernel::SmallSystems ||
         (kernel == Kernel::ManyBodyForces && deviceKernelEnabled(DeviceKernelFamily::ManyBodyForces));
}

}  // namespace hookmd
