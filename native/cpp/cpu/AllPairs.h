// Every pair of one small free cluster, with one pair evaluator, in the order the CPU pair kernel walks a
// single-bin half list (owner i ascending, then j > i ascending) and summed by the same OwnerSums
// (cpu/CpuPairLoop.h): the CPU small-system path gives the general path's bits whenever every pair stays on
// one side of the cutoff.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/CpuPairLoop.h"

namespace hookmd {

/**
 * Energy of `count` atoms at `x` (3 per atom, no periodic images), and their forces into `f`. `types` (one
 * per atom) index the numTypes² tables `params` and `switches` (null: no switch); with one type they are
 * not read.
 */
template <class Eval, bool kSwitch, bool kSingle>
double allPairForces(const double* x, std::int32_t count, const std::uint8_t* types, const typename Eval::Params* params,
                     const SwitchParams* switches, int numTypes, double* f) {
  for (std::int32_t k = 0; k < 3 * count; ++k) f[k] = 0.0;
  OwnerSums<true, false, kSwitch> owner;
  for (std::int32_t i = 0; i < count; ++i) {
    const double xi = x[3 * i];
    const double yi = x[3 * i + 1];
    const double zi = x[3 * i + 2];
    const std::size_t row = kSingle ? 0 : static_cast<std::size_t>(types[i]) * numTypes;
    for (std::int32_t j = i + 1; j < count; ++j) {
      const double d[3] = {x[3 * j] - xi, x[3 * j + 1] - yi, x[3 * j + 2] - zi};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const std::size_t pair = kSingle ? 0 : row + types[j];
      double fOverR;
      double pairEnergy;
      if (!Eval::evaluate(params[pair], r2, fOverR, pairEnergy)) continue;
      owner.add(switches, pair, r2, d, fOverR, pairEnergy, f + 3 * j);
    }
    owner.finishOwner(f + 3 * i);
  }
  SystemSums sums;
  owner.addTo(sums);
  return sums.energy;
}

}  // namespace hookmd
