// The smooth SO(3) power spectrum of ML-IAP's `so3` descriptor (LAMMPS's `pair_style mliap ... descriptor so3`,
// as PyXtal_FF generates its files; docs/models.md, "ML potentials"), shared by the CPU loops and the device
// kernels. For a centre atom i with neighbours k at d_k (r_k = |d_k| < r_cut,ik = min(rcutfac (R_i + R_k),
// rcutfac)), the neighbour density Σ_k w_k δ(r − d_k) smeared by exp(−α r²) is expanded in
//   radial functions g_n(r) = Σ_a W_na φ_a(r), φ_a = (r_c − r)^(a+2) / √(2 r_c^(2a+7) / ((2a+5)(2a+6)(2a+7))),
//     n, a = 1 … nmax, r_c = rcutfac, W = S^(−1/2) for the overlap S of the φ_a (orthonormal g_n),
//   and spherical harmonics Y_lm, l = 0 … lmax:
//     c_nlm = Σ_k w_k f_c(r_k) R_nl(r_k) Y_lm(d̂_k),  f_c(r) = ½ (cos(π r / r_c) + 1),
//     R_nl(r) = 4π e^(−α r²) ∫₀^r_c x² g_n(x) e^(−α x²) i_l(2α r x) dx,
//   with i_l the modified spherical Bessel functions; the integral is LAMMPS's Gauss–Chebyshev quadrature on
//   N = 10 (nmax + lmax + 1) nodes x_q = r_c (t_q + 1)/2, t_q = cos((2q − 1) π / 2N), and i_l follows from
//   i_0 = sinh ρ/ρ, i_1 = (cosh ρ − i_0)/ρ by the upward recurrence i_l = i_(l−2) − (2l − 1) i_(l−1)/ρ, as
//   LAMMPS computes it (its rounding at small ρ is part of the numbers the files were fitted to). The
//   descriptors are
//     p_(n1 n2 l) = 2√2 π/√(2l + 1) Σ_m c_(n1 lm) c_(n2 lm),  n1 ≥ n2,
//   in the order n1, n2 ≤ n1, l of LAMMPS's files. Y_lm here are the real harmonics: p is invariant under any
//   unitary change of basis within each l, so it equals LAMMPS's complex-harmonic sum, and every array is real.
// The energy's gradient β = ∂E_i/∂p becomes the adjoint A_nlm = ∂E_i/∂c_nlm = Σ_n' M^l_nn' c_n'lm, so a
// neighbour's force needs only Σ_nlm A_nlm ∂c_nlm/∂d_k, never the derivatives of p.
// LAMMPS truncates each element weight w_k to a whole number (it is read into an int); so does hookmd.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** The most nmax and lmax a descriptor may have: the W matrix and the harmonics stay accurate well past them. */
constexpr int kMaxSo3Radial = 12;
constexpr int kMaxSo3Angular = 12;

/** The tables of one so3 descriptor (built by kernels/So3Tables on the host; a device copies the arrays). */
struct So3Layout {
  int nmax, lmax;
  /** Quadrature nodes N. */
  int nodes;
  double alpha, rcut;
  /** Per node q: x_q and 2α x_q (ρ = 2α x_q r). */
  const double* nodeX;
  const double* nodeRho;
  /** Per radial function n and node q, at n N + q: the quadrature weight times x_q² g_n(x_q) e^(−α x_q²). */
  const double* radialWeights;
  /** Per l, the normalisation 2√2 π/√(2l + 1) of p. */
  const double* norm;
};

/** Descriptors of one element: nmax (nmax + 1)/2 (lmax + 1). */
HD int so3Descriptors(int nmax, int lmax) { return nmax * (nmax + 1) / 2 * (lmax + 1); }

/** Harmonics per l ≤ lmax: (lmax + 1)², entry l² + l + m for m = −l … l (m < 0 the sine, m > 0 the cosine ones). */
HD int so3HarmonicCount(int lmax) { return (lmax + 1) * (lmax + 1); }

