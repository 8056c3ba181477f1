// The operations a backend may run on its device (OpenMM's kernel names), and which of them the device
// backends run on their device arrays. `mirror` emulates `cuda` and must move exactly the data cuda moves,
// so both read this one table; everything else runs the CPU reference on the host mirrors.
#pragma once

#include "core/Backend.h"

namespace hookmd {

enum class Kernel : int { Reductions = 0, PairForces, Integrator, NativeHooks, PairLoss, EamForces, SmallSystems, ManyBodyForces };

inline bool deviceImplements(Kernel kernel) {
  return kernel == Kernel::Reductions || kernel == Kernel::PairForces || kernel == Kernel::Integrator ||
         kernel == Kernel::NativeHooks || kernel == Kernel::SmallSystems;
}

/**
 * The arrays the CPU reference of `kernel` runs on: the device arrays where the backend runs `kernel` there
 * and they are host memory (cpu, mirror), else the host mirrors. Syncs and marks like Backend::host().
 */
inline BatchStorage& arraysFor(Backend& backend, Kernel kernel, FieldSet reads, FieldSet writes = {}) {
  return backend.referenceArrays(backend.unified() || deviceImplements(kernel), reads, writes);
}

}  // namespace hookmd
