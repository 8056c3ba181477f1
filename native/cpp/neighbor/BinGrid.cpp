#include "neighbor/BinGrid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/Error.h"
#include "math/PairGeometry.h"

namespace hookmd {

namespace {
// Bins half the list radius wide, searched two bins out: the candidate volume is (5·rlist/2)³ instead of
// (3·rlist)³ with rlist-wide bins, as in LAMMPS's default binsize = cutneigh/2.
constexpr double kBinsPerReach = 2.0;
// Sparse clusters would otherwise get a bin per rlist/2 of empty space; beyond this many bins per atom
// the bins grow instead (correctness only needs reach to follow the actual bin width).
constexpr std::int64_t kMaxBinsPerAtom = 2;
constexpr std::int64_t kMinBinCap = 64;
constexpr int kMaxImages = 1 << 20;

void normalize(double* v) {
  const double length = std::sqrt(dot3(v, v));
  for (int c = 0; c < 3; ++c) v[c] /= length;
}

/** Unit vectors completing the periodic rows of `basis` to a basis, each normal to all other rows. */
void completeBasis(double* basis, const bool* periodic) {
  int periodicRows[3];
  int count = 0;
  for (int k = 0; k < 3; ++k) {
    if (periodic[k]) periodicRows[count++] = k;
  }
  double* row[3] = {basis, basis + 3, basis + 6};
  if (count == 3) return;
  if (count == 0) {
    std::fill(basis, basis + 9, 0.0);
    basis[0] = basis[4] = basis[8] = 1.0;
    return;
  }
  if (count == 2) {
    int free = 0;
    while (periodic[free]) ++free;
    cross3(row[periodicRows[0]], row[periodicRows[1]], row[free]);
    if (dot3(row[free], row[free]) == 0.0) fail("SINGULAR_CELL", "neighbor list: the periodic lattice vectors are parallel");
    normalize(row[free]);
    return;
  }
  // One periodic direction: two orthonormal vectors normal to it, seeded by the axis least aligned with it.
  const double* a = row[periodicRows[0]];
  if (dot3(a, a) == 0.0) fail("SINGULAR_CELL", "neighbor list: a periodic lattice vector is zero");
  double axis[3] = {0.0, 0.0, 0.0};
  int least = 0;
  for (int c = 1; c < 3; ++c) {
    if (std::fabs(a[c]) < std::fabs(a[least])) least = c;
  }
  axis[least] = 1.0;
  int others[2];
  int found = 0;
  for (int k = 0; k < 3; ++k) {
    if (!periodic[k]) others[found++] = k;
  }
  cross3(a, axis, row[others[0]]);
  normalize(row[others[0]]);
  cross3(a, row[others[0]], row[others[1]]);
  normalize(row[others[1]]);
}

void invert(const double* m, double det, double* out) {
  out[0] = (m[4] * m[8] - m[5] * m[7]) / det;
  out[1] = (m[2] * m[7] - m[1] * m[8]) / det;
  out[2] = (m[1] * m[5] - m[2] * m[4]) / det;
  out[3] = (m[5] * m[6] - m[3] * m[8]) / det;
  out[4] = (m[0] * m[8] - m[2] * m[6]) / det;
  out[5] = (m[2] * m[3] - m[0] * m[5]) / det;
  out[6] = (m[3] * m[7] - m[4] * m[6]) / det;
  out[7] = (m[1] * m[6] - m[0] * m[7]) / det;
  out[8] = (m[0] * m[4] - m[1] * m[3]) / det;
}

/**
 * Smallest number of bins of width `width` that covers `distance` (a hair of rounding slack), as a double:
 * a huge cutoff or a sliver of a cell makes it exceed any int, so callers bound it before narrowing.
 */
double binsToReach(double distance, double width) { return std::ceil(distance / width - 1e-9); }

/** Bins across `extent` at kBinsPerReach per rlist, 1 to 1e6; clamped in double so the cast is defined. */
int binsAcross(double extent, double rlist) {
  const double bins = extent * kBinsPerReach / rlist;
  return bins >= 1.0 ? static_cast<int>(std::min(bins, 1e6)) : 1;
}

/** A count for a message: digits while a long long holds it exactly, else "1.2e+30" or "inf". */
std::string formatCount(double count) {
  if (count < 1e15) return std::to_string(static_cast<long long>(count));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", count);
  return text;
}
}  // namespace

BinGrid makeBinGrid(const double* cell, const std::uint8_t* pbc, const double* positions, std::int64_t count,
                    double rlist, bool singleBin) {
  BinGrid grid;
  std::copy(cell, cell + 9, grid.basis);
  for (int k = 0; k < 3; ++k) grid.periodic[k] = pbc[k] != 0;
  completeBasis(grid.basis, grid.periodic);
  const double det = det3(grid.basis);
  double scale = 0.0;
  for (int i = 0; i < 9; ++i) scale = std::max(scale, std::fabs(grid.basis[i]));
  if (!(std::fabs(det) > 1e-12 * scale * scale * scale) || !std::isfinite(det)) {
    fail("SINGULAR_CELL", "neighbor list: the cell of a periodic system has zero volume");
  }
  invert(grid.basis, det, grid.inverse);

  const double* row[3] = {grid.basis, grid.basis + 3, grid.basis + 6};
  grid.orthogonal = std::fabs(dot3(row[0], row[1])) + std::fabs(dot3(row[0], row[2])) + std::fabs(dot3(row[1], row[2])) <=
                    1e-12 * (dot3(row[0], row[0]) + dot3(row[1], row[1]) + dot3(row[2], row[2]));

  double extent[3];
  for (int k = 0; k < 3; ++k) {
    if (grid.periodic[k]) {
      double normal[3];
      cross3(row[(k + 1) % 3], row[(k + 2) % 3], normal);
      extent[k] = std::fabs(det) / std::sqrt(dot3(normal, normal));
      grid.lower[k] = 0.0;
      continue;
    }
    double lo = 0.0;
    double hi = 0.0;
    for (std::int64_t i = 0; i < count; ++i) {
      const double s = dot3(positions + 3 * i, row[k]);
      lo = i == 0 ? s : std::min(lo, s);
      hi = i == 0 ? s : std::max(hi, s);
    }
    grid.lower[k] = lo;
    extent[k] = hi - lo;
    // Finite coordinates can still span more than a double holds; binning would then divide inf by inf.
    if (!std::isfinite(extent[k])) {
      fail("INVALID_POSITIONS", "neighbor list: the atoms span more than 1.8e308 along a non-periodic direction");
    }
  }

  for (int k = 0; k < 3; ++k) grid.bins[k] = singleBin ? 1 : binsAcross(extent[k], rlist);
  const std::int64_t cap = std::max(kMinBinCap, kMaxBinsPerAtom * count);
  while (grid.binCount() > cap) {
    const double shrink = std::cbrt(static_cast<double>(grid.binCount()) / static_cast<double>(cap));
    for (int k = 0; k < 3; ++k) grid.bins[k] = std::max(1, static_cast<int>(grid.bins[k] / std::max(shrink, 1.01)));
  }

  // Reach and images stay doubles until the image total is known to be within kMaxImages: that bounds
  // every periodic reach (at most images × bins, and bins > 1 only when a bin is rlist/2 wide or more).
  double reach[3];
  double images[3];
  for (int k = 0; k < 3; ++k) {
    if (grid.periodic[k]) {
      grid.binWidth[k] = extent[k] / grid.bins[k];
      grid.binFraction[k] = 1.0 / grid.bins[k];
      reach[k] = binsToReach(rlist, grid.binWidth[k]);
      images[k] = std::ceil(reach[k] / grid.bins[k]);
    } else {
      grid.binWidth[k] = grid.bins[k] > 1 ? extent[k] / grid.bins[k] : std::max(extent[k], rlist);
      grid.binFraction[k] = grid.binWidth[k];
      reach[k] = grid.bins[k] > 1 ? std::min(binsToReach(rlist, grid.binWidth[k]), grid.bins[k] - 1.0) : 0.0;
      images[k] = 0.0;
    }
  }
  const double imageTotal = (2 * images[0] + 1) * (2 * images[1] + 1) * (2 * images[2] + 1);
  // Written so that NaN (an infinite cutoff over a zero width) also fails.
  if (!(imageTotal <= kMaxImages)) {
    fail("CELL_TOO_NARROW", "neighbor list: the cell is so narrow compared with the cutoff that the search needs " +
                                formatCount(imageTotal) + " periodic images (limit " + std::to_string(kMaxImages) + ")");
  }
  for (int k = 0; k < 3; ++k) {
    grid.reach[k] = static_cast<int>(std::max(reach[k], 0.0));
    grid.images[k] = static_cast<int>(images[k]);
  }
  return grid;
}

std::vector<StencilRow> halfStencilRows(const BinGrid& grid, double rlist) {
  std::vector<StencilRow> rows;
  const int* m = grid.reach;
  for (int o0 = 0; o0 <= m[0]; ++o0) {
    for (int o1 = o0 == 0 ? 0 : -m[1]; o1 <= m[1]; ++o1) {
      int reach2 = m[2];
      if (grid.orthogonal) {
        // Closest approach of two bins o apart, valid only when the bin faces are mutually orthogonal; it
        // grows with |o₂|, so the offsets kept in a row stay one range, −reach2..reach2.
        const double g0 = std::max(o0 - 1, 0) * grid.binWidth[0];
        const double g1 = std::max(std::abs(o1) - 1, 0) * grid.binWidth[1];
        const double across = g0 * g0 + g1 * g1;
        while (reach2 >= 0) {
          const double g2 = std::max(reach2 - 1, 0) * grid.binWidth[2];
          if (across + g2 * g2 < rlist * rlist) break;
          --reach2;
        }
      }
      const int low = (o0 == 0 && o1 == 0) ? 1 : -reach2;
      if (low <= reach2) rows.push_back(StencilRow{o0, o1, low, reach2});
    }
  }
  return rows;
}

std::vector<double> imageShifts(const BinGrid& grid) {
  std::vector<double> shifts(3 * static_cast<std::size_t>(grid.imageCount()));
  const int* m = grid.images;
  for (int n0 = -m[0]; n0 <= m[0]; ++n0) {
    for (int n1 = -m[1]; n1 <= m[1]; ++n1) {
      for (int n2 = -m[2]; n2 <= m[2]; ++n2) {
        latticeTranslation(grid.basis, n0, n1, n2, &shifts[3 * grid.imageIndex(n0, n1, n2)]);
      }
    }
  }
  return shifts;
}

}  // namespace hookmd
