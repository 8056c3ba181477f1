// The evaluator-specific half of the CPU pair-force kernel (HOOMD's PotentialPair pattern): the pair loop
// over one neighbor chunk, compiled once per combination of forces / virial / switch / single-species, so
// the hot loop carries no per-pair branches on options.
#pragma once

#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "cpu/CpuPairForceKernel.h"
#include "math/PairGeometry.h"
#include "math/SmoothSwitch.h"

namespace hookmd {

/**
 * One owner's running sums, and what a pair within the cutoff adds to them and to atom j. The scalar loop
 * below and the AVX-512 one (cpu/Avx512PairLoop.h) both end in add(), pair by pair in list order, so they
 * sum the same numbers in the same order.
 */
template <bool kForces, bool kVirial, bool kSwitch>
struct OwnerSums {
  double energy = 0.0;
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double fxi = 0.0;
  double fyi = 0.0;
  double fzi = 0.0;

  void add(const SwitchParams* switches, std::size_t pair, double r2, const double* d, double fOverR, double pairEnergy,
           double* fj) {
    if constexpr (kSwitch) applySwitch(switches[pair], r2, pairEnergy, fOverR);
    energy += pairEnergy;
    if constexpr (kForces) {
      const double fx = fOverR * d[0];
      const double fy = fOverR * d[1];
      const double fz = fOverR * d[2];
      fxi -= fx;
      fyi -= fy;
      fzi -= fz;
      fj[0] += fx;
      fj[1] += fy;
      fj[2] += fz;
    }
    if constexpr (kVirial) addPairVirial(virial, d, fOverR);
  }

  /** Ends owner i: its force, then a fresh force sum for the next owner. */
  void finishOwner(double* fi) {
    if constexpr (kForces) {
      fi[0] += fxi;
      fi[1] += fyi;
      fi[2] += fzi;
    }
    fxi = 0.0;
    fyi = 0.0;
    fzi = 0.0;
  }

  void addTo(SystemSums& sums) const {
    sums.energy += energy;
    for (int c = 0; c < 6; ++c) sums.virial[c] += virial[c];
  }
};

template <class Eval, bool kForces, bool kVirial, bool kSwitch, bool kSingle>
void pairLoop(const ChunkTask& task, const typename Eval::Params* params, const SwitchParams* switches,
              int numTypes, SystemSums& sums) {
  const NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const double* shifts = task.list->shifts.data();
  const int bits = task.list->imageBits;
  const std::uint32_t mask = task.list->imageMask;
  const std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  double* f = task.f;
  const std::uint8_t* types = task.types;
  OwnerSums<kForces, kVirial, kSwitch> owner;
  for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi = x[3 * i];
    const double yi = x[3 * i + 1];
    const double zi = x[3 * i + 2];
    const std::size_t row = kSingle ? 0 : static_cast<std::size_t>(types[i]) * numTypes;
    const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
    for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
      const std::uint32_t packed = entries[e];
      const std::int32_t j = static_cast<std::int32_t>(packed >> bits);
      const double* shift = shifts + 3 * (packed & mask);
      const double d[3] = {x[3 * j] + shift[0] - xi, x[3 * j + 1] + shift[1] - yi, x[3 * j + 2] + shift[2] - zi};
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
    kLoops[code](task, params_.data(), switches_.data(), numTypes_, sums);
  }

 private:
  using Loop = void (*)(const ChunkTask&, const Params*, const SwitchParams*, int, SystemSums&);

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