/**
 * R_nl(r) and dR_nl/dr for every n, l into radial[n (lmax + 1) + l] and dradial; `bessel` holds 2 (lmax + 2)
 * scratch values.
 */
HD void so3Radial(const So3Layout& L, double r, double* radial, double* dradial, double* bessel) {
  const int nl = L.lmax + 1;
  for (int k = 0; k < L.nmax * nl; ++k) {
    radial[k] = 0.0;
    dradial[k] = 0.0;
  }
  double* value = bessel;
  double* slope = bessel + L.lmax + 2;
  for (int q = 0; q < L.nodes; ++q) {
    const double rho = L.nodeRho[q] * r;
    value[0] = sinh(rho) / rho;
    value[1] = (cosh(rho) - value[0]) / rho;
    for (int l = 2; l <= L.lmax + 1; ++l) value[l] = value[l - 2] - (2 * l - 1) / rho * value[l - 1];
    // i_l′ = (l i_(l−1) + (l + 1) i_(l+1))/(2l + 1), times x_q: d i_l(2α r x_q)/dr = 2α x_q i_l′.
    slope[0] = L.nodeX[q] * value[1];
    for (int l = 1; l <= L.lmax; ++l) slope[l] = L.nodeX[q] * (l * value[l - 1] + (l + 1) * value[l + 1]) / (2 * l + 1);
    for (int n = 0; n < L.nmax; ++n) {
      const double g = L.radialWeights[n * L.nodes + q];
      for (int l = 0; l < nl; ++l) {
        radial[n * nl + l] += g * value[l];
        dradial[n * nl + l] += g * slope[l];
      }
    }
  }
  const double pi = 3.14159265358979323846;
  const double scale = 4.0 * pi * exp(-L.alpha * r * r);
  for (int k = 0; k < L.nmax * nl; ++k) {
    const double integral = radial[k];
    radial[k] = scale * integral;
    dradial[k] = scale * 2.0 * L.alpha * (dradial[k] - r * integral);
  }
}

/**
 * The real spherical harmonics Y_lm of the unit vector (ux, uy, uz) for l ≤ lmax, and their gradients with
 * respect to the unnormalised vector at that direction times its length (∂Y/∂d = grad/r), into y and
 * gx, gy, gz (so3HarmonicCount(lmax) each). `q` holds 3 (lmax + 1) scratch values.
 * Each Y_lm = N_lm Q_l^|m|(z, s) T_m(x, y) is a homogeneous polynomial of degree l at s = x² + y² + z² = 1, with
 * T_m = Re (x + iy)^m (m ≥ 0) or Im (x + iy)^|m| (m < 0) and Q by the associated Legendre recurrence
 * Q_l = ((2l − 1) z Q_(l−1) − (l + m − 1) s Q_(l−2))/(l − m) from Q_m = (2m − 1)!!; its gradient is the
 * polynomial's, projected on the sphere's tangent plane (Euler: d̂·∇P = l P).
 */
