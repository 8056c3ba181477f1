// The pair-loss kernel (docs/training.md): the per-system forward pass (energy, forces, virial) and backward
// pass (∂L/∂θ) of one pair term over the static neighbor lists of a bound training set. PairLoss, the API
// layer, validates θ, the system lists and the weights, computes the residuals and adds the per-system
// gradient slots in mini-batch order; a backend creates the kernel that walks the pairs at bind()
// (platform/KernelFactory.h). The CPU reference is cpu/CpuPairLossKernel; the CUDA backend brings
// its own (cuda/training/CudaPairLoss.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/PairForceKernel.h"
#include "math/SmoothSwitch.h"
#include "kernels/TrainingData.h"

namespace hookmd {

/** Everything a pair-loss kernel needs, already validated by PairLoss. */
struct PairLossSpec {
  PairEvaluator evaluator;
  /** "LennardJones" or "Morse": first in every message. */
  const char* model;
  int paramsPerPair;
  /** Cutoff of each parameter row (length units); θ holds paramsPerPair values per row, row by row. */
  std::vector<double> rowCutoffs;
  bool shift;
  /** Species types; 1 when one row serves every pair. */
  int numTypes;
  /** Row of each table slot a·numTypes + b (symmetric), −1 for a pair no row covers. */
  std::vector<int> rowOfSlot;
  /** Switch of each table slot; empty when there is no switch. */
  std::vector<SwitchParams> switches;
  /**
   * The bound set and the species type of each of its atoms (the set's numbering). PairLoss owns both and
   * replaces them only together with the kernel, so they outlive it.
   */
  const TrainingData* data;
  const std::uint8_t* types;
};

/** The systems of one forward pass, in mini-batch order. */
struct PairLossBatch {
  /** `count` indices into the bound set; repeats allowed. */
  const std::int32_t* systems;
  /** count + 1 offsets: listed system k's forces (3 per atom) start at forces + offsets[k]. */
  const std::int64_t* offsets;
  std::int64_t count;
};

/** a_E, a_F and a_S of one listed system (training/PairLoss.h); 0 where it has no such reference. */
struct PairLossCoefficients {
  double energy = 0.0;
  double forces = 0.0;
  double stress = 0.0;
};

class PairLossKernel {
 public:
  virtual ~PairLossKernel() = default;

  /** Installs θ (numParams finite values > 0, validated) for the forward and backward passes that follow. */
  virtual void setParameters(const double* theta) = 0;

  /**
   * Writes energy[count], forces[offsets[count]] and virial[6·count] (xx, yy, zz, xy, xz, yz of W = Σ d⊗F)
   * of every listed system: what the model computes for it.
   */
  virtual void forward(const PairLossBatch& batch, double* energy, double* forces, double* virial) = 0;

  /**
   * For the batch of the last forward: adds listed system k's part of ∂L/∂θ (numParams values) to
   * slots + k·stride, which the caller zeroed. A system whose three coefficients are 0 adds nothing.
   * `deltaForces` holds ΔF in the forward's force layout, `deltaStress` Δσ, 9 per listed system.
   */
  virtual void backward(const PairLossBatch& batch, const PairLossCoefficients* coefficients, const double* deltaForces,
                        const double* deltaStress, double* slots, std::size_t stride) = 0;
};

}  // namespace hookmd
