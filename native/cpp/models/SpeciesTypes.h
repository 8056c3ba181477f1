// Species by element, for the potentials whose files name their elements (EAM, Tersoff, Stillinger–Weber):
// each atom's index in the file's element list, recomputed only when the atomic numbers or the layout
// changed, and MISSING_SPECIES naming the atom, its system and the elements the file covers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"
#include "models/BackendCache.h"

namespace hookmd {

class SpeciesTypes {
 public:
  /**
   * `elements`: the atomic numbers of the file's elements, in its order (at most 255); `model` starts every
   * message. Throws INVALID_POTENTIAL for an element listed twice or outside 1..118.
   */
  SpeciesTypes(const std::string& model, const std::vector<int>& elements);

  /** Each atom's type for the backend's current atoms; throws MISSING_SPECIES for an element not in the file. */
  AtomTypes assign(Backend& backend);
  int numTypes() const noexcept { return static_cast<int>(elements_.size()); }

 private:
  std::string model_;
  std::vector<int> elements_;
  /** Element index of each atomic number (−1: not in the file). */
  std::vector<int> typeOfZ_;
  std::vector<std::uint8_t> types_;
  FieldStamp typedAtoms_;
  FieldStamp typedPtr_;
  std::uint64_t version_ = 0;
};

}  // namespace hookmd
