// The operations a backend may run on its device (OpenMM's kernel names), and which of them the device
// backends run on their device arrays, from the one table platform/DeviceOperationTable.h. `mirror`
// emulates `cuda` and must move exactly the data cuda moves, so both read it; everything else runs the CPU
// reference on the host mirrors.
#pragma once

#include "core/Backend.h"
#include "platform/DarkKernels.h"

namespace hookmd {

/** The operations of platform/DeviceOperationTable.h. */
enum class Kernel : int {
#define HOOKMD_KERNEL_ENUM(kernel, onDevice) kernel,
  HOOKMD_DEVICE_KERNELS(HOOKMD_KERNEL_ENUM)
#undef HOOKMD_KERNEL_ENUM
};

/** Whether the device backends run `kernel` on their device arrays (the table's `onDevice`, read now). */
inline bool deviceImplements(Kernel kernel) {
  switch (kernel) {
#define HOOKMD_KERNEL_ON_DEVICE(kernel, onDevice) \
  case Kernel::kernel:                           \
    return onDevice;
    HOOKMD_DEVICE_KERNELS(HOOKMD_KERNEL_ON_DEVICE)
#undef HOOKMD_KERNEL_ON_DEVICE
  }
  return false;
}

/**
 * The arrays the CPU reference of `kernel` runs on: the device arrays where the backend runs `kernel` there
 * and they are host memory (cpu, mirror), else the host mirrors. Syncs and marks like Backend::host().
 */
inline BatchStorage& arraysFor(Backend& backend, Kernel kernel, FieldSet reads, FieldSet writes = {}) {
  return backend.referenceArrays(backend.unified() || deviceImplements(kernel), reads, writes);
}

}  // namespace hookmd
