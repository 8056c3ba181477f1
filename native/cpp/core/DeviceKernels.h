// The kernels that the device backends run on their device arrays. `mirror` emulates `cuda` and must move
// exactly the data cuda moves, so both answer supports() from this one table; everything else runs the CPU
// reference on the host mirrors.
#pragma once

#include "core/Backend.h"

namespace hookmd {

inline bool deviceImplements(Kernel kernel) {
  return kernel == Kernel::Reductions || kernel == Kernel::PairForces || kernel == Kernel::Integrator ||
         kernel == Kernel::NativeHooks || kernel == Kernel::SmallSystems;
}

}  // namespace hookmd
