#include "core/CpuFeatures.h"

#include <cstdlib>
#include <cstring>

#include "core/Simd.h"

namespace hookmd {

namespace {
bool detectAvx512() {
  const char* setting = std::getenv("HOOKMD_SIMD");
  if (setting != nullptr && std::strcmp(setting, "off") == 0) return false;
#if HOOKMD_X86_SIMD
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
#else
  return false;
#endif
}
}  // namespace

bool useAvx512() {
  static const bool enabled = detectAvx512();
  return enabled;
}

}  // namespace hookmd
