#include "core/CpuFeatures.h"

#include <cstdlib>
#include <cstring>

#include "core/Simd.h"

namespace hookmd {

namespace {
SimdLevel detectSimdLevel() {
  const char* setting = std::getenv("HOOKMD_SIMD");
  if (setting != nullptr && std::strcmp(setting, "off") == 0) return SimdLevel::Baseline;
#if HOOKMD_X86_SIMD
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  const bool avx2 = __builtin_cpu_supports("avx2");
  const bool capped = setting != nullptr && std::strcmp(setting, "avx2") == 0;
  if (avx512 && !capped) return SimdLevel::Avx512;
  if (avx2) return SimdLevel::Avx2;
#endif
  return SimdLevel::Baseline;
}
}  // namespace

SimdLevel simdLevel() {
  static const SimdLevel level = detectSimdLevel();
  return level;
}

const char* simdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::Avx512: return "avx512";
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Baseline: break;
  }
  return "baseline";
}

}  // namespace hookmd
