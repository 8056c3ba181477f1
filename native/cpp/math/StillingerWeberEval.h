// The Stillinger–Weber potential of LAMMPS's `pair_style sw`, shared by the CPU loops and the device kernels
// (docs/models.md, "Stillinger–Weber"). For a centre atom i, with every length in units of σ taken from the
// entries LAMMPS takes them from:
//   E = Σ_{i<j} φ₂(r_ij) + Σ_i Σ_{j<k} φ₃(r_ij, r_ik, θ_jik),
//   φ₂(r) = A ε [B (σ/r)^p − (σ/r)^q] e^{σ/(r − aσ)}                    (entry i j j, r < aσ)
//   φ₃ = λ_ijk ε_ijk (cos θ_jik − cos θ₀_ijk)² e^{γ_ij σ_ij/(r_ij − a_ij σ_ij)} e^{γ_ik σ_ik/(r_ik − a_ik σ_ik)}
// (λ, ε, cos θ₀ from entry i j k; γ, σ, a of each bond from entries i j j and i k k). Energies in eV,
// lengths in Å. The contract is that of math/TersoffEval.h.
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "math/ManyBodyNeighbors.h"

namespace hookmd {

/** Numbers in one file entry: epsilon sigma a lambda gamma costheta0 A B p q tol. */
constexpr int kStillingerWeberEntryLength = 11;

/** One (i, j, k) entry, with the quantities the evaluation derives from it. */
struct StillingerWeberParams {
  // Two-body, and each bond's share of the three-body term (used from i j j entries).
  double sigma, p, q, cut, cutSq, sigmaGamma;
  // p and q as small whole numbers (−1 when they are not): then the powers are products, not pow() calls.
  int pWhole, qWhole;
  double pairPrefactor;  // A ε
  double bigB;
  // Three-body (used from i j k entries): λε and cos θ₀; `symmetric` when the i k j entry has the same ones.
  double lambdaEpsilon, cosTheta0;
  bool symmetric;
};

/** An entry's row from the file's numbers, in the file's order; checked where the file was read. */
inline StillingerWeberParams makeStillingerWeberParams(const double* v) {
  StillingerWeberParams s{};
  const double epsilon = v[0];
  s.sigma = v[1];
  s.cut = v[2] * v[1];
  s.cutSq = s.cut * s.cut;
  s.lambdaEpsilon = v[3] * epsilon;
  s.sigmaGamma = v[4] * v[1];
  s.cosTheta0 = v[5];
  s.pairPrefactor = v[6] * epsilon;
  s.bigB = v[7];
  s.p = v[8];
  s.q = v[9];
  auto whole = [](double x) { return x >= 0.0 && x <= 16.0 && std::floor(x) == x ? static_cast<int>(x) : -1; };
  s.pWhole = whole(s.p);
  s.qWhole = whole(s.q);
  s.symmetric = true;
  return s;
}

/** x^e, by repeated products when e is a small whole number (`whole` ≥ 0), else by pow. */
HD double stillingerWeberPower(double x, double e, int whole) {
  if (whole < 0) return pow(x, e);
  double result = 1.0;
  for (int k = 0; k < whole; ++k) result *= x;
  return result;
}

/** φ₂(r) and dφ₂/dr for r < aσ. */
HD void stillingerWeberPair(const StillingerWeberParams& s, double r, double& v, double& dv) {
  const double sr = s.sigma / r;
  const double srp = stillingerWeberPower(sr, s.p, s.pWhole);
  const double srq = stillingerWeberPower(sr, s.q, s.qWhole);
  const double inv = 1.0 / (r - s.cut);
  const double e = exp(s.sigma * inv);
  const double radial = s.bigB * srp - srq;
  v = s.pairPrefactor * radial * e;
  // d/dr of the bracket is (−p B (σ/r)^p + q (σ/r)^q)/r; of the exponential, −σ/(r − aσ)² times itself.
  dv = s.pairPrefactor * e * ((-s.p * s.bigB * srp + s.q * srq) / r - radial * s.sigma * inv * inv);
}

/** Per-neighbour scratch of one centre: each bond's exponential factor and its derivative, and whether it is inside. */
struct StillingerWeberScratch {
  double* e;
  double* de;
  unsigned char* inside;
};

/** φ₃'s part for the pair (j, k) with the (i, j, k) row `t`, added to the energy and to the forces on j and k. */
HD void stillingerWeberTriplet(const StillingerWeberParams& t, const ManyBodyNeighbors& nb, const StillingerWeberScratch& s, int j,
                               int k, double weight, double& energy, double* fx, double* fy, double* fz) {
  const double c = nb.ux[j] * nb.ux[k] + nb.uy[j] * nb.uy[k] + nb.uz[j] * nb.uz[k];
  const double dc = c - t.cosTheta0;
  const double l = weight * t.lambdaEpsilon;
  const double ejk = s.e[j] * s.e[k];
  energy += l * dc * dc * ejk;
  // dφ₃/d cos θ, and the bonds' radial derivatives.
  const double a = 2.0 * l * dc * ejk;
  const double radJ = l * dc * dc * s.de[j] * s.e[k];
  const double radK = l * dc * dc * s.e[j] * s.de[k];
  const double invJ = 1.0 / nb.r[j];
  const double invK = 1.0 / nb.r[k];
  fx[j] -= a * (nb.ux[k] - c * nb.ux[j]) * invJ + radJ * nb.ux[j];
  fy[j] -= a * (nb.uy[k] - c * nb.uy[j]) * invJ + radJ * nb.uy[j];
  fz[j] -= a * (nb.uz[k] - c * nb.uz[j]) * invJ + radJ * nb.uz[j];
  fx[k] -= a * (nb.ux[j] - c * nb.ux[k]) * invK + radK * nb.ux[k];
  fy[k] -= a * (nb.uy[j] - c * nb.uy[k]) * invK + radK * nb.uy[k];
  fz[k] -= a * (nb.uz[j] - c * nb.uz[k]) * invK + radK * nb.uz[k];
}

/**
 * Centre atom i of type `ti`, as tersoffCentre: half of each bond's φ₂ (the other half comes from the other
 * end) and every φ₃ with i at the apex. An (i, j, k) entry whose (i, k, j) twin differs counts half of each.
 */
template <bool kOneType>
HD void stillingerWeberCentre(const StillingerWeberParams* table, int nt, int ti, const ManyBodyNeighbors& nb,
                              const StillingerWeberScratch& s, double& energy, double* fx, double* fy, double* fz) {
  const int n = nb.count;
  for (int m = 0; m < n; ++m) {
    const int tm = kOneType ? 0 : nb.type[m];
    const StillingerWeberParams& pm = table[kOneType ? 0 : (ti * nt + tm) * nt + tm];
    const double r = nb.r[m];
    s.inside[m] = r * r < pm.cutSq;
    if (!s.inside[m]) continue;
    double v, dv;
    stillingerWeberPair(pm, r, v, dv);
    energy += 0.5 * v;
    fx[m] -= 0.5 * dv * nb.ux[m];
    fy[m] -= 0.5 * dv * nb.uy[m];
    fz[m] -= 0.5 * dv * nb.uz[m];
    const double inv = 1.0 / (r - pm.cut);
    s.e[m] = exp(pm.sigmaGamma * inv);
    s.de[m] = -s.e[m] * pm.sigmaGamma * inv * inv;
  }
  for (int j = 0; j < n; ++j) {
    if (!s.inside[j]) continue;
    for (int k = j + 1; k < n; ++k) {
      if (!s.inside[k]) continue;
      if (kOneType) {
        stillingerWeberTriplet(table[0], nb, s, j, k, 1.0, energy, fx, fy, fz);
        continue;
      }
      const StillingerWeberParams& t = table[(ti * nt + nb.type[j]) * nt + nb.type[k]];
      if (t.symmetric) {
        stillingerWeberTriplet(t, nb, s, j, k, 1.0, energy, fx, fy, fz);
      } else {
        stillingerWeberTriplet(t, nb, s, j, k, 0.5, energy, fx, fy, fz);
        stillingerWeberTriplet(table[(ti * nt + nb.type[k]) * nt + nb.type[j]], nb, s, j, k, 0.5, energy, fx, fy, fz);
      }
    }
  }
}

}  // namespace hookmd
