// The operations a backend may run on its device (OpenMM's kernel names), and which of them the device
// backends run on their device arrays. `mirror` emulates `cuda` and must move exactly the data cuda moves,
// so both read this one table; everything else runs the CPU reference on the host mirrors. The many-body
// kernel counts only while its dark family is enabled.
#pragma once

#include "core/Backend.h"
#include "platform/DarkKernels.h"

namespace hookmd {

/**
 * ManyBodyForces is the row styles' many-body kernel (Tersoff, Stillinger–Weber); SnapForces is SNAP's and
 * ML-IAP's, which run the same CPU kernel over their own centre routine but have no device kernel.
 */
enum class Kernel : int {
  Reductions = 0,
  PairForces,
  Integrator,
  NativeHooks,
  PairLoss,
  EamForces,
  SmallSystems,
  ManyBodyForces,
  SnapForces
};

inline bool deviceImplements(Kernel kernel) {
  return kernel == Kernel::Reductions || kernel == Kernel::PairForces || kernel == Kernel::Integrator ||
         kernel == Kernel::NativeHooks || kernel == Kernel::SmallSystems ||
         (kernel == Kernel::ManyBodyForces && deviceKernelEnabled(DeviceKernelFamily::ManyBodyForces));
}

/**
 * The arrays the CPU reference of `kernel` runs on: the device arrays where the backend runs `kernel` there
 * and they are host memory (cpu, mirror), else the host mirrors. Syncs and marks like Backend::host().
 */
inline BatchStorage& arraysFor(Backend& backend, Kernel kernel, FieldSet reads, FieldSet writes = {}) {
  return backend.referenceArrays(backend.unified() || deviceImplements(kernel), reads, writes);
}

}  // namespace hookmd
