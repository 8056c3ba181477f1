// EAM: the embedded-atom method of LAMMPS's `pair_style eam`, `eam/alloy` and `eam/fs`
// (math/EamEval.h, kernels/EamTables.h). The API layer: it owns the tables, assigns each atom the
// potential's element index, and hands both to the EAM kernel of the batch's backend.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/EamForceKernel.h"
#include "models/BackendCache.h"
#include "kernels/EamTables.h"
#include "models/Potential.h"
#include "models/SpeciesTypes.h"

namespace hookmd {

class Eam final : public Potential {
 public:
  /** Validates and splines `data` (NativeError INVALID_POTENTIAL); without `skin`, setSkin() must come first. */
  Eam(const EamFileData& data, std::optional<double> skin);

  const char* name() const noexcept override { return "EAM"; }
  double cutoff() const noexcept override { return cutoff_; }
  double skin() const noexcept override { return skin_; }
  void setSkin(double skin) override;
  /**
   * As Potential::compute; throws MISSING_SPECIES (naming the system and the element) when an atom's
   * element is not in the potential file.
   */
  void compute(Backend& backend, const ComputeRequest& request) override;
  const std::vector<double>& virial() const noexcept override { return virial_; }
  NeighborStats neighborStats() const override;

 private:
  std::shared_ptr<const EamTables> tables_;
  double cutoff_;
  double skin_ = -1.0;
  SpeciesTypes species_;
  std::vector<double> virial_;

  KernelSlot<EamForceKernel> kernel_;
  FieldStamp checkedPtr_;
};

}  // namespace hookmd
