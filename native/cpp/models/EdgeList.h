// The directed edge list of graph models (OnnxModel, docs/models.md "Use your ML potential"): every ordered
// pair (i, j) of a system's atoms closer than the cutoff, both directions, periodic images included (an atom
// and its own image too), with the Cartesian image shift that makes r_ij = x_j − x_i + shift from the
// batch's positions as they are (not wrapped into the cell). It reads the half lists of NeighborCache, so
// the lists are rebuilt only when stale (an atom moved more than skin/2), and each call filters their pairs
// at the cutoff for the current positions. Edges come grouped by source atom in atom order, and within one
// source in the list's fixed order, so the output does not depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "models/BackendCache.h"
#include "neighbor/NeighborCache.h"

namespace hookmd {

class EdgeList {
 public:
  /** Throws INVALID_CUTOFF or INVALID_SKIN for a cutoff that is not finite and > 0, or a skin not finite and ≥ 0. */
  EdgeList(double cutoff, double skin);

  double cutoff() const noexcept { return cutoff_; }
  double skin() const noexcept { return skin_; }

  /**
   * Brings every system's neighbor list up to date for the backend's host positions, cell and pbc, and
   * counts the edges; returns E. Throws INVALID_BATCH for a bad layout, and the neighbor build's errors
   * (INVALID_POSITIONS, SINGULAR_CELL, SYSTEM_TOO_LARGE).
   */
  std::int64_t update(Backend& backend);

  /**
   * Writes the E edges counted by the last update(): sources[E] and targets[E] (batch atom indices) and
   * shifts[3E] (length units). The backend must be the one update() ran on, unchanged since.
   */
  template <class Real>
  void write(std::int64_t* sources, std::int64_t* targets, Real* shifts) const;

  NeighborStats neighborStats() const { return cache_.stats(); }

 private:
  /** Edges of system s by source atom into degree_ (its slice), from its list and wrapped_. */
  void countSystem(std::int64_t s);

  double cutoff_;
  double skin_;
  NeighborCache cache_;
  FieldStamp checkedPtr_;
  /** Per thread, the neighbor build's scratch. */
  std::vector<NeighborScratch> scratch_;
  /** Positions the lists run on (wrapped into the cell where a list needs that), 3 per atom. */
  std::vector<double> wrapped_;
  /** Edges per source atom, then (after update) the offset of each atom's first edge; N + 1 entries. */
  std::vector<std::int64_t> offsets_;
  std::int64_t numSystems_ = 0;
};

}  // namespace hookmd
