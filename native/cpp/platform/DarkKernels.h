// Device kernels that ship dark (docs/cuda.md, "Dark kernels"): a kernel that has not yet passed the parity
// suite on a real GPU is used only when HOOKMD_CUDA_UNVERIFIED=1; otherwise the last verified path runs.
// `mirror` consults the same table, so it emulates what cuda does under the same setting. backendInfo()
// lists every device kernel family with its verification.
#pragma once

#include <cstddef>

#include "platform/DeviceOperationTable.h"

namespace hookmd {

/** The device kernel families of platform/DeviceOperationTable.h. */
enum class DeviceKernelFamily : int {
#define HOOKMD_FAMILY_ENUM(family, name, verified, hasFallback) family,
  HOOKMD_DEVICE_KERNEL_FAMILIES(HOOKMD_FAMILY_ENUM)
#undef HOOKMD_FAMILY_ENUM
  Count
};

struct DeviceKernelInfo {
  /** The family's name, as backendInfo() lists it. */
  const char* name;
  /** Where and when the parity suite passed on a GPU (docs/cuda.md, "Verified on a GPU"); empty while dark. */
  const char* verified;
};

constexpr int kDeviceKernelFamilies = static_cast<int>(DeviceKernelFamily::Count);

const DeviceKernelInfo& deviceKernelInfo(DeviceKernelFamily family);

/**
 * Whether the device backends use `family`: verified, or HOOKMD_CUDA_UNVERIFIED=1, and not named in
 * HOOKMD_CUDA_DISABLE (a comma-separated list of the families that have an older path to fall back on,
 * the table's `hasFallback`), so a user who suspects a kernel can run without it. Both
 * are read at each call, so a test can set them. Any other value of HOOKMD_CUDA_UNVERIFIED than unset, 0
 * or 1, and any other name in HOOKMD_CUDA_DISABLE, is an INVALID_ENVIRONMENT error.
 */
bool deviceKernelEnabled(DeviceKernelFamily family);

}  // namespace hookmd
