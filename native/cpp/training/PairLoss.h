// The force-matching loss of a pair potential and its analytic gradient with respect to the potential's
// parameters (LJ ε, σ; Morse D, α, r₀ per species pair), over mini-batches of a bound training set.
//
// forward(θ, systems) predicts energy, forces and stress of each listed system; loss(weights, gradient)
// compares them with the references (LossTypes.h has the formula) and, on request, back-propagates:
//   ∂L/∂θ = Σ_pairs  a_E·∂e/∂θ  +  [a_F·(ΔF_j − ΔF_i)·d + a_S·dᵀΔσ d]·∂g/∂θ
// with e the pair energy, g = −(de/dr)/r (force on j = g·d, d = r_j − r_i), and a_E, a_F, a_S the
// derivatives of the loss terms with respect to each system's energy, forces and stress (σ = −W/V).
//
// This class is the API layer: it validates, assigns species types, keeps the references and computes the
// residuals. The pair walks (predictions, and each system's part of ∂L/∂θ) run in a PairLossKernel that
// the batch's backend creates at bind(), the CPU reference where it brings none. Each system's gradient
// goes into its own slot, and the slots are summed here in mini-batch order, so results do not depend on
// the number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"
#include "math/SmoothSwitch.h"
#include "training/LossResiduals.h"
#include "training/LossTypes.h"
#include "kernels/PairLossKernel.h"
#include "kernels/TrainingData.h"

namespace hookmd {

/** One parameter row's species and cutoff; z1 = z2 = 0 is the single row used for every pair. */
struct PairRow {
  int z1 = 0;
  int z2 = 0;
  double cutoff = 0.0;
};

class PairLoss {
 public:
  /**
   * Validates the rows (owner `name`, `paramsPerPair` values per row, the layout `evaluator` expects) and
   * lays out the species tables. Throws INVALID_PAIR, DUPLICATE_PAIR, INVALID_CUTOFF, INVALID_SWITCH,
   * INVALID_PARAMETER.
   */
  PairLoss(PairEvaluator evaluator, const char* name, int paramsPerPair, const std::vector<PairRow>& rows, bool shift,
           double switchOn);

  /** "LennardJones" or "Morse"; starts every error message. */
  const char* name() const noexcept { return name_; }
  int paramsPerPair() const noexcept { return paramsPerPair_; }
  /** rows × paramsPerPair: the length of θ and of the gradient, row by row. */
  std::size_t numParams() const noexcept { return rows_.size() * static_cast<std::size_t>(paramsPerPair_); }
  /** Systems of the bound training set (0 before bind). */
  std::int64_t numSystems() const noexcept { return data_ ? data_->numSystems() : 0; }

  /**
   * Binds the training set: the batch's geometry (synced to host first on a non-CPU backend) and the
   * references, whose arrays follow the batch layout; `backend` creates the kernel that evaluates it.
   * Throws MISSING_PAIR for a species pair without a row, INVALID_REFERENCE, the neighbor build's errors,
   * and the kernel's (OUT_OF_MEMORY, CUDA_ERROR); a failed bind keeps the previous set.
   */
  void bind(Backend& backend, const ReferenceArrays& refs);

  /**
   * Predicts every listed system (indices into the bound set, repeats allowed) at physical parameters θ
   * (numParams values, each finite and > 0). Throws NOT_BOUND, INVALID_ARGUMENT, INVALID_PARAMETER.
   */
  void forward(const double* theta, const std::int32_t* systems, std::int64_t count);

  /** The loss of the last forward; writes ∂L/∂θ (numParams values) when `gradient` is not null. */
  LossStats loss(const LossWeights& weights, double* gradient);

  /** Predictions of the last forward, in mini-batch order: energy [count], forces [3 × their atoms], stress [9 × count]. */
  const std::vector<double>& energy() const noexcept { return energy_; }
  const std::vector<double>& forces() const noexcept { return forces_; }
  const std::vector<double>& stress() const noexcept { return stress_; }

 private:
  void assignTypes(const TrainingData& data, std::vector<std::uint8_t>& types) const;
  PairLossSpec specFor(const TrainingData& data, const std::vector<std::uint8_t>& types) const;
  PairLossBatch batch() const;

  PairEvaluator evaluator_;
  const char* name_;
  int paramsPerPair_;
  std::vector<PairRow> rows_;
  bool shift_;
  double maxCutoff_ = 0.0;
  int numTypes_ = 1;
  bool wildcard_ = false;
  std::vector<int> typeOfZ_;
  std::vector<int> zOfType_;
  std::vector<int> rowOfSlot_;
  std::vector<SwitchParams> switches_;
  std::unique_ptr<TrainingData> data_;
  std::vector<std::uint8_t> types_;
  // Declared after the set it reads, so it is destroyed first.
  std::unique_ptr<PairLossKernel> kernel_;

  // The last forward: its systems, where each one's atoms start in forces_, and its predictions.
  std::vector<std::int32_t> systems_;
  std::vector<std::int64_t> offsets_;
  std::vector<double> energy_;
  std::vector<double> forces_;
  std::vector<double> virial_;
  std::vector<double> stress_;
  bool forwarded_ = false;
  // The residuals, coefficients and per-slot partial sums of loss().
  LossResiduals residuals_;
  std::vector<PairLossCoefficients> coefficients_;
  std::vector<double> slotGradients_;
};

}  // namespace hookmd
