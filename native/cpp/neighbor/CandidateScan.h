// The inner loop of a neighbor build: one owner's distance test against a run of candidate atoms, sorting
// them into pairs within the cutoff, pairs in the skin shell and the rest. A run is a range of consecutive
// slots under one lattice image (a stencil row, see BinGrid.h). Three bodies, one result: scalar, AVX2 and
// AVX-512, picked at run time (core/CpuFeatures.h); all compute x_q + (shift − x_owner) in the same order,
// so the lists they write are identical bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/Simd.h"

namespace hookmd {

/** The bin-ordered atoms of a list being built: positions one array per coordinate, slot-indexed. */
struct SortedAtoms {
  const double* x;
  const double* y;
  const double* z;
  const std::int32_t* owners;
  int imageBits;
};

/** Candidate slots [begin, end) under lattice image `image`; (sx, sy, sz) is that image's shift minus the owner. */
struct CandidateRun {
  std::int32_t begin;
  std::int32_t end;
  double sx;
  double sy;
  double sz;
  std::uint32_t image;
};

/**
 * Where one owner's pairs go: entries within the cutoff at inner[innerCount…], the skin shell at
 * shell[shellCount…]. Each scan may write up to kScanSlack entries past the last candidate of the run
 * (never counted), so both buffers need that much room beyond the candidates.
 */
struct ScanOutput {
  std::uint32_t* inner;
  std::size_t innerCount;
  std::uint32_t* shell;
  std::size_t shellCount;
};

constexpr std::size_t kScanSlack = 8;

struct ScalarScan {
  static void scan(const SortedAtoms& atoms, const CandidateRun& run, double cutoffSq, double rlistSq, ScanOutput& out) {
    // Every candidate is written, and the cursors advance by the test's outcome: no branch per candidate to
    // mispredict. Locals keep the cursors in registers (a store through `inner` could alias `out`).
    std::uint32_t* inner = out.inner;
    std::uint32_t* shell = out.shell;
    std::size_t innerCount = out.innerCount;
    std::size_t shellCount = out.shellCount;
    const std::uint32_t image = run.image;
    const int bits = atoms.imageBits;
    for (std::int32_t q = run.begin; q < run.end; ++q) {
      const double dx = atoms.x[q] + run.sx;
      const double dy = atoms.y[q] + run.sy;
      const double dz = atoms.z[q] + run.sz;
      const double d2 = dx * dx + dy * dy + dz * dz;
      const std::uint32_t entry = (static_cast<std::uint32_t>(atoms.owners[q]) << bits) | image;
      inner[innerCount] = entry;
      shell[shellCount] = entry;
      innerCount += d2 < cutoffSq;
      shellCount += (d2 >= cutoffSq) & (d2 < rlistSq);
    }
    out.innerCount = innerCount;
    out.shellCount = shellCount;
  }
};

#if HOOKMD_X86_SIMD
/** pshufb controls that move the 32-bit lanes selected by a 4-bit mask to the front, in lane order. */
struct PackTable {
  alignas(16) std::uint8_t control[16][16];

