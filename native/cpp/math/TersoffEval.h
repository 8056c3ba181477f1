// The Tersoff bond-order potential of LAMMPS's `pair_style tersoff`, `tersoff/mod` (Kumagai et al.) and
// `tersoff/zbl` (a ZBL core joined by a Fermi switch), shared by the CPU loops and the device kernels
// (docs/models.md, "Tersoff"). For a centre atom i and its neighbours j, k within the cutoff:
//   E_i = ½ Σ_j [ V_R(r_ij) + b_ij V_A(r_ij) ],   V_R = f_c A e^{−λ₁r},   V_A = −f_c B e^{−λ₂r},
//   ζ_ij = Σ_{k≠j} f_c(r_ik) g(cos θ_ijk) e^{(λ₃ (r_ij − r_ik))^m},   b_ij = (1 + (βζ_ij)^n)^{−1/2n},
//   g(cos θ) = γ (1 + c²/d² − c²/(d² + (h − cos θ)²))
// with every three-body quantity taken from the (i, j, k) entry of the file and every two-body one from
// (i, j, j), as LAMMPS reads them. Energies in eV, lengths in Å (the files are metal units).
//
// The contract of this header, for a new many-body style: POD parameter rows, HD functions only, no
// allocation, exceptions or virtual calls; a centre routine that writes the energy of its centre atom, the
// force on each of its neighbours (the centre's own is minus their sum) and the virial Σ d⊗F.
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "math/ManyBodyNeighbors.h"

