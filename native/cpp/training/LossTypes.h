// What a force-matching loss is asked for and what it reports. The loss of a mini-batch is
//   L = w_E·mean_s(r_s²) + w_F·mean(ΔF²) + w_S·mean(Δσ²)
// with r_s = ΔE_s/n_s (per-atom normalization) or ΔE_s, the force mean over every force component of the
// systems that have reference forces, and the stress mean over the 9 components of the systems that have a
// reference stress. Δ is always prediction − reference.
#pragma once

#include <cstdint>

namespace hookmd {

struct LossWeights {
  double energy = 1.0;
  double forces = 1.0;
  double stress = 0.0;
  /** Compare energies per atom, (E − E_ref)/n, rather than per system. */
  bool perAtomEnergy = true;
};

/** One loss evaluation: the weighted terms and the error sums behind the MAE/RMSE metrics. */
struct LossStats {
  /** w_E·L_E + w_F·L_F + w_S·L_S. */
  double total = 0.0;
  /** The weighted terms; they add up to `total`. */
  double energy = 0.0;
  double forces = 0.0;
  double stress = 0.0;
  /** Σ|ΔE/n| and Σ(ΔE/n)² over systems with a reference energy (energy per atom, whatever the loss uses). */
  double energyAbs = 0.0;
  double energySq = 0.0;
  std::int64_t energyCount = 0;
  /** Σ|ΔF| and ΣΔF² over force components. */
  double forceAbs = 0.0;
  double forceSq = 0.0;
  std::int64_t forceCount = 0;
  /** Σ|Δσ| and ΣΔσ² over stress components. */
  double stressAbs = 0.0;
  double stressSq = 0.0;
  std::int64_t stressCount = 0;
};

}  // namespace hookmd