  constexpr PackTable() : control{} {
    for (int mask = 0; mask < 16; ++mask) {
      int out = 0;
      for (int lane = 0; lane < 4; ++lane) {
        if ((mask >> lane) & 1) {
          for (int b = 0; b < 4; ++b) control[mask][4 * out + b] = static_cast<std::uint8_t>(4 * lane + b);
          ++out;
        }
      }
      for (int b = 4 * out; b < 16; ++b) control[mask][b] = 0x80;
    }
  }
};

inline constexpr PackTable kPackTable{};

struct Avx2Scan {
  /** Four candidates per step, as ScalarScan lane by lane; AVX2 has no compress, so a table packs the lanes. */
  HOOKMD_TARGET_AVX2 static void scan(const SortedAtoms& atoms, const CandidateRun& run, double cutoffSq,
                                      double rlistSq, ScanOutput& out) {
    const __m256d sx = _mm256_set1_pd(run.sx);
    const __m256d sy = _mm256_set1_pd(run.sy);
    const __m256d sz = _mm256_set1_pd(run.sz);
    const __m256d cut = _mm256_set1_pd(cutoffSq);
    const __m256d reach = _mm256_set1_pd(rlistSq);
    const __m128i image = _mm_set1_epi32(static_cast<int>(run.image));
    const __m128i bits = _mm_cvtsi32_si128(atoms.imageBits);
    std::size_t innerCount = out.innerCount;
    std::size_t shellCount = out.shellCount;
    for (std::int32_t q = run.begin; q < run.end; q += 4) {
      const std::int32_t left = run.end - q;
      const int lanes = left >= 4 ? 0xf : (1 << left) - 1;
      // Lane k is loaded when its sign bit is set; masked loads never touch memory past the run.
      const __m128i load = _mm_cmpgt_epi32(_mm_set1_epi32(left), _mm_setr_epi32(0, 1, 2, 3));
      const __m256i load64 = _mm256_cvtepi32_epi64(load);
      const __m256d dx = _mm256_add_pd(_mm256_maskload_pd(atoms.x + q, load64), sx);
      const __m256d dy = _mm256_add_pd(_mm256_maskload_pd(atoms.y + q, load64), sy);
      const __m256d dz = _mm256_add_pd(_mm256_maskload_pd(atoms.z + q, load64), sz);
      const __m256d d2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
      const int inCutoff = _mm256_movemask_pd(_mm256_cmp_pd(d2, cut, _CMP_LT_OQ)) & lanes;
      const int inShell = _mm256_movemask_pd(_mm256_cmp_pd(d2, reach, _CMP_LT_OQ)) & lanes & ~inCutoff;
      const __m128i owners = _mm_maskload_epi32(atoms.owners + q, load);
      const __m128i entries = _mm_or_si128(_mm_sll_epi32(owners, bits), image);
      const __m128i* control = reinterpret_cast<const __m128i*>(kPackTable.control);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out.inner + innerCount), _mm_shuffle_epi8(entries, _mm_load_si128(control + inCutoff)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out.shell + shellCount), _mm_shuffle_epi8(entries, _mm_load_si128(control + inShell)));
      innerCount += static_cast<std::size_t>(__builtin_popcount(static_cast<unsigned>(inCutoff)));
      shellCount += static_cast<std::size_t>(__builtin_popcount(static_cast<unsigned>(inShell)));
    }
    out.innerCount = innerCount;
    out.shellCount = shellCount;
  }
};

struct Avx512Scan {
  /** Eight candidates per step: the same sums as ScalarScan, lane by lane, then a compress of each class. */
  HOOKMD_TARGET_AVX512 static void scan(const SortedAtoms& atoms, const CandidateRun& run, double cutoffSq,
                                        double rlistSq, ScanOutput& out) {
    const __m512d sx = _mm512_set1_pd(run.sx);
    const __m512d sy = _mm512_set1_pd(run.sy);
    const __m512d sz = _mm512_set1_pd(run.sz);
    const __m512d cut = _mm512_set1_pd(cutoffSq);
    const __m512d reach = _mm512_set1_pd(rlistSq);
    const __m256i image = _mm256_set1_epi32(static_cast<int>(run.image));
    const __m128i bits = _mm_cvtsi32_si128(atoms.imageBits);
    std::size_t innerCount = out.innerCount;
    std::size_t shellCount = out.shellCount;
    for (std::int32_t q = run.begin; q < run.end; q += 8) {
      const std::int32_t left = run.end - q;
      const __mmask8 lanes = left >= 8 ? static_cast<__mmask8>(0xff) : static_cast<__mmask8>((1u << left) - 1u);
      const __m512d dx = _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, atoms.x + q), sx);
      const __m512d dy = _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, atoms.y + q), sy);
      const __m512d dz = _mm512_add_pd(_mm512_maskz_loadu_pd(lanes, atoms.z + q), sz);
      const __m512d d2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)), _mm512_mul_pd(dz, dz));
      const __mmask8 inCutoff = _mm512_mask_cmp_pd_mask(lanes, d2, cut, _CMP_LT_OQ);
      const __mmask8 inShell = _mm512_mask_cmp_pd_mask(lanes, d2, reach, _CMP_LT_OQ) & static_cast<__mmask8>(~inCutoff);
      const __m256i owners = _mm256_maskz_loadu_epi32(lanes, atoms.owners + q);
      const __m256i entries = _mm256_or_si256(_mm256_sll_epi32(owners, bits), image);
      // Compress in registers and store all eight lanes: cheaper than a compressing store on every x86
      // that has one, at the price of kScanSlack entries of room.
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.inner + innerCount), _mm256_maskz_compress_epi32(inCutoff, entries));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.shell + shellCount), _mm256_maskz_compress_epi32(inShell, entries));
      innerCount += static_cast<std::size_t>(__builtin_popcount(inCutoff));
      shellCount += static_cast<std::size_t>(__builtin_popcount(inShell));
    }
    out.innerCount = innerCount;
    out.shellCount = shellCount;
  }
};
#endif

}  // namespace hookmd
