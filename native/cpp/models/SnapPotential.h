// SNAP (LAMMPS's `pair_style snap`, and ML-IAP's linear, quadratic and `nn` models on its `sna` and `so3`
// descriptors): the API layer. The energy of each atom is β₀ + β·B (+ ½ Bᵀ α B, quadratic SNAP), or a
// network's (math/DescriptorNetwork.h), of its descriptors B: the bispectrum (math/SnapBispectrum.h) or the
// SO(3) power spectrum (math/So3PowerSpectrum.h), with an optional ZBL core (`hybrid/overlay zbl … snap`, math/ZblEval.h). The
// files are parsed and checked in TypeScript (lib/models/snap-file.ts); here the numbers are checked again
// (counts, ranges, finiteness), so native code never reads unchecked data, and the many-body kernel runs
// the descriptor's centre routine (cpu/SnapCentre.h, cpu/So3Centre.h).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "cpu/SnapCentre.h"
#include "kernels/ManyBodyForceKernel.h"
#include "models/BackendCache.h"
#include "models/Potential.h"
#include "kernels/So3Tables.h"
#include "models/SpeciesTypes.h"

namespace hookmd {

/** What a SNAP potential is made of, as the files give it. */
struct SnapDefinition {
  /** The atomic numbers of the file's elements, in its order. */
  std::vector<int> elements;
  SnapDescriptorSettings descriptor;
  /** ML-IAP's so3 descriptor in place of the bispectrum (then `descriptor` is unused); absent for SNAP's. */
  std::optional<So3DescriptorSettings> so3;
  double rcutfac = 0.0;
  bool quadratic = false;
  /** Per element, R_e and w_e. */
  std::vector<double> radius, weight;
  /**
   * Per element, its coefficients in the file's order: β₀, β (, α's upper triangle row by row); with a
   * network, s₀, s₁ and the layers' biases and weights (math/DescriptorNetwork.h).
   */
  std::vector<double> coefficients;
  /** An ML-IAP `nn` model: each layer's node count and activation (NetworkActivation); empty for β₀ + β·B (+ ½ Bᵀ α B). */
  std::vector<int> networkNodes, networkActivations;
  /** ZBL core: inner and outer cutoffs, and the two charges of each element pair (a nt + b); absent when empty. */
  double zblInner = 0.0, zblOuter = 0.0;
  std::vector<double> zblCharges;
};

class SnapPotential final : public Potential {
 public:
  /**
   * Throws INVALID_POTENTIAL naming what is wrong: a count that does not match twojmax and the flags, a
   * non-finite number, a radius, weight or cutoff out of range. Without `skin`, setSkin() must come first.
   */
  SnapPotential(const char* name, const SnapDefinition& definition, std::optional<double> skin);

  const char* name() const noexcept override { return name_; }
  double cutoff() const noexcept override { return cutoff_; }
  double skin() const noexcept override { return skin_; }
  void setSkin(double skin) override;
  /** As Potential::compute; throws MISSING_SPECIES for an element the file lacks. */
  void compute(Backend& backend, const ComputeRequest& request) override;
  const std::vector<double>& virial() const noexcept override { return virial_; }
  NeighborStats neighborStats() const override { return kernel_.neighborStats(); }

  /** Coefficients per element the file must give for `definition`'s settings (β₀ included). */
  static int coefficientsPerElement(const SnapDefinition& definition);

 private:
  const char* name_;
  std::shared_ptr<const ManyBodyCentre> centre_;
  SpeciesTypes species_;
  double cutoff_ = 0.0;
  double skin_ = -1.0;
  std::vector<double> virial_;
  KernelSlot<ManyBodyForceKernel> kernel_;
  FieldStamp checkedPtr_;
};

}  // namespace hookmd
