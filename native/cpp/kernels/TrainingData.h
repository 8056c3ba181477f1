// The reference configurations of a fit, held in the form the loss walks every epoch. Positions never
// change during training, so each system's neighbor list is built once, at bind time, with no skin
// (rlist = the largest cutoff), and the positions are stored already wrapped into the list's frame.
#pragma once

#include <cstdint>
#include <vector>

#include "core/BatchStorage.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

/** Reference values per system (energy B, forces 3N, stress 9B) and which of them each system has. */
struct ReferenceArrays {
  const double* energy = nullptr;
  const double* forces = nullptr;
  const double* stress = nullptr;
  /** B×3 flags: has energy, has forces, has stress. */
  const std::uint8_t* present = nullptr;
};

struct TrainingSystem {
  std::int32_t atomBegin = 0;
  std::int32_t atomCount = 0;
  /** |det(cell)|, or 0 for a system without a cell volume (its stress is 0, as the potentials report it). */
  double volume = 0.0;
  bool hasEnergy = false;
  bool hasForces = false;
  bool hasStress = false;
  double refEnergy = 0.0;
  double refStress[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  SystemNeighborList list;
};

class TrainingData {
 public:
  /**
   * Copies what the loss needs from host storage and builds every neighbor list (systems in parallel).
   * `owner` starts error messages. Throws NativeError INVALID_REFERENCE for a non-finite reference or a
   * reference stress on a system without a cell volume, and the neighbor build's errors.
   */
  TrainingData(const BatchStorage& storage, const ReferenceArrays& refs, double cutoff, const char* owner);

  /** Throws INVALID_BATCH (owner first) unless the batch's ptr offsets partition its atoms. */
  static void requirePartition(const BatchStorage& storage, const char* owner);

  std::int64_t numSystems() const { return static_cast<std::int64_t>(systems_.size()); }
  std::int64_t numAtoms() const { return static_cast<std::int64_t>(atomicNumbers_.size()); }
  const TrainingSystem& system(std::int64_t s) const { return systems_[s]; }
  /** Wrapped positions of system s, 3 per atom, in its local numbering. */
  const double* positions(std::int64_t s) const { return positions_.data() + 3 * static_cast<std::int64_t>(systems_[s].atomBegin); }
  const double* refForces(std::int64_t s) const { return refForces_.data() + 3 * static_cast<std::int64_t>(systems_[s].atomBegin); }
  const std::vector<std::int32_t>& atomicNumbers() const { return atomicNumbers_; }

 private:
  std::vector<TrainingSystem> systems_;
  std::vector<double> positions_;
  std::vector<double> refForces_;
  std::vector<std::int32_t> atomicNumbers_;
};

}  // namespace hookmd
