// The force-matching loss of an ML-IAP network on SNAP descriptors (LAMMPS's `nn` model,
// math/DescriptorNetwork.h) and its exact gradient with respect to the network's weights, over mini-batches
// of a bound training set. The descriptors and their derivatives are computed once, at bind
// (training/SnapDescriptorSet.h); a forward pass is then, per atom j of element e,
//   E_j = NN_e(B_j),  β_j = ∂NN_e/∂B at B_j,  F_i = −Σ_j β_j · dB_j/dr_i,  W = −Σ_j β_j · V_j,  σ = −W/V,
// and the backward pass takes, per atom, a = ∂L/∂E_s of its system and u_j = ∂L/∂β_j,
//   u_j = −Σ_i dB_j/dr_i · ∂L/∂F_i + Σ_ab (∂L/∂σ_ab) V_j,ab / V,
// into the network's parameter gradient (math/DescriptorNetworkGradient.h). Each system's gradient goes into
// its own slot and the slots are summed in mini-batch order, so results do not depend on the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/Backend.h"
#include "math/DescriptorNetwork.h"
#include "training/LossResiduals.h"
#include "training/SnapDescriptorSet.h"

namespace hookmd {

/** A network on SNAP descriptors, as the descriptor file and the NET line give it. */
struct NetworkLossDefinition {
  /** Atomic numbers of the descriptor's elements, in its order. */
  std::vector<int> elements;
  SnapDescriptorSettings descriptor;
  double rcutfac = 0.0;
  std::vector<double> radius, weight;
  /** Each layer's node count and activation (NetworkActivation); the last layer has one node. */
  std::vector<int> nodes, activations;
};

class NetworkLoss {
 public:
  /** Throws INVALID_POTENTIAL naming what is out of range (as models/SnapPotential checks a descriptor). */
  explicit NetworkLoss(const NetworkLossDefinition& definition);

  int numDescriptors() const noexcept { return n_; }
  /** Weights and biases of one element's layers (LAMMPS's order: per layer, per node, its bias then its weights). */
  std::size_t paramsPerElement() const noexcept { return perElement_; }
  /** paramsPerElement × elements: the length of θ and of the gradient. */
  std::size_t numParams() const noexcept { return perElement_ * elements_.size(); }
  std::size_t layerCount() const noexcept { return nodes_.size(); }
  std::int64_t numSystems() const noexcept { return data_ ? data_->numSystems() : 0; }
  std::int64_t numAtoms() const noexcept { return data_ ? data_->numAtoms() : 0; }
  const SnapDescriptorSet* descriptors() const noexcept { return descriptors_.get(); }
  /** Each atom's element index (after bind). */
  const std::vector<std::uint8_t>& types() const noexcept { return types_; }

  /**
   * Binds the training set and computes its descriptors. Throws MISSING_SPECIES for an atom whose element
   * the descriptor lacks, INVALID_REFERENCE, and the neighbor build's errors; a failed bind keeps the previous set.
   */
  void bind(Backend& backend, const ReferenceArrays& refs);

  /** Per element, the scale rows s₀ then s₁ (n each; every s₁ finite and ≠ 0). Throws INVALID_ARGUMENT. */
  void setScales(const double* scales);

  /** Predicts the listed systems at weights θ (numParams finite values). Throws NOT_BOUND, INVALID_ARGUMENT, INVALID_PARAMETER. */
  void forward(const double* theta, const std::int32_t* systems, std::int64_t count);

  /** The loss of the last forward; writes ∂L/∂θ (numParams values) when `gradient` is not null. */
  LossStats loss(const LossWeights& weights, double* gradient);

  const std::vector<double>& energy() const noexcept { return energy_; }
  const std::vector<double>& forces() const noexcept { return forces_; }
  const std::vector<double>& stress() const noexcept { return stress_; }
  /** Layer l's node values of every atom of the last forward (atoms × nodes of l, in mini-batch order). */
  std::vector<double> activations(int layer) const;

 private:
  std::vector<int> elements_;
  SnapDescriptorSpec spec_;
  int n_ = 0;
  std::vector<int> nodes_, activations_;
  DescriptorNetworkShape shape_{};
  std::size_t perElement_ = 0;
  /** Per element: s₀, s₁, then the layers (descriptorNetwork's p). */
  std::vector<double> blocks_;
  bool scaled_ = false;

  std::unique_ptr<TrainingData> data_;
  std::unique_ptr<SnapDescriptorSet> descriptors_;
  std::vector<std::uint8_t> types_;

  // The last forward: its systems, where each one's forces start, the predictions, and per atom β and the
  // nodes' values and slopes (atoms in mini-batch order, from atomOffsets_).
  std::vector<std::int32_t> systems_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int64_t> atomOffsets_;
  std::vector<double> energy_, forces_, stress_, virial_;
  std::vector<double> beta_, values_, slopes_;
  bool forwarded_ = false;
  LossResiduals residuals_;
  std::vector<double> slotGradients_;
};

}  // namespace hookmd
