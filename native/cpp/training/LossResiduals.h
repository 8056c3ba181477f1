// The residuals of a mini-batch's predictions against its references, the loss they make (LossTypes.h has
// the formula) and the derivatives of that loss with respect to each system's predictions: what every
// trainable model's loss shares (training/PairLoss for pair potentials, training/NetworkLoss for networks
// on descriptors). Systems are walked in parallel and summed in mini-batch order, so the result does not
// depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "training/LossTypes.h"
#include "kernels/TrainingData.h"

namespace hookmd {

/**
 * ∂L/∂(predictions) of one listed system: ∂L/∂E = energy, ∂L/∂F_i = forces · ΔF_i and ∂L/∂σ = stress · Δσ
 * (0 for what the system has no reference of).
 */
struct LossSlopes {
  double energy = 0.0;
  double forces = 0.0;
  double stress = 0.0;
};

/** Predictions of a mini-batch: its systems and, in their order, the predicted energies, forces and stresses. */
struct BatchPredictions {
  const std::vector<std::int32_t>& systems;
  /** Where each listed system's forces start in `forces` (count + 1 entries). */
  const std::vector<std::int64_t>& offsets;
  const std::vector<double>& energy;
  const std::vector<double>& forces;
  const std::vector<double>& stress;
};

class LossResiduals {
 public:
  /** Throws INVALID_ARGUMENT (owner first) unless every weight is finite and >= 0. */
  static void checkWeights(const char* owner, const LossWeights& weights);

  /** The residuals and the loss of `predictions` of `data`'s systems. */
  LossStats compute(const TrainingData& data, const BatchPredictions& predictions, const LossWeights& weights);

  /** The slopes of the loss that compute() returned (`stats`), per listed system. */
  const std::vector<LossSlopes>& slopes(const TrainingData& data, const std::vector<std::int32_t>& systems, const LossStats& stats,
                                        const LossWeights& weights);

  /** ΔF of every listed system's atoms, laid out as the predicted forces. */
  const std::vector<double>& deltaForces() const noexcept { return deltaForces_; }
  /** Δσ, 9 per listed system. */
  const std::vector<double>& deltaStress() const noexcept { return deltaStress_; }

 private:
  std::vector<double> energyResidual_;
  std::vector<double> deltaForces_;
  std::vector<double> deltaStress_;
  std::vector<LossStats> slotStats_;
  std::vector<LossSlopes> slopes_;
};

}  // namespace hookmd
