// The spline tables of one EAM potential, built from a parsed LAMMPS potential file the way LAMMPS's
// PairEAM::file2array and PairEAM::array2spline build them (funcfl values re-gridded with the same
// four-point Lagrange interpolation, then every table splined by PairEAM::interpolate), so the numbers the
// kernel reads are LAMMPS's numbers. The file itself is parsed and checked in TypeScript
// (lib/models/eam-file.ts); this layer checks the sizes and values it receives.
#pragma once

#include <vector>

#include "math/EamEval.h"

namespace hookmd {

enum class EamFormat : int { Funcfl = 0, Setfl, FinnisSinclair };

/** The tabulated functions of a potential file, exactly as the file lists them. */
struct EamFileData {
  EamFormat format = EamFormat::Setfl;
  /** Atomic number of each element, in file order (funcfl: one). */
  std::vector<int> elements;
  int nrho = 0;
  double drho = 0.0;
  int nr = 0;
  double dr = 0.0;
  /** Cutoff (length units). */
  double cutoff = 0.0;
  /** F(ρ) of each element: elements × nrho. */
  std::vector<double> frho;
  /**
   * ρ(r): funcfl and setfl, elements × nr (the density an atom of that element puts on its neighbors);
   * Finnis–Sinclair, elements² × nr, block a's function b at (a·elements + b)·nr.
   */
  std::vector<double> rhor;
  /**
   * funcfl: Z(r), the effective charge (1 × nr), with r·φ = 27.2·0.529·Z_i·Z_j as LAMMPS converts it;
   * setfl and fs: r·φ(r) of each pair (i ≥ j, row by row: 0-0, 1-0, 1-1, 2-0, ...), n(n+1)/2 × nr.
   */
  std::vector<double> z2r;
};

class EamTables {
 public:
  /** Validates `data` (NativeError INVALID_POTENTIAL naming the field) and builds the splines. */
  explicit EamTables(const EamFileData& data);

  const EamGrid& grid() const { return grid_; }
  int numElements() const { return static_cast<int>(elements_.size()); }
  const std::vector<int>& elements() const { return elements_; }

  /** Spline tables, each (n + 1) × kEamSplineStride with row 0 unused (LAMMPS's 1-based layout). */
  const std::vector<double>& frhoSplines() const { return frho_; }
  const std::vector<double>& rhorSplines() const { return rhor_; }
  const std::vector<double>& z2rSplines() const { return z2r_; }
  /** For element types a, b: the rhor table of the density b puts on a, the z2r table of the pair. */
  int rhorTableOf(int a, int b) const { return rhorIndex_[a * numElements() + b]; }
  int z2rTableOf(int a, int b) const { return z2rIndex_[a * numElements() + b]; }

 private:
  EamGrid grid_{};
  std::vector<int> elements_;
  std::vector<double> frho_;
  std::vector<double> rhor_;
  std::vector<double> z2r_;
  std::vector<int> rhorIndex_;
  std::vector<int> z2rIndex_;
};

}  // namespace hookmd
