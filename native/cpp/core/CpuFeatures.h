// Which vector instructions this process may use on the CPU it runs on. Prebuilt binaries target baseline
// x86-64, so hot loops carry a second body compiled for AVX-512 and pick one at run time
// (docs/performance.md, "SIMD"). Both bodies produce the same bits: only the instruction width differs.
#pragma once

namespace hookmd {

/**
 * Whether the AVX-512 bodies run: the CPU has AVX-512 F/VL/DQ and HOOKMD_SIMD is not "off" (read once, at
 * the first call). Always false where the compiler cannot build those bodies.
 */
bool useAvx512();

}  // namespace hookmd
