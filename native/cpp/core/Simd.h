// Compiler support for the run-time dispatched AVX2 and AVX-512 bodies (core/CpuFeatures.h). GCC and Clang
// compile a function for a wider target from its target attribute alone, so the rest of the library stays
// baseline x86-64; HOOKMD_ALWAYS_INLINE pulls a shared template body into each such wrapper, so the body is
// compiled once per target. The build passes -ffp-contract=off: a fused multiply-add would round
// differently from the baseline body.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define HOOKMD_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HOOKMD_ALWAYS_INLINE inline
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HOOKMD_X86_SIMD 1
#include <immintrin.h>
#define HOOKMD_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,popcnt")))
#define HOOKMD_TARGET_AVX2 __attribute__((target("avx2,popcnt")))
#else
#define HOOKMD_X86_SIMD 0
#endif
