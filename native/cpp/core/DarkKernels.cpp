#include "core/DarkKernels.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/Error.h"

namespace hookmd {

namespace {
constexpr const char* kVerified20261126 = "NVIDIA H200, 2026-11-26, commit 7f9f22f (bash scripts/gpu-check.sh backends suite sanitize bench)";

constexpr std::array<DeviceKernelInfo, kDeviceKernelFamilies> kFamilies{{
    {"reductions", kVerified20261126},
    {"pair-forces", kVerified20261126},
    {"integrators", "NVIDIA H200, 2026-11-27, commit 1425145 (bash scripts/gpu-check.sh verify backends)"},
    {"native-hooks", kVerified20261126},
    {"pair-loss", kVerified20261126},
    {"small-systems", "NVIDIA H200, 2026-11-27, commit 1425145 (bash scripts/gpu-check.sh verify)"},
    {"device-step", "NVIDIA H200, 2026-11-27, commit f79aa5f (bash scripts/gpu-check.sh verify)"},
    {"neighbor-build", "NVIDIA H200, 2026-11-27, commit f79aa5f (bash scripts/gpu-check.sh verify)"},
}};

bool unverifiedAllowed() {
  const char* value = std::getenv("HOOKMD_CUDA_UNVERIFIED");
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "0") == 0) return false;
  if (std::strcmp(value, "1") == 0) return true;
  fail("INVALID_ENVIRONMENT", std::string("HOOKMD_CUDA_UNVERIFIED must be 0 or 1, got '") + value + "'");
}
}  // namespace

const DeviceKernelInfo& deviceKernelInfo(DeviceKernelFamily family) { return kFamilies[static_cast<std::size_t>(family)]; }

bool deviceKernelEnabled(DeviceKernelFamily family) {
  return deviceKernelInfo(family).verified[0] != '\0' || unverifiedAllowed();
}

}  // namespace hookmd
