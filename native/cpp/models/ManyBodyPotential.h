// The many-body potentials read from LAMMPS files (Tersoff, Stillinger–Weber; kernels/ManyBodyForceKernel.h
// lists the styles): the API layer. It builds the style's parameter rows from the file's entries (parsed and
// checked in TypeScript, lib/models/many-body-file.ts; here only their count and finiteness are checked
// again, so native code never reads unchecked numbers), assigns each atom its element's type, and hands both
// to the many-body kernel of the batch's backend.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/ManyBodyForceKernel.h"
#include "models/BackendCache.h"
#include "models/Potential.h"
#include "models/SpeciesTypes.h"

namespace hookmd {

class ManyBodyPotential final : public Potential {
 public:
  /**
   * `name`: the model's name ("Tersoff", "StillingerWeber"); `elements`: the atomic numbers of the file's
   * elements, in the order its entries are indexed; `entries`: nt³ entries of the style's file length, (a, b, c)
   * at (a·nt + b)·nt + c, numbers in the file's column order. Throws INVALID_POTENTIAL for a wrong count or a
   * non-finite number; without `skin`, setSkin() must come first.
   */
  ManyBodyPotential(const char* name, ManyBodyStyle style, const std::vector<int>& elements, const std::vector<double>& entries,
                    std::optional<double> skin);

  const char* name() const noexcept override { return name_; }
  double cutoff() const noexcept override { return spec_.cutoff; }
  double skin() const noexcept override { return skin_; }
  void setSkin(double skin) override;
  /** As Potential::compute; throws MISSING_SPECIES (naming the system and the element) for an element the file lacks. */
  void compute(Backend& backend, const ComputeRequest& request) override;
  const std::vector<double>& virial() const noexcept override { return virial_; }
  NeighborStats neighborStats() const override { return kernel_.neighborStats(); }

  /** Numbers in one file entry of `style`. */
  static int entryLength(ManyBodyStyle style);
  /** The style of a LAMMPS pair style name ("tersoff", "tersoff/mod", "tersoff/zbl", "sw"); false when none. */
  static bool styleFromName(const std::string& name, ManyBodyStyle& out);

 private:
  const char* name_;
  ManyBodyForceSpec spec_;
  SpeciesTypes species_;
  double skin_ = -1.0;
  std::vector<double> virial_;
  KernelSlot<ManyBodyForceKernel> kernel_;
  FieldStamp checkedPtr_;
};

}  // namespace hookmd
