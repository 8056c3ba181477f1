// The tables of ML-IAP's so3 descriptor (math/So3PowerSpectrum.h) for one nmax, lmax, α and r_c: the
// quadrature nodes of the radial integrals, each radial function's weights at them (through W = S^(−1/2),
// the orthonormalisation of the polynomial basis) and the normalisation of p per l. Built once per
// potential on the host; a device kernel copies the arrays and reads them through the same So3Layout.
#pragma once

#include <vector>

#include "math/So3PowerSpectrum.h"

namespace hookmd {

/** The descriptor's settings, as an so3 descriptor file gives them (already checked). */
struct So3DescriptorSettings {
  int nmax = 0;
  int lmax = 0;
  double alpha = 0.0;
};

class So3Tables {
 public:
  /** The tables of `settings` with the basis cut off at `rcut` (the file's rcutfac). */
  So3Tables(const So3DescriptorSettings& settings, double rcut);

  /** The view the power-spectrum routines read; valid while this object lives. */
  const So3Layout& layout() const noexcept { return layout_; }

 private:
  std::vector<double> nodeX_, nodeRho_, radialWeights_, norm_;
  So3Layout layout_{};
};

}  // namespace hookmd