HD void so3Harmonics(int lmax, double ux, double uy, double uz, double* y, double* gx, double* gy, double* gz, double* q) {
  const double pi = 3.14159265358979323846;
  double* qv = q;
  double* qz = q + lmax + 1;
  double* qs = q + 2 * (lmax + 1);
  // c, s: Re and Im of (x + iy)^m; cPrev, sPrev: of (x + iy)^(m−1).
  double c = 1.0, s = 0.0, cPrev = 0.0, sPrev = 0.0;
  double doubleFactorial = 1.0;
  for (int m = 0; m <= lmax; ++m) {
    if (m > 0) {
      cPrev = c;
      sPrev = s;
      c = ux * cPrev - uy * sPrev;
      s = ux * sPrev + uy * cPrev;
      doubleFactorial *= 2 * m - 1;
    }
    // Q_l^m and its partial derivatives in z and s, l = m … lmax, at index l.
    for (int l = m; l <= lmax; ++l) {
      if (l == m) {
        qv[l] = doubleFactorial;
        qz[l] = 0.0;
        qs[l] = 0.0;
      } else if (l == m + 1) {
        qv[l] = (2 * m + 1) * uz * qv[m];
        qz[l] = (2 * m + 1) * qv[m];
        qs[l] = 0.0;
      } else {
        const double a = 2 * l - 1, b = l + m - 1, d = l - m;
        qv[l] = (a * uz * qv[l - 1] - b * qv[l - 2]) / d;
        qz[l] = (a * (qv[l - 1] + uz * qz[l - 1]) - b * qz[l - 2]) / d;
        qs[l] = (a * uz * qs[l - 1] - b * (qv[l - 2] + qs[l - 2])) / d;
      }
    }
    // ∂T/∂x and ∂T/∂y of the cosine (Re) and sine (Im) parts: m (x + iy)^(m−1) and i m (x + iy)^(m−1).
    const double cx = m * cPrev, cy = -m * sPrev, sx = m * sPrev, sy = m * cPrev;
    double ratio = 1.0;  // (l − m)!/(l + m)!
    for (int k = 1; k <= 2 * m; ++k) ratio /= k;
    for (int l = m; l <= lmax; ++l) {
      if (l > m) ratio *= static_cast<double>(l - m) / (l + m);
      const double norm = sqrt((m == 0 ? 1.0 : 2.0) * (2 * l + 1) / (4.0 * pi) * ratio);
      const double pv = norm * qv[l], pz = norm * qz[l], ps = 2.0 * norm * qs[l];
      for (int part = 0; part < (m == 0 ? 1 : 2); ++part) {
        const double t = part == 0 ? c : s, tx = part == 0 ? cx : sx, ty = part == 0 ? cy : sy;
        const int at = l * l + l + (part == 0 ? m : -m);
        // ∇P = (ps x T + Q' Tx, ps y T + Q' Ty, (pz + ps z) T) with Q' = norm Q.
        const double px = ps * ux * t + pv * tx;
        const double py = ps * uy * t + pv * ty;
        const double pzz = (pz + ps * uz) * t;
        const double radial = px * ux + py * uy + pzz * uz;
        y[at] = pv * t;
        gx[at] = px - radial * ux;
        gy[at] = py - radial * uy;
        gz[at] = pzz - radial * uz;
      }
    }
  }
}

/** p of one centre from its c (nmax × so3HarmonicCount(lmax), n-major), in LAMMPS's order. */
HD void so3Spectrum(const So3Layout& L, const double* c, double* p) {
  const int nh = so3HarmonicCount(L.lmax);
  int at = 0;
  for (int n1 = 0; n1 < L.nmax; ++n1) {
    for (int n2 = 0; n2 <= n1; ++n2) {
      for (int l = 0; l <= L.lmax; ++l) {
        double sum = 0.0;
        for (int m = l * l; m < (l + 1) * (l + 1); ++m) sum += c[n1 * nh + m] * c[n2 * nh + m];
        p[at++] = L.norm[l] * sum;
      }
    }
  }
}

/** A = ∂E/∂c from β = ∂E/∂p and c (p_(n1 n2 l) is bilinear in c: the diagonal counts twice). */
HD void so3Adjoint(const So3Layout& L, const double* c, const double* beta, double* a) {
  const int nh = so3HarmonicCount(L.lmax);
  for (int k = 0; k < L.nmax * nh; ++k) a[k] = 0.0;
  int at = 0;
  for (int n1 = 0; n1 < L.nmax; ++n1) {
    for (int n2 = 0; n2 <= n1; ++n2) {
      for (int l = 0; l <= L.lmax; ++l) {
        const double weight = L.norm[l] * beta[at++];
        for (int m = l * l; m < (l + 1) * (l + 1); ++m) {
          a[n1 * nh + m] += weight * c[n2 * nh + m];
          a[n2 * nh + m] += weight * c[n1 * nh + m];
        }
      }
    }
  }
}

/** f_c(r) and its derivative. */
HD void so3Switch(double r, double rcut, double& fc, double& dfc) {
  const double pi = 3.14159265358979323846;
  fc = 0.5 * (cos(pi * r / rcut) + 1.0);
  dfc = -0.5 * pi / rcut * sin(pi * r / rcut);
}

}  // namespace hookmd
