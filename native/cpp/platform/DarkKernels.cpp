#include "platform/DarkKernels.h"

#include <algorithm>
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
    {"resident-step", "NVIDIA H200, 2026-11-27, commit b01644d (bash scripts/gpu-check.sh verify)"},
    {"resident-regrow", ""},
    {"many-body-forces", ""},
}};

bool unverifiedAllowed() {
  const char* value = std::getenv("HOOKMD_CUDA_UNVERIFIED");
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "0") == 0) return false;
  if (std::strcmp(value, "1") == 0) return true;
  fail("INVALID_ENVIRONMENT", std::string("HOOKMD_CUDA_UNVERIFIED must be 0 or 1, got '") + value + "'");
}
// The families with an older path to fall back on; the others are the only device path there is.
bool hasFallback(DeviceKernelFamily family) {
  return family == DeviceKernelFamily::SmallSystems || family == DeviceKernelFamily::DeviceStep ||
         family == DeviceKernelFamily::NeighborBuild || family == DeviceKernelFamily::ResidentStep ||
         family == DeviceKernelFamily::ResidentRegrow ||
         family == DeviceKernelFamily::ManyBodyForces;
}

// HOOKMD_CUDA_DISABLE: a comma-separated list of families to run without, each one that has a fallback.
bool disabledByUser(DeviceKernelFamily family) {
  const char* value = std::getenv("HOOKMD_CUDA_DISABLE");
  if (value == nullptr || value[0] == '\0') return false;
  const std::string list(value);
  bool disabled = false;
  for (std::size_t begin = 0; begin <= list.size();) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    const std::string name = list.substr(begin, end - begin);
    int found = -1;
    for (int i = 0; i < kDeviceKernelFamilies; ++i) {
      if (name == kFamilies[static_cast<std::size_t>(i)].name) found = i;
    }
    if (found < 0 || !hasFallback(static_cast<DeviceKernelFamily>(found))) {
      fail("INVALID_ENVIRONMENT", "HOOKMD_CUDA_DISABLE names '" + name +
                                      "': it takes a comma-separated list of small-systems, device-step, neighbor-build, resident-step, "
                                      "resident-regrow, many-body-forces");
    }
    if (found == static_cast<int>(family)) disabled = true;
    begin = end + 1;
  }
  return disabled;
}
}  // namespace

const DeviceKernelInfo& deviceKernelInfo(DeviceKernelFamily family) { return kFamilies[static_cast<std::size_t>(family)]; }

bool deviceKernelEnabled(DeviceKernelFamily family) {
  if (disabledByUser(family)) return false;
  return deviceKernelInfo(family).verified[0] != '\0' || unverifiedAllowed();
}

}  // namespace hookmd