namespace hookmd {

/** The Tersoff variants: the file's column layout and the cutoff, angular and bond-order functions. */
enum class TersoffStyle : int { Tersoff = 0, Mod = 1, Zbl = 2 };

/** Numbers in one file entry after its three element names, per style. */
constexpr int tersoffEntryLength(TersoffStyle style) {
  return style == TersoffStyle::Mod ? 17 : style == TersoffStyle::Zbl ? 18 : 14;
}

/** One (i, j, k) entry, with the quantities the evaluation derives from it. */
struct TersoffParams {
  int m;          // exponent of the radial term, 1 or 3
  double lam3;    // λ₃ (1/Å)
  double h;       // cos θ₀ (tersoff), h (mod)
  // Angular term: gamma, c², d² (tersoff, zbl); c1..c5 (mod).
  double gamma, c2, d2;
  double mc1, mc2, mc3, mc4, mc5;
  // Bond order: b = (1 + (βζ)^n)^(−1/(2·nDel)); nDel = n except in tersoff/mod (its η is n here).
  double n, nDel, beta;
  // Asymptotes of b (LAMMPS's): βζ above bigZeta1 or below smallZeta1 makes the correction negligible.
  double bigZeta1, bigZeta2, smallZeta2, smallZeta1;
  double lam2, bigB, bigR, bigD, lam1, bigA;
  double cut, cutSq;
  // ZBL core (tersoff/zbl): Z_i Z_j e²/(4πε₀) (eV·Å), the screening length a (Å), and the Fermi switch.
  double zblPrefactor, zblScreening, zblCut, zblScale;
};

namespace tersoff_detail {
constexpr double kPi = 3.14159265358979323846;
// Hard-wired in LAMMPS's tersoff/zbl for metal units: the Bohr radius (Å), ε₀ (e²/(eV·Å)) and e.
constexpr double kBohrRadius = 0.529;
constexpr double kEpsilon0 = 0.00552635;
}  // namespace tersoff_detail

/**
 * An entry's parameter row from the file's numbers, in the file's column order (tersoffEntryLength of them);
 * the numbers were checked where the file was read (lib/models/tersoff-file.ts).
 */
inline TersoffParams makeTersoffParams(TersoffStyle style, const double* v) {
  TersoffParams p{};
  if (style == TersoffStyle::Mod) {
    // beta(=m) alpha(=λ₃) h eta beta_ters lam2 B R D lam1 A n c1 c2 c3 c4 c5
    p.m = static_cast<int>(v[0]);
    p.lam3 = v[1];
    p.h = v[2];
    p.n = v[3];
    p.beta = v[4];
    p.lam2 = v[5];
    p.bigB = v[6];
    p.bigR = v[7];
    p.bigD = v[8];
    p.lam1 = v[9];
    p.bigA = v[10];
    p.nDel = v[11];
    p.mc1 = v[12];
    p.mc2 = v[13];
    p.mc3 = v[14];
    p.mc4 = v[15];
    p.mc5 = v[16];
    p.bigZeta1 = std::pow(2.0 * p.nDel * 1.0e-16, -1.0 / p.n);
    p.smallZeta1 = 1.0 / p.bigZeta1;
  } else {
    // m gamma lam3 c d costheta0 n beta lam2 B R D lam1 A [Z_i Z_j ZBLcut ZBLexpscale]
    p.m = static_cast<int>(v[0]);
    p.gamma = v[1];
    p.lam3 = v[2];
    p.c2 = v[3] * v[3];
    p.d2 = v[4] * v[4];
    p.h = v[5];
    p.n = v[6];
    p.nDel = v[6];
    p.beta = v[7];
    p.lam2 = v[8];
    p.bigB = v[9];
    p.bigR = v[10];
    p.bigD = v[11];
    p.lam1 = v[12];
    p.bigA = v[13];
    p.bigZeta1 = std::pow(2.0 * p.n * 1.0e-16, -1.0 / p.n);
    p.bigZeta2 = std::pow(2.0 * p.n * 1.0e-8, -1.0 / p.n);
    p.smallZeta2 = 1.0 / p.bigZeta2;
    p.smallZeta1 = 1.0 / p.bigZeta1;
    if (style == TersoffStyle::Zbl) {
      using namespace tersoff_detail;
      const double zi = v[14];
      const double zj = v[15];
      p.zblPrefactor = zi * zj / (4.0 * kPi * kEpsilon0);
      p.zblScreening = 0.8854 * kBohrRadius / (std::pow(zi, 0.23) + std::pow(zj, 0.23));
      p.zblCut = v[16];
      p.zblScale = v[17];
    }
  }
  p.cut = p.bigR + p.bigD;
  p.cutSq = p.cut * p.cut;
  return p;
}

/** The cutoff function f_c(r) and its derivative. */
template <TersoffStyle S>
HD void tersoffCutoff(const TersoffParams& p, double r, double& fc, double& dfc) {
  using tersoff_detail::kPi;
  if (r < p.bigR - p.bigD) {
    fc = 1.0;
    dfc = 0.0;
  } else if (r > p.bigR + p.bigD) {
    fc = 0.0;
    dfc = 0.0;
  } else {
    const double x = 0.5 * kPi * (r - p.bigR) / p.bigD;
    if constexpr (S == TersoffStyle::Mod) {
      // ½ − 9/16 sin x − 1/16 sin 3x
      fc = 0.5 * (1.0 - 1.125 * sin(x) - 0.125 * sin(3.0 * x));
      dfc = -(0.375 * 0.25 * kPi / p.bigD) * (3.0 * cos(x) + cos(3.0 * x));
    } else {
      fc = 0.5 * (1.0 - sin(x));
      dfc = -(0.25 * kPi / p.bigD) * cos(x);
    }
  }
}

/** The angular function g(cos θ) and dg/d cos θ. */
template <TersoffStyle S>
HD void tersoffAngular(const TersoffParams& p, double cosTheta, double& g, double& dg) {
  const double hc = p.h - cosTheta;
  const double hc2 = hc * hc;
  if constexpr (S == TersoffStyle::Mod) {
    // g = c1 + c2 (h − cos)²/(c3 + (h − cos)²) · (1 + c4 e^{−c5 (h − cos)²})
    const double q = 1.0 / (p.mc3 + hc2);
    const double ratio = hc2 * q;
    const double e = exp(-p.mc5 * hc2);
    const double a = 1.0 + p.mc4 * e;
    g = p.mc1 + p.mc2 * ratio * a;
    // d/d(cos) of hc² is −2 hc; d ratio/d(hc²) = c3 q², d a/d(hc²) = −c4 c5 e.
    dg = -2.0 * hc * p.mc2 * (p.mc3 * q * q * a - ratio * p.mc4 * p.mc5 * e);
  } else if (p.c2 == 0.0) {
    // c = 0 (d may be 0 too): g is the constant γ.
    g = p.gamma;
    dg = 0.0;
  } else {
    const double q = 1.0 / (p.d2 + hc2);
    g = p.gamma * (1.0 + p.c2 / p.d2 - p.c2 * q);
    dg = -2.0 * p.gamma * p.c2 * hc * q * q;
  }
}

/** e^{(λ₃ Δr)^m} (m = 3) or e^{λ₃ Δr} (m = 1), Δr = r_ij − r_ik, and its derivative by Δr; clamped as LAMMPS does. */
HD void tersoffRadial(const TersoffParams& p, double dr, double& e, double& de) {
  const double t = p.lam3 * dr;
  const double arg = p.m == 3 ? t * t * t : t;
  e = arg > 69.0776 ? 1.0e30 : arg < -69.0776 ? 0.0 : exp(arg);
  de = p.m == 3 ? 3.0 * p.lam3 * t * t * e : p.lam3 * e;
}

/** The bond order b(ζ) and db/dζ. */
template <TersoffStyle S>
HD void tersoffBondOrder(const TersoffParams& p, double zeta, double& b, double& db) {
  const double x = p.beta * zeta;
  if constexpr (S == TersoffStyle::Mod) {
    const double ratio = p.n / p.nDel;
    if (x > p.bigZeta1) {
      b = pow(x, -0.5 * ratio);
      db = -0.5 * ratio * b / zeta;
    } else if (x < p.smallZeta1) {
      b = 1.0;
      db = 0.0;
    } else {
      const double xn = pow(x, p.n);
      b = pow(1.0 + xn, -1.0 / (2.0 * p.nDel));
      db = -0.5 * ratio * pow(1.0 + xn, -1.0 - 1.0 / (2.0 * p.nDel)) * xn / zeta;
    }
    return;
  }
  const double n = p.n;
  if (x > p.bigZeta1) {
    b = 1.0 / sqrt(x);
    db = -0.5 * p.beta * pow(x, -1.5);
  } else if (x > p.bigZeta2) {
    const double xn = pow(x, -n);
    b = (1.0 - xn / (2.0 * n)) / sqrt(x);
    db = -0.5 * p.beta * pow(x, -1.5) * (1.0 - (1.0 + 1.0 / (2.0 * n)) * xn);
  } else if (x < p.smallZeta1) {
    b = 1.0;
    db = 0.0;
  } else if (x < p.smallZeta2) {
    b = 1.0 - pow(x, n) / (2.0 * n);
    db = -0.5 * p.beta * pow(x, n - 1.0);
  } else {
    const double xn = pow(x, n);
    b = pow(1.0 + xn, -1.0 / (2.0 * n));
    db = -0.5 * pow(1.0 + xn, -1.0 - 1.0 / (2.0 * n)) * xn / zeta;
  }
}

/** The Fermi switch of tersoff/zbl, F(r) = 1/(1 + e^{−s(r − r_c)}), and F'. */
HD void tersoffFermi(const TersoffParams& p, double r, double& f, double& df) {
  const double e = exp(-p.zblScale * (r - p.zblCut));
  f = 1.0 / (1.0 + e);
  df = p.zblScale * e * f * f;
}

/** The repulsive pair energy V_R(r) (with its cutoff function, and the ZBL core in tersoff/zbl) and dV_R/dr. */
template <TersoffStyle S>
HD void tersoffRepulsive(const TersoffParams& p, double r, double& v, double& dv) {
  double fc, dfc;
  tersoffCutoff<S>(p, r, fc, dfc);
  const double e = exp(-p.lam1 * r);
  const double vt = fc * p.bigA * e;
  const double dvt = p.bigA * e * (dfc - p.lam1 * fc);
  if constexpr (S == TersoffStyle::Zbl) {
    const double x = r / p.zblScreening;
    const double t1 = 0.1818 * exp(-3.2 * x);
    const double t2 = 0.5099 * exp(-0.9423 * x);
    const double t3 = 0.2802 * exp(-0.4029 * x);
    const double t4 = 0.02817 * exp(-0.2016 * x);
    const double phi = t1 + t2 + t3 + t4;
    const double dphi = (-3.2 * t1 - 0.9423 * t2 - 0.4029 * t3 - 0.2016 * t4) / p.zblScreening;
    const double vz = p.zblPrefactor * phi / r;
    const double dvz = p.zblPrefactor * (dphi - phi / r) / r;
    double f, df;
    tersoffFermi(p, r, f, df);
    v = (1.0 - f) * vz + f * vt;
    dv = -df * vz + (1.0 - f) * dvz + df * vt + f * dvt;
  } else {
    v = vt;
    dv = dvt;
  }
}

/** The attractive pair energy V_A(r) = −f_c B e^{−λ₂r} (times the Fermi switch in tersoff/zbl) and dV_A/dr. */
template <TersoffStyle S>
HD void tersoffAttractive(const TersoffParams& p, double r, double& v, double& dv) {
  if (r > p.cut) {
    v = 0.0;
    dv = 0.0;
    return;
  }
  double fc, dfc;
  tersoffCutoff<S>(p, r, fc, dfc);
  const double e = exp(-p.lam2 * r);
  v = -p.bigB * e * fc;
  dv = p.bigB * e * (p.lam2 * fc - dfc);
  if constexpr (S == TersoffStyle::Zbl) {
    double f, df;
    tersoffFermi(p, r, f, df);
    dv = dv * f + v * df;
    v *= f;
  }
}

/** Per-neighbour scratch of one centre (count entries each), reused across centres. */
struct TersoffScratch {
  double* fc;
  double* dfc;
  double* g;
  double* dg;
  double* e;
  double* de;
  double* cosTheta;
};

/**
 * Centre atom i of type `ti`: adds its energy to `energy` and the force each neighbour m feels to
 * (fx[m], fy[m], fz[m]) (zeroed by the caller; the centre's force is minus their sum). `table` holds the
 * nt³ rows, (a, b, c) at (a·nt + b)·nt + c. kOneType: one species, so every row is the same.
 */
template <TersoffStyle S, bool kOneType>
HD void tersoffCentre(const TersoffParams* table, int nt, int ti, const ManyBodyNeighbors& nb, TersoffScratch& s,
                      double& energy, double* fx, double* fy, double* fz) {
  const int n = nb.count;
  for (int j = 0; j < n; ++j) {
    const int tj = kOneType ? 0 : nb.type[j];
    const TersoffParams& pij = table[kOneType ? 0 : (ti * nt + tj) * nt + tj];
    const double rij = nb.r[j];
    if (rij * rij > pij.cutSq) continue;
    const double ujx = nb.ux[j], ujy = nb.uy[j], ujz = nb.uz[j];

    // ζ_ij, keeping each k's terms for the forces.
    double zeta = 0.0;
    for (int k = 0; k < n; ++k) {
      s.fc[k] = 0.0;
      s.dfc[k] = 0.0;
      if (k == j) continue;
      const TersoffParams& pijk = table[kOneType ? 0 : (ti * nt + tj) * nt + nb.type[k]];
      const double rik = nb.r[k];
      if (rik * rik > pijk.cutSq) continue;
      const double c = ujx * nb.ux[k] + ujy * nb.uy[k] + ujz * nb.uz[k];
      s.cosTheta[k] = c;
      tersoffCutoff<S>(pijk, rik, s.fc[k], s.dfc[k]);
      tersoffAngular<S>(pijk, c, s.g[k], s.dg[k]);
      tersoffRadial(pijk, rij - rik, s.e[k], s.de[k]);
      zeta += s.fc[k] * s.g[k] * s.e[k];
    }

    double vr, dvr, va, dva, b, db;
    tersoffRepulsive<S>(pij, rij, vr, dvr);
    tersoffAttractive<S>(pij, rij, va, dva);
    tersoffBondOrder<S>(pij, zeta, b, db);
    energy += 0.5 * (vr + b * va);
    // Along the bond: −½ d(V_R + b V_A)/dr on j.
    const double radial = -0.5 * (dvr + b * dva);
    double fjx = radial * ujx, fjy = radial * ujy, fjz = radial * ujz;
    // Through ζ: −(½ V_A b') ∂ζ/∂d on j and on each k.
    const double pref = -0.5 * va * db;
    if (pref != 0.0) {
      const double invRij = 1.0 / rij;
      for (int k = 0; k < n; ++k) {
        if (s.fc[k] == 0.0 && s.dfc[k] == 0.0) continue;
        const double fc = s.fc[k], g = s.g[k], e = s.e[k], c = s.cosTheta[k];
        const double ukx = nb.ux[k], uky = nb.uy[k], ukz = nb.uz[k];
        const double invRik = 1.0 / nb.r[k];
        // ∂cos/∂d_j = (u_k − cos u_j)/r_ij, ∂cos/∂d_k = (u_j − cos u_k)/r_ik.
        const double angJ = pref * fc * s.dg[k] * e * invRij;
        const double alongJ = pref * fc * g * s.de[k];
        fjx += angJ * (ukx - c * ujx) + alongJ * ujx;
        fjy += angJ * (uky - c * ujy) + alongJ * ujy;
        fjz += angJ * (ukz - c * ujz) + alongJ * ujz;
        const double angK = pref * fc * s.dg[k] * e * invRik;
        const double alongK = pref * (s.dfc[k] * g * e - fc * g * s.de[k]);
        fx[k] += angK * (ujx - c * ukx) + alongK * ukx;
        fy[k] += angK * (ujy - c * uky) + alongK * uky;
        fz[k] += angK * (ujz - c * ukz) + alongK * ukz;
      }
    }
    fx[j] += fjx;
    fy[j] += fjy;
    fz[j] += fjz;
  }
}

}  // namespace hookmd
