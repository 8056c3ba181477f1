// The bin layout of one system for a neighbor build. Periodic directions keep their lattice vector; each
// non-periodic direction gets a unit vector normal to the periodic ones (its own lattice vector, possibly
// zero, plays no role). Atoms are binned in fractional coordinates of that effective cell, so orthorhombic,
// triclinic, slab and cluster geometries share one code path. A bin is at least rlist/`kBinsPerReach`
// wide across its faces, and the search reaches as many bins (and, when a periodic cell is narrower than
// the cutoff, as many lattice images) as the perpendicular widths require — ASE's rule for small cells.
#pragma once

#include <cstdint>
#include <vector>

namespace hookmd {

struct BinGrid {
  /** Rows: lattice vectors for periodic directions, unit normals for the others. */
  double basis[9];
  /** Columns map Cartesian to fractional: s = x · inverse. */
  double inverse[9];
  bool periodic[3];
  /** Non-periodic directions: smallest fractional (= Cartesian, the basis row is a unit vector) coordinate. */
  double lower[3];
  int bins[3];
  /** How many bins away, per direction, a neighbor within rlist can sit. */
  int reach[3];
  /** Largest |n_k| of a lattice translation the search can produce (0 for non-periodic directions). */
  int images[3];
  /** Width of one bin measured across its faces. */
  double binWidth[3];
  /** Fractional bin size per direction (1/bins for periodic directions, binWidth for the others). */
  double binFraction[3];
  /** Whether the basis rows are mutually orthogonal (enables stencil pruning by bin distance). */
  bool orthogonal;

  std::int64_t binCount() const { return static_cast<std::int64_t>(bins[0]) * bins[1] * bins[2]; }
  int imageCount() const { return (2 * images[0] + 1) * (2 * images[1] + 1) * (2 * images[2] + 1); }
  /** Index of the lattice translation n in the image table. */
  std::uint32_t imageIndex(int n0, int n1, int n2) const {
    return static_cast<std::uint32_t>(((n0 + images[0]) * (2 * images[1] + 1) + (n1 + images[1])) * (2 * images[2] + 1) +
                                      (n2 + images[2]));
  }
};

/**
 * Lays out the bins for `count` atoms at `positions` (3 per atom) in a system with the given cell (rows)
 * and periodicity. `singleBin` puts every atom in one bin (the O(n²) search, cheaper for small systems).
 * Throws NativeError SINGULAR_CELL when the periodic lattice vectors are degenerate, and CELL_TOO_NARROW
 * when the search would need more than about a million periodic images.
 */
BinGrid makeBinGrid(const double* cell, const std::uint8_t* pbc, const double* positions, std::int64_t count,
                    double rlist, bool singleBin);

/**
 * One row of the half stencil: the bin offsets (o₀, o₁, o₂) for o₂ from o2Low to o2High. Bins are numbered
 * with the third index fastest, so a row is one run of consecutive bins (split only where it wraps around a
 * periodic boundary): the build scans it as one contiguous range of atoms instead of bin by bin.
 */
struct StencilRow {
  int o0;
  int o1;
  int o2Low;
  int o2High;
};

/**
 * The half stencil as rows, in lexicographic order of the offsets: every offset that is lexicographically
 * positive (the zero offset, the atom's own bin, is left to the caller).
 */
std::vector<StencilRow> halfStencilRows(const BinGrid& grid, double rlist);

/** Shift vectors n·H of every image index, 3 doubles each. */
std::vector<double> imageShifts(const BinGrid& grid);

}  // namespace hookmd
