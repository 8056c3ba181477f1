// The index tables of the SNAP bispectrum (math/SnapBispectrum.h) for one descriptor: where each Wigner layer
// lies, the entries and Clebsch–Gordan coefficients of every Z block, the bispectrum components in the order
// of LAMMPS's coefficient files and the adjoint weights of each Z block. Built once per potential on the
// host; a device kernel copies the arrays and reads them through the same SnapLayout.
#pragma once

#include <vector>

#include "math/SnapBispectrum.h"

namespace hookmd {

/** The descriptor's settings, as a `.snapparam` file gives them (already checked). */
struct SnapDescriptorSettings {
  int twojmax = 0;
  double rfac0 = 0.99363;
  double rmin0 = 0.0;
  bool switchFlag = true;
  bool bzeroFlag = true;
  bool bnormFlag = false;
  bool wselfAllFlag = false;
  /** With chemflag, one U per element and a bispectrum per element triple. */
  bool chemFlag = false;
};

class SnapTables {
 public:
  /** The tables of `settings` for `numElements` elements (used with chemflag only). */
  SnapTables(const SnapDescriptorSettings& settings, int numElements);

  /** The view the bispectrum routines read; valid while this object lives. */
  const SnapLayout& layout() const noexcept { return layout_; }
  /** Bispectrum components of one element triple: 30 for 2J = 6, 55 for 2J = 8. */
  static int componentsPerTriple(int twojmax);

 private:
  std::vector<int> uBlock_;
  std::vector<double> rootpq_;
  std::vector<SnapZEntry> z_;
  std::vector<SnapZBlock> zBlocks_;
  std::vector<int> bBlocks_;
  std::vector<double> cg_;
  SnapLayout layout_{};
};

}  // namespace hookmd
