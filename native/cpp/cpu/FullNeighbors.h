// Full neighbour lists for the many-body kernels: both directions of every pair of a system's half list
// (periodic images included), grouped by centre atom, rebuilt only when the half list is. At each compute a
// centre's neighbours within the potential's cutoff are gathered from it into the structure-of-arrays form
// the centre routines read (math/ManyBodyNeighbors.h), so no per-step list is stored: one pass over the
// pairs, as LAMMPS's many-body styles make their short lists from a full list.
#pragma once

#include <cstdint>
#include <vector>

#include "math/ManyBodyNeighbors.h"
#include "neighbor/NeighborList.h"

namespace hookmd {

/** One centre's gathered neighbours: their geometry, types and local indices; grown to the most neighbours seen. */
struct CentreNeighbors {
  std::vector<double> dx, dy, dz, r, ux, uy, uz;
  std::vector<int> type;
  std::vector<std::int32_t> atom;

  void reserve(std::size_t count);
  ManyBodyNeighbors view(int count) const {
    return ManyBodyNeighbors{count, type.data(), dx.data(), dy.data(), dz.data(), r.data(), ux.data(), uy.data(), uz.data()};
  }
};

class FullNeighbors {
 public:
  /** Brings the full list up to date with `list` (a rebuild only when the list was rebuilt) and its current shifts. */
  void update(const SystemNeighborList& list);

  /** The most neighbours (within the list's radius) any centre has. */
  std::int32_t maxCount() const noexcept { return maxCount_; }

  /**
   * Centre i's neighbours closer than √cutoffSq at positions `x` (local, 3 per atom, the positions the list
   * runs on) into `out`, which holds at least maxCount() entries; returns their count.
   */
  int gather(std::int32_t i, const double* x, const std::uint8_t* types, double cutoffSq, CentreNeighbors& out) const {
    const double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    int n = 0;
    const std::int32_t end = start_[i + 1];
    for (std::int32_t e = start_[i]; e < end; ++e) {
      const std::int32_t j = atom_[e];
      const double* shift = shifts_.data() + 3 * image_[e];
      const double ddx = x[3 * j] + shift[0] - xi;
      const double ddy = x[3 * j + 1] + shift[1] - yi;
      const double ddz = x[3 * j + 2] + shift[2] - zi;
      const double r2 = ddx * ddx + ddy * ddy + ddz * ddz;
      if (!(r2 < cutoffSq)) continue;
      const double r = __builtin_sqrt(r2);
      const double inv = 1.0 / r;
      out.dx[n] = ddx;
      out.dy[n] = ddy;
      out.dz[n] = ddz;
      out.r[n] = r;
      out.ux[n] = ddx * inv;
      out.uy[n] = ddy * inv;
      out.uz[n] = ddz * inv;
      out.type[n] = types[j];
      out.atom[n] = j;
      ++n;
    }
    return n;
  }

 private:
  std::uint64_t generation_ = 0;
  std::vector<std::int32_t> start_;
  std::vector<std::int32_t> atom_;
  /** Index into shifts_: image k of the half list for +shift k, images + k for −shift k. */
  std::vector<std::int32_t> image_;
  std::vector<double> shifts_;
  std::int32_t maxCount_ = 0;
};

}  // namespace hookmd
