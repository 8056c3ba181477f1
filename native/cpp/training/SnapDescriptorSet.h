// The SNAP descriptors of a bound training set and their derivatives, computed once (positions never move
// during a fit, and descriptors do not depend on the weights of a model on them): per atom j its bispectrum
// B_j (math/SnapBispectrum.h), the derivatives dB_j/dr_i with respect to the position of every atom i it
// depends on (its neighbours within their pair cutoffs, periodic images of one atom summed, and j itself),
// and the virial derivatives Σ_m d_m ⊗ ∂B_j/∂d_m over its neighbour offsets d_m, so that for any energy
// model E = Σ_j E_j(B_j) with gradients β_j = ∂E_j/∂B_j
//   F_i = −Σ_j β_j · dB_j/dr_i,   W = −Σ_j β_j · V_j   (W as the many-body kernels sum it, σ = −W/V).
// Each component's derivatives come from the reverse pass of the force routine (snapNeighbourGradient)
// against the adjoint of that component alone (snapYOfComponent).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/SnapTables.h"
#include "kernels/TrainingData.h"

namespace hookmd {

/** The descriptor: its tables, each element's radius and weight, and rcutfac (checked by the caller). */
struct SnapDescriptorSpec {
  std::shared_ptr<const SnapTables> tables;
  std::vector<double> radius, weight;
  double rcutfac = 0.0;
};

class SnapDescriptorSet {
 public:
  /** Computes the descriptors of every atom of `data` (systems in parallel); `types` holds each atom's element index. */
  SnapDescriptorSet(const TrainingData& data, const std::vector<std::uint8_t>& types, const SnapDescriptorSpec& spec);

  /** Components of B per atom. */
  int numDescriptors() const noexcept { return n_; }
  /** B of atom `atom` (an index into the whole set). */
  const double* descriptors(std::int64_t atom) const { return b_.data() + static_cast<std::size_t>(atom) * n_; }
  /** Atom j's derivative entries are [entryBegin(j), entryBegin(j + 1)); the first is j's own. */
  std::int64_t entryBegin(std::int64_t atom) const { return entryBegin_[static_cast<std::size_t>(atom)]; }
  /** The atom (an index into the whole set) of entry e. */
  std::int32_t entryAtom(std::int64_t e) const { return entryAtom_[static_cast<std::size_t>(e)]; }
  /** dB/dr of entry e: n × 3, component by component. */
  const double* entryDerivatives(std::int64_t e) const { return d_.data() + static_cast<std::size_t>(e) * 3 * n_; }
  /** V of atom j: n × 6 (xx, yy, zz, xy, xz, yz), component by component. */
  const double* virialDerivatives(std::int64_t atom) const { return v_.data() + static_cast<std::size_t>(atom) * 6 * n_; }
  std::int64_t numEntries() const noexcept { return static_cast<std::int64_t>(entryAtom_.size()); }

 private:
  int n_ = 0;
  std::vector<double> b_;
  std::vector<std::int64_t> entryBegin_;
  std::vector<std::int32_t> entryAtom_;
  std::vector<double> d_;
  std::vector<double> v_;
};

}  // namespace hookmd
