// Full neighbour lists within the cutoff, for the many-body kernels: each atom's neighbours (both directions
// of every pair of the half list, periodic images included) closer than the potential's largest cutoff, with
// the offset, distance and unit vector of each, in structure-of-arrays form (math/ManyBodyNeighbors.h). Built
// anew at every compute from the system's half list with its skin, as LAMMPS's many-body styles build their
// short lists from a full list.
#pragma once

#include <cstdint>
#include <vector>

#include "math/ManyBodyNeighbors.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

class ShortNeighbors {
 public:
  /**
   * Rebuilds the lists of `list`'s atoms at positions `x` (local, 3 per atom, the positions the list runs
   * on), keeping pairs with r² < cutoffSq; `types` gives each local atom's species type.
   */
  void build(const SystemNeighborList& list, const double* x, const std::uint8_t* types, double cutoffSq);

  /** Local atom i's neighbours. */
  ManyBodyNeighbors of(std::int32_t i) const {
    const std::int32_t b = start_[i];
    return ManyBodyNeighbors{start_[i + 1] - b, type_.data() + b, dx_.data() + b, dy_.data() + b, dz_.data() + b,
                             r_.data() + b,      ux_.data() + b,  uy_.data() + b, uz_.data() + b};
  }
  /** The local index of entry e's neighbour (entries of atom i are [start(i), start(i + 1))). */
  std::int32_t neighbor(std::int32_t e) const { return j_[e]; }
  std::int32_t start(std::int32_t i) const { return start_[i]; }
  /** The most neighbours any atom has. */
  int maxCount() const noexcept { return maxCount_; }

 private:
  std::vector<std::int32_t> start_;
  std::vector<std::int32_t> j_;
  std::vector<int> type_;
  std::vector<double> dx_, dy_, dz_, r_, ux_, uy_, uz_;
  int maxCount_ = 0;
};

}  // namespace hookmd
