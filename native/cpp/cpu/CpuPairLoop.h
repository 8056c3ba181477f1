// The evaluator-specific half of the CPU pair-force kernel (HOOMD's PotentialPair pattern): the pair loop
// over one neighbor chunk, compiled once per combination of forces / virial / switch / single-species, so
// the hot loop carries no per-pair branches on options.
#pragma once

#include <array>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/CpuFeatures.h"
#include "cpu/CpuPairForceKernel.h"
#include "cpu/LennardJonesTile.h"
#include "cpu/OwnerSums.h"

namespace hookmd {

template <class Eval, bool kForces, bool kVirial, bool kSwitch, bool kSingle>
void pairLoop(const ChunkTask& task, const typename Eval::Params* params, const SwitchParams* switches,
              int numTypes, SystemSums& sums) {
  const NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const EntryDecoder decoder(*task.list);
  const std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  double* f = task.f;
  const std::uint8_t* types = task.types;
  OwnerSums<kForces, kVirial, kSwitch> owner;
  for (std::int32_t slot = task.slotBegin; slot < task.slotEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    const std::size_t row = kSingle ? 0 : static_cast<std::size_t>(types[i]) * numTypes;
    const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
    for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
      const std::uint32_t packed = entries[e];
      const std::int32_t j = decoder.neighbor(packed);
      double d[3];
      decoder.offset(packed, x, xi, d);
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const std::size_t pair = kSingle ? 0 : row + types[j];
      double fOverR;
      double pairEnergy;
      if (!Eval::evaluate(params[pair], r2, fOverR, pairEnergy)) continue;
      owner.add(switches, pair, r2, d, fOverR, pairEnergy, kForces ? f + 3 * j : nullptr);
    }
    owner.finishOwner(kForces ? f + 3 * i : nullptr);
  }
  owner.addTo(sums);
}

template <class Eval>
class CpuPairForceKernelOf final : public CpuPairForceKernel {
 public:
  using Params = typename Eval::Params;

  explicit CpuPairForceKernelOf(const PairForceSpec& spec)
      : CpuPairForceKernel(spec.model, spec.cutoff), numTypes_(spec.numTypes), params_(spec.params.size() / sizeof(Params)),
        switches_(spec.switches) {
    std::memcpy(params_.data(), spec.params.data(), params_.size() * sizeof(Params));
  }

 protected:
  void evaluateChunk(const ChunkTask& task, SystemSums& sums) const override {
    const int code = (task.f != nullptr ? 8 : 0) | (task.virial ? 4 : 0) | (switches_.empty() ? 0 : 2) | (numTypes_ == 1 ? 1 : 0);
    loopsForCpu()[code](task, params_.data(), switches_.data(), numTypes_, sums);
  }

 private:
  using Loop = void (*)(const ChunkTask&, const Params*, const SwitchParams*, int, SystemSums&);
  using Loops = std::array<Loop, 16>;

  /** The plain loops, except a single-species Lennard-Jones table's, which runs tiled on CPUs with AVX2 or AVX-512. */
  static const Loops& loopsForCpu() {
#if HOOKMD_X86_SIMD
    if constexpr (std::is_same_v<Eval, LennardJonesEval>) {
      static const Loops avx2 = tiled(std::make_index_sequence<16>());
      if (simdLevel() != SimdLevel::Baseline) return avx2;
    }
#endif
    return kLoops;
  }

#if HOOKMD_X86_SIMD
  template <std::size_t kCode>
  HOOKMD_TARGET_AVX2 static void tileLoop(const ChunkTask& task, const Params* params, const SwitchParams* switches, int,
                                          SystemSums& sums) {
    lennardJonesTileLoop<Avx2LennardJonesTile, (kCode & 8) != 0, (kCode & 4) != 0, (kCode & 2) != 0>(task, params[0],
                                                                                                     switches, sums);
  }

  /** The tiled loop for a single-species code (odd), the plain one for the others. */
  template <std::size_t kCode>
  static constexpr Loop tiledOrPlain() {
    if constexpr ((kCode & 1) != 0) {
      return &tileLoop<kCode>;
    } else {
      return &loopFor<kCode>;
    }
  }

  template <std::size_t... kCodes>
  static Loops tiled(std::index_sequence<kCodes...>) {
    return {{tiledOrPlain<kCodes>()...}};
  }
#endif

  template <std::size_t kCode>
  static void loopFor(const ChunkTask& task, const Params* params, const SwitchParams* switches, int numTypes,
                      SystemSums& sums) {
    pairLoop<Eval, (kCode & 8) != 0, (kCode & 4) != 0, (kCode & 2) != 0, (kCode & 1) != 0>(task, params, switches,
                                                                                           numTypes, sums);
  }

  template <std::size_t... kCodes>
  static constexpr std::array<Loop, sizeof...(kCodes)> loops(std::index_sequence<kCodes...>) {
    return {{&loopFor<kCodes>...}};
  }

  static constexpr std::array<Loop, 16> kLoops = loops(std::make_index_sequence<16>());

  int numTypes_;
  std::vector<Params> params_;
  std::vector<SwitchParams> switches_;
};

}  // namespace hookmd
