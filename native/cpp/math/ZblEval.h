// The ZBL universal screened nuclear repulsion of LAMMPS's `pair_style zbl inner outer`, shared by the CPU
// loops and the device kernels: the core that SNAP files put under their potential with
// `pair_style hybrid/overlay zbl … snap` (docs/models.md, "ML potentials").
//   E(r) = Zi Zj e²/(4πε₀ r) φ(r/a) + S(r),  a = 0.46850/(Zi^0.23 + Zj^0.23),
//   φ(x) = 0.18175 e^{−3.19980 x} + 0.50986 e^{−0.94229 x} + 0.28022 e^{−0.40290 x} + 0.02817 e^{−0.20162 x},
// and S a polynomial in t = r − inner, zero below inner, chosen so that E, E′ and E″ vanish at outer, where
// E is cut off. Energies in eV, lengths in Å.
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "math/ManyBodyNeighbors.h"

namespace hookmd {

/** One species pair's ZBL numbers, with the switching polynomial's coefficients. */
struct ZblParams {
  /** Zi Zj e²/(4πε₀) (eV Å). */
  double charge;
  /** The exponents d_k / a of φ's four terms (1/Å). */
  double d[4];
  double inner, outer, outerSq;
  /** S(r) = c3 t³ + c4 t⁴ + c0 (t = r − inner > 0), S = c0 below inner. */
  double c3, c4, c0;
};

namespace zbl_detail {
// e²/(4πε₀) in eV Å, as LAMMPS's metal units have it (force->qqr2e).
constexpr double kCoulomb = 14.399645;
constexpr double kC[4] = {0.02817, 0.28022, 0.50986, 0.18175};
constexpr double kD[4] = {0.20162, 0.40290, 0.94229, 3.19980};
constexpr double kA0 = 0.46850;
}  // namespace zbl_detail

/** The unswitched ZBL energy at r, and its first and second derivatives. */
HD void zblBare(const ZblParams& p, double r, double& e, double& de, double& d2e) {
  double phi = 0.0, dphi = 0.0, d2phi = 0.0;
  for (int k = 0; k < 4; ++k) {
    const double term = zbl_detail::kC[k] * exp(-p.d[k] * r);
    phi += term;
    dphi -= p.d[k] * term;
    d2phi += p.d[k] * p.d[k] * term;
  }
  const double inv = 1.0 / r;
  e = p.charge * inv * phi;
  de = p.charge * inv * (dphi - inv * phi);
  d2e = p.charge * inv * (d2phi - 2.0 * inv * dphi + 2.0 * inv * inv * phi);
}

/** The pair's numbers for nuclear charges zi, zj (elementary charges) and the switching range [inner, outer]. */
inline ZblParams makeZblParams(double zi, double zj, double inner, double outer) {
  ZblParams p{};
  p.charge = zi * zj * zbl_detail::kCoulomb;
  const double ainv = (std::pow(zi, 0.23) + std::pow(zj, 0.23)) / zbl_detail::kA0;
  for (int k = 0; k < 4; ++k) p.d[k] = zbl_detail::kD[k] * ainv;
  p.inner = inner;
  p.outer = outer;
  p.outerSq = outer * outer;
  double fc, fcp, fcpp;
  zblBare(p, outer, fc, fcp, fcpp);
  const double tc = outer - inner;
  const double a = (-3.0 * fcp + tc * fcpp) / (tc * tc);
  const double b = (2.0 * fcp - tc * fcpp) / (tc * tc * tc);
  p.c3 = a / 3.0;
  p.c4 = b / 4.0;
  p.c0 = -fc + 0.5 * tc * fcp - tc * tc * fcpp / 12.0;
  return p;
}

/** E(r) and dE/dr for r < outer (the caller checks the cutoff). */
HD void zblEvaluate(const ZblParams& p, double r, double& e, double& de) {
  double d2e;
  zblBare(p, r, e, de, d2e);
  e += p.c0;
  if (r > p.inner) {
    const double t = r - p.inner;
    e += t * t * t * (p.c3 + p.c4 * t);
    de += t * t * (3.0 * p.c3 + 4.0 * p.c4 * t);
  }
}

/**
 * The ZBL core of a centre's pairs within its outer cutoff, `row` the centre type's ZblParams per neighbour
 * type: each pair is seen from both of its atoms, so half of its energy, and half of its force on the
 * neighbour, from each.
 */
HD void zblHalfPairs(const ZblParams* row, const ManyBodyNeighbors& nb, double& energy, double* fx, double* fy, double* fz) {
  for (int m = 0; m < nb.count; ++m) {
    const ZblParams& p = row[nb.type[m]];
    const double r = nb.r[m];
    if (!(r * r < p.outerSq)) continue;
    double e, de;
    zblEvaluate(p, r, e, de);
    energy += 0.5 * e;
    fx[m] -= 0.5 * de * nb.ux[m];
    fy[m] -= 0.5 * de * nb.uy[m];
    fz[m] -= 0.5 * de * nb.uz[m];
  }
}

}  // namespace hookmd
