#include "platform/DarkKernels.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/Error.h"

namespace hookmd {

namespace {
struct FamilyRow {
  DeviceKernelInfo info;
  bool hasFallback;
};

constexpr std::array<FamilyRow, kDeviceKernelFamilies> kFamilies{{
#define HOOKMD_FAMILY_ROW(family, name, verified, hasFallback) {{name, verified}, hasFallback},
    HOOKMD_DEVICE_KERNEL_FAMILIES(HOOKMD_FAMILY_ROW)
#undef HOOKMD_FAMILY_ROW
}};

bool unverifiedAllowed() {
  const char* value = std::getenv("HOOKMD_CUDA_UNVERIFIED");
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "0") == 0) return false;
  if (std::strcmp(value, "1") == 0) return true;
  fail("INVALID_ENVIRONMENT", std::string("HOOKMD_CUDA_UNVERIFIED must be 0 or 1, got '") + value + "'");
}
// The families HOOKMD_CUDA_DISABLE may name, as its error lists them.
std::string withFallback() {
  std::string names;
  for (const FamilyRow& row : kFamilies) {
    if (row.hasFallback) names += (names.empty() ? "" : ", ") + std::string(row.info.name);
  }
  return names;
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
      if (name == kFamilies[static_cast<std::size_t>(i)].info.name) found = i;
    }
    if (found < 0 || !kFamilies[static_cast<std::size_t>(found)].hasFallback) {
      fail("INVALID_ENVIRONMENT", "HOOKMD_CUDA_DISABLE names '" + name + "': it takes a comma-separated list of " + withFallback());
    }
    if (found == static_cast<int>(family)) disabled = true;
    begin = end + 1;
  }
  return disabled;
}
}  // namespace

const DeviceKernelInfo& deviceKernelInfo(DeviceKernelFamily family) { return kFamilies[static_cast<std::size_t>(family)].info; }

bool deviceKernelEnabled(DeviceKernelFamily family) {
  if (disabledByUser(family)) return false;
  return deviceKernelInfo(family).verified[0] != '\0' || unverifiedAllowed();
}

}  // namespace hookmd
