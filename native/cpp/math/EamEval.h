// The embedded-atom method's per-pair and per-atom terms, shared by the CPU loops and a future CUDA kernel
// (docs/ARCHITECTURE.md, math/). E = Σ_i F_i(ρ̄_i) + ½ Σ_{i≠j} φ_ij(r_ij), ρ̄_i = Σ_j ρ_{j→i}(r_ij).
//
// Every function is a tabulated cubic spline evaluated exactly as LAMMPS's `pair_style eam` does
// (PairEAM::compute and PairEAM::interpolate), so that energies and forces agree with LAMMPS to rounding:
// a table of n points (1-based, spacing δ) holds 7 coefficients per point, [0..2] for the derivative and
// [3..6] for the value, in the local coordinate p ∈ [0, 1] of the interval. The pair function is tabulated
// as z(r) = r·φ(r). Past the last density point F is extended linearly (LAMMPS adds F'·(ρ − ρ_max) too).
//
// Contract (as for the pair evaluators): plain structs, no allocation, exceptions or virtual calls.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

/** Coefficients per tabulated point. */
constexpr int kEamSplineStride = 7;

/** The shared grid of every table of one potential. */
struct EamGrid {
  /** Points of the r tables (rhor, z2r) and of the ρ tables (frho). */
  int nr;
  int nrho;
  /** 1/Δr (1/length) and 1/Δρ. */
  double rdr;
  double rdrho;
  /** (nrho − 1)·Δρ: beyond it F is extended linearly. */
  double rhomax;
  /** The cutoff squared (length²): pairs at or beyond it do not interact. */
  double cutoffSq;
};

/** ((v₀p + v₁)p + v₂)p + v₃: a cubic's value from its four coefficients. */
HD double eamCubic(const double* v, double p) { return ((v[0] * p + v[1]) * p + v[2]) * p + v[3]; }

/** (d₀p + d₁)p + d₂: a cubic's derivative from the three coefficients of its derivative. */
HD double eamCubicDerivative(const double* d, double p) { return (d[0] * p + d[1]) * p + d[2]; }

/** Value of the cubic in the interval whose coefficients start at `c`. */
HD double eamSplineValue(const double* c, double p) { return eamCubic(c + 3, p); }

/** Derivative (per unit of the tabulated variable) of the same cubic. */
HD double eamSplineDerivative(const double* c, double p) { return eamCubicDerivative(c, p); }

/**
 * Interval m (1-based) and local coordinate p of distance r, clamped to the last interval as LAMMPS does.
 * The cast is safe for r below the cutoff: EamTables refuses grids whose cutoff/dr + 1 overflows an int.
 */
HD void eamRadialIndex(const EamGrid& grid, double r, int& m, double& p) {
  p = r * grid.rdr + 1.0;
  m = static_cast<int>(p);
  m = m < grid.nr - 1 ? m : grid.nr - 1;
  p -= m;
  p = p < 1.0 ? p : 1.0;
}

/**
 * Interval and local coordinate of density ρ in the frho tables (never below the first interval). A density
 * has no bound (any number of neighbors may overlap), so p is clamped in double before the cast, which
 * picks the interval LAMMPS picks without overflowing the int (NaN lands in the first interval).
 */
HD void eamDensityIndex(const EamGrid& grid, double rho, int& m, double& p) {
  p = rho * grid.rdrho + 1.0;
  const double last = grid.nrho - 1;
  m = static_cast<int>(p >= 1.0 ? (p < last ? p : last) : 1.0);
  p -= m;
  p = p < 1.0 ? p : 1.0;
}

/**
 * F(ρ) and F'(ρ) from the frho spline table `frho` (nrho + 1 rows of kEamSplineStride, row 0 unused).
 * Beyond ρ_max the energy continues along the last tangent.
 */
HD void eamEmbedding(const EamGrid& grid, const double* frho, double rho, double& energy, double& derivative) {
  int m;
  double p;
  eamDensityIndex(grid, rho, m, p);
  const double* c = frho + m * kEamSplineStride;
  derivative = eamSplineDerivative(c, p);
  energy = eamSplineValue(c, p);
  if (rho > grid.rhomax) energy += derivative * (rho - grid.rhomax);
}

/**
 * The r tables packed for the pair loops: one row per interval m (1-based, row 0 unused) and ordered
 * element pair (a, b), a the owner's element and b the neighbor's, holding everything one pass reads for a
 * pair in adjacent doubles (one or two cache lines instead of one per table). The coefficients are the
 * spline tables' own, so every value is bit for bit what the separate tables give.
 *
 * Density rows: the value cubic (c₃..c₆) of the density the neighbor puts on the owner, then, with several
 * elements, of the density the owner puts on the neighbor. Force rows: the 7 coefficients of z2r, the
 * derivative cubic (c₀..c₂) of the density the neighbor puts on the owner, then, with several elements, of
 * the reverse.
 */
HD constexpr int eamDensityRowStride(bool oneElement) { return oneElement ? 4 : 8; }
HD constexpr int eamForceRowStride(bool oneElement) { return oneElement ? 10 : 13; }

/**
 * One pair's force and pair energy from its packed force row, p its position in the row's interval and
 * recip = 1/r. fpI and fpJ are F'(ρ̄) of the two atoms. Writes fOverR = −(dE/dr)/r, the convention of the
 * pair evaluators (the force on j is fOverR·(x_j − x_i)), and φ(r).
 */
template <bool kOneElement>
HD void eamPairForce(const double* row, double p, double recip, double fpI, double fpJ, double& fOverR, double& pairEnergy) {
  const double rhojp = eamCubicDerivative(row + 7, p);
  // One element: both atoms read the same density, so one derivative serves both terms.
  const double rhoip = kOneElement ? rhojp : eamCubicDerivative(row + 10, p);
  const double z2p = eamSplineDerivative(row, p);
  const double z2 = eamSplineValue(row, p);
  const double phi = z2 * recip;
  // φ' = (z' − φ)/r; dE/dr gathers the embedding terms of both atoms and the pair term.
  const double phip = z2p * recip - phi * recip;
  const double psip = fpI * rhojp + fpJ * rhoip + phip;
  fOverR = -psip * recip;
  pairEnergy = phi;
}

}  // namespace hookmd
