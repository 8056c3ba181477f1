// The Lennard-Jones pair loop of the CPU kernel over tiles of pairs, on CPUs with AVX2 or AVX-512
// (cpu/CpuPairLoop.h chooses it for a single-species table). The loop gathers up to kPairTile of an owner's
// pairs inside the cutoff first, then evaluates the tile four pairs per instruction, then adds it to the
// owner's sums and to the neighbors' forces in entry order. So the divisions and the multiplications that
// hang on them, the long-latency steps of a pair, run back to back instead of each one stalling its own
// pair, and the branch on the cutoff is gone. The body performs the IEEE operations of
// math/LennardJonesEval.h, correctly rounded, in the same order, and the sums run in the order of the plain
// loop, so the results are the plain loop's bits. Eight lanes (AVX-512) were no faster on the AMD EPYC we
// measured, nor was gathering the neighbors into lanes (docs/performance.md, "SIMD").
#pragma once

#include <cstdint>

#include "core/Simd.h"
#include "cpu/CpuPairForceKernel.h"
#include "cpu/OwnerSums.h"
#include "math/LennardJonesEval.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

/** Pairs per tile: a multiple of the vector width, and room for a whole in.lj row (about 40 pairs within rc + skin). */
constexpr int kPairTile = 64;

/** One tile of pairs inside the cutoff, one array per quantity so the vector bodies load whole lanes. */
struct LennardJonesPairTile {
  alignas(64) double dx[kPairTile];
  alignas(64) double dy[kPairTile];
  alignas(64) double dz[kPairTile];
  alignas(64) double r2[kPairTile];
  alignas(64) double fOverR[kPairTile];
  alignas(64) double energy[kPairTile];
  /** fOverR·d, the force on j. */
  alignas(64) double fx[kPairTile];
  alignas(64) double fy[kPairTile];
  alignas(64) double fz[kPairTile];
  alignas(64) std::int32_t j[kPairTile];

  /** Lanes past a tile's pairs are computed too and ignored; start them finite. */
  LennardJonesPairTile() {
    for (int k = 0; k < kPairTile; ++k) r2[k] = 1.0;
  }
};

#if HOOKMD_X86_SIMD
struct Avx2LennardJonesTile {
  /**
   * fOverR, energy and the force on j of pairs [0, n) of `tile`, all inside the cutoff, four lanes at a time
   * (lanes up to n rounded up to 4 are computed and ignored).
   */
  HOOKMD_TARGET_AVX2 static void run(const LennardJonesParams& p, LennardJonesPairTile& tile, int n) {
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d force12 = _mm256_set1_pd(p.force12);
    const __m256d force6 = _mm256_set1_pd(p.force6);
    const __m256d energy12 = _mm256_set1_pd(p.energy12);
    const __m256d energy6 = _mm256_set1_pd(p.energy6);
    const __m256d shift = _mm256_set1_pd(p.energyShift);
    for (int k = 0; k < n; k += 4) {
      const __m256d r2inv = _mm256_div_pd(one, _mm256_load_pd(tile.r2 + k));
      const __m256d r6inv = _mm256_mul_pd(_mm256_mul_pd(r2inv, r2inv), r2inv);
      const __m256d attract = _mm256_sub_pd(_mm256_mul_pd(force12, r6inv), force6);
      const __m256d fOverR = _mm256_mul_pd(_mm256_mul_pd(r6inv, attract), r2inv);
      _mm256_store_pd(tile.fOverR + k, fOverR);
      const __m256d potential = _mm256_sub_pd(_mm256_mul_pd(energy12, r6inv), energy6);
      _mm256_store_pd(tile.energy + k, _mm256_sub_pd(_mm256_mul_pd(r6inv, potential), shift));
      _mm256_store_pd(tile.fx + k, _mm256_mul_pd(fOverR, _mm256_load_pd(tile.dx + k)));
      _mm256_store_pd(tile.fy + k, _mm256_mul_pd(fOverR, _mm256_load_pd(tile.dy + k)));
      _mm256_store_pd(tile.fz + k, _mm256_mul_pd(fOverR, _mm256_load_pd(tile.dz + k)));
    }
  }
};

/**
 * The pair loop of one neighbor chunk with a single-species table `p`, as pairLoop in cpu/CpuPairLoop.h:
 * the same pairs (a pair at or beyond the cutoff is skipped, one whose r² is not a number is not) added in
 * the same order.
 */
template <class Body, bool kForces, bool kVirial, bool kSwitch>
HOOKMD_ALWAYS_INLINE void lennardJonesTileLoop(const ChunkTask& task, const LennardJonesParams& p,
                                               const SwitchParams* switches, SystemSums& sums) {
  const NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const EntryDecoder decoder(*task.list);
  const std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  double* f = task.f;
  LennardJonesPairTile tile;
  OwnerSums<kForces, kVirial, kSwitch> owner;
  for (std::int32_t slot = task.slotBegin; slot < task.slotEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
    for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end;) {
      int n = 0;
      for (; e < end && n < kPairTile; ++e) {
        const std::uint32_t packed = entries[e];
        double d[3];
        decoder.offset(packed, x, xi, d);
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        // Written unconditionally and kept only when inside: no branch to mispredict.
        tile.dx[n] = d[0];
        tile.dy[n] = d[1];
        tile.dz[n] = d[2];
        tile.r2[n] = r2;
        tile.j[n] = decoder.neighbor(packed);
        n += !(r2 >= p.cutoffSq);
      }
      Body::run(p, tile, n);
      for (int k = 0; k < n; ++k) {
        double* fj = kForces ? f + 3 * tile.j[k] : nullptr;
        const double d[3] = {tile.dx[k], tile.dy[k], tile.dz[k]};
        if constexpr (kSwitch) {
          owner.add(switches, 0, tile.r2[k], d, tile.fOverR[k], tile.energy[k], fj);
        } else {
          owner.addForce(tile.fx[k], tile.fy[k], tile.fz[k], tile.energy[k], fj);
          if constexpr (kVirial) addPairVirial(owner.virial, d, tile.fOverR[k]);
        }
      }
    }
    owner.finishOwner(kForces ? f + 3 * i : nullptr);
  }
  owner.addTo(sums);
}
#endif

}  // namespace hookmd
