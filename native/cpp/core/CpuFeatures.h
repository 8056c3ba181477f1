// Which vector instructions this process may use on the CPU it runs on. Prebuilt binaries target baseline
// x86-64, so hot loops carry extra bodies compiled for AVX2 and AVX-512 and pick one at run time
// (docs/performance.md, "SIMD"). Every body produces the same bits: only the instruction width differs.
#pragma once

namespace hookmd {

enum class SimdLevel { Baseline, Avx2, Avx512 };

/**
 * The widest level the CPU supports (AVX2; AVX-512 F/VL/DQ), capped by HOOKMD_SIMD: "off" means Baseline,
 * "avx2" at most Avx2. Read once, at the first call. Always Baseline where the compiler cannot build the
 * wider bodies.
 */
SimdLevel simdLevel();

/** "avx512", "avx2" or "baseline". */
const char* simdLevelName(SimdLevel level);

}  // namespace hookmd
