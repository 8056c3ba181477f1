// The force-matching loss of a pair potential and its analytic gradient with respect to the potential's
// parameters (LJ ε, σ; Morse D, α, r₀ per species pair), over mini-batches of a bound training set.
//
// forward(θ, systems) predicts energy, forces and stress of each listed system; loss(weights, gradient)
// compares them with the references (LossTypes.h has the formula) and, on request, back-propagates:
//   ∂L/∂θ = Σ_pairs  a_E·∂e/∂θ  +  [a_F·(ΔF_j − ΔF_i)·d + a_S·dᵀΔσ d]·∂g/∂θ
// with e the pair energy, g = −(de/dr)/r (force on j = g·d, d = r_j − r_i), and a_E, a_F, a_S the
// derivatives of the loss terms with respect to each system's energy, forces and stress (σ = −W/V).
//
// Threading: systems run in parallel, each one serially along its neighbor list, into its own slot of
// every output; slots are then summed in mini-batch order. Results therefore do not depend on the
// number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "math/SmoothSwitch.h"
#include "training/LossTypes.h"
#include "training/TrainingData.h"

namespace hookmd {

/** One parameter row's species and cutoff; z1 = z2 = 0 is the single row used for every pair. */
struct PairRow {
  int z1 = 0;
  int z2 = 0;
  double cutoff = 0.0;
};

class PairLoss {
 public:
  virtual ~PairLoss() = default;

  /** "LennardJones" or "Morse"; starts every error message. */
  const char* name() const noexcept { return name_; }
  int paramsPerPair() const noexcept { return paramsPerPair_; }
  /** rows × paramsPerPair: the length of θ and of the gradient, row by row. */
  std::size_t numParams() const noexcept { return rows_.size() * static_cast<std::size_t>(paramsPerPair_); }
  /** Systems of the bound training set (0 before bind). */
  std::int64_t numSystems() const noexcept { return data_ ? data_->numSystems() : 0; }

  /**
   * Binds the training set: the batch's geometry (synced to host first on a non-CPU backend) and the
   * references, whose arrays follow the batch layout. Throws MISSING_PAIR for a species pair without a
   * row, INVALID_REFERENCE, and the neighbor build's errors; a failed bind keeps the previous set.
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

 protected:
  /** What backwardSystem needs of one system's residuals. */
  struct Coefficients {
    double energy = 0.0;                 // a_E = ∂L/∂E_s
    double forces = 0.0;                 // a_F, times ΔF
    double stress = 0.0;                 // a_S, times dᵀΔσ d
    const double* deltaForces = nullptr; // ΔF of the system's atoms (3 per atom)
    const double* deltaStress = nullptr; // Δσ (9)
  };

  /** Validates the rows (owner `name`, `paramsPerPair` values per row) and lays out the species tables. */
  PairLoss(const char* name, int paramsPerPair, const std::vector<PairRow>& rows, bool shift, double switchOn);

  const std::vector<PairRow>& rows() const { return rows_; }
  bool shifted() const { return shift_; }
  int numTypes() const { return numTypes_; }
  /** Row of each table slot a·numTypes + b. */
  const std::vector<int>& rowOfSlot() const { return rowOfSlot_; }
  /** Switch of each table slot; empty when there is no switch. */
  const std::vector<SwitchParams>& switches() const { return switches_; }
  /** Species type of each atom of the bound set (global numbering). */
  const std::uint8_t* types() const { return types_.data(); }
  const TrainingData& data() const { return *data_; }

  /** Installs θ (validated): the evaluator table and whatever the backward pass needs. */
  virtual void setParameters(const double* theta) = 0;
  /** Energy, forces (3 per atom, zeroed first) and virial (xx, yy, zz, xy, xz, yz) of system s. */
  virtual void forwardSystem(std::int64_t s, double& energy, double* forces, double* virial6) const = 0;
  /** Adds system s's part of ∂L/∂θ to `gradient` (numParams values). */
  virtual void backwardSystem(std::int64_t s, const Coefficients& c, double* gradient) const = 0;

 private:
  void assignTypes(const TrainingData& data, std::vector<std::uint8_t>& types) const;
  LossStats residuals(const LossWeights& weights);

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

  // The last forward: its systems, where each one's atoms start in forces_, and its predictions.
  std::vector<std::int32_t> systems_;
  std::vector<std::int64_t> offsets_;
  std::vector<double> energy_;
  std::vector<double> forces_;
  std::vector<double> stress_;
  bool forwarded_ = false;
  // Per-slot residuals and partial sums of loss().
  std::vector<double> deltaForces_;
  std::vector<double> deltaStress_;
  std::vector<double> energyResidual_;
  std::vector<LossStats> slotStats_;
  std::vector<double> slotGradients_;
};

}  // namespace hookmd
