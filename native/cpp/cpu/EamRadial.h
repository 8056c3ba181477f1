// The radial stage of the CPU EAM pair loops: for a tile of pairs, r = √r², 1/r and the spline interval
// (m, p) of r. The pair loops gather a tile first and evaluate it after, so these square roots and divisions,
// the long-latency steps of a pair, run back to back instead of each one stalling its own pair, and run
// four or eight at once on CPUs with AVX2 or AVX-512 (core/CpuFeatures.h). Every body performs the same
// IEEE operations, correctly rounded, in the same order as math/EamEval.h's eamRadialIndex, so all give
// the same bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/Simd.h"
#include "math/EamEval.h"

namespace hookmd {

/** Pairs per tile: a multiple of the widest vector (8 doubles). */
constexpr int kEamTile = 32;

/** One tile of pairs, one array per quantity so the vector bodies load whole lanes. */
struct EamPairTile {
  alignas(64) double dx[kEamTile];
  alignas(64) double dy[kEamTile];
  alignas(64) double dz[kEamTile];
  alignas(64) double r2[kEamTile];
  alignas(64) double recip[kEamTile];
  alignas(64) double p[kEamTile];
  alignas(64) std::int32_t m[kEamTile];
  alignas(64) std::int32_t j[kEamTile];

  /** Lanes past a tile's pairs are computed too; keep them finite. */
  EamPairTile() {
    for (int k = 0; k < kEamTile; ++k) r2[k] = 1.0;
  }
};

struct ScalarRadial {
  /** 1/r (when kRecip), m and p of pairs [0, n) of `tile` from their r2. */
  template <bool kRecip>
  static void run(const EamGrid& grid, EamPairTile& tile, int n) {
    for (int k = 0; k < n; ++k) {
      const double r = std::sqrt(tile.r2[k]);
      if constexpr (kRecip) tile.recip[k] = 1.0 / r;
      eamRadialIndex(grid, r, tile.m[k], tile.p[k]);
    }
  }
};

#if HOOKMD_X86_SIMD
struct Avx2Radial {
  /** As ScalarRadial, four lanes at a time (lanes up to n rounded up to 4 are computed and ignored). */
  template <bool kRecip>
  HOOKMD_TARGET_AVX2 static void run(const EamGrid& grid, EamPairTile& tile, int n) {
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d rdr = _mm256_set1_pd(grid.rdr);
    const __m128i last = _mm_set1_epi32(grid.nr - 1);
    for (int k = 0; k < n; k += 4) {
      const __m256d r = _mm256_sqrt_pd(_mm256_load_pd(tile.r2 + k));
      if constexpr (kRecip) _mm256_store_pd(tile.recip + k, _mm256_div_pd(one, r));
      __m256d p = _mm256_add_pd(_mm256_mul_pd(r, rdr), one);
      const __m128i m = _mm_min_epi32(_mm256_cvttpd_epi32(p), last);
      p = _mm256_sub_pd(p, _mm256_cvtepi32_pd(m));
      _mm256_store_pd(tile.p + k, _mm256_min_pd(p, one));
      _mm_store_si128(reinterpret_cast<__m128i*>(tile.m + k), m);
    }
  }
};

struct Avx512Radial {
  /** As ScalarRadial, eight lanes at a time. */
  template <bool kRecip>
  HOOKMD_TARGET_AVX512 static void run(const EamGrid& grid, EamPairTile& tile, int n) {
    const __m512d one = _mm512_set1_pd(1.0);
    const __m512d rdr = _mm512_set1_pd(grid.rdr);
    const __m256i last = _mm256_set1_epi32(grid.nr - 1);
    // The zero-masking forms with every lane selected: the plain ones start from an undefined register,
    // which GCC 12 reports as maybe uninitialized.
    const __mmask8 all = 0xff;
    for (int k = 0; k < n; k += 8) {
      const __m512d r = _mm512_maskz_sqrt_pd(all, _mm512_load_pd(tile.r2 + k));
      if constexpr (kRecip) _mm512_store_pd(tile.recip + k, _mm512_div_pd(one, r));
      __m512d p = _mm512_add_pd(_mm512_mul_pd(r, rdr), one);
      const __m256i m = _mm256_min_epi32(_mm512_maskz_cvttpd_epi32(all, p), last);
      p = _mm512_sub_pd(p, _mm512_maskz_cvtepi32_pd(all, m));
      _mm512_store_pd(tile.p + k, _mm512_maskz_min_pd(all, p, one));
      _mm256_store_si256(reinterpret_cast<__m256i*>(tile.m + k), m);
    }
  }
};
#endif

}  // namespace hookmd
