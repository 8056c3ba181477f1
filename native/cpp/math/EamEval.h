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

/** Value of the cubic in the interval whose coefficients start at `c`. */
HD double eamSplineValue(const double* c, double p) { return ((c[3] * p + c[4]) * p + c[5]) * p + c[6]; }

/** Derivative (per unit of the tabulated variable) of the same cubic. */
HD double eamSplineDerivative(const double* c, double p) { return (c[0] * p + c[1]) * p + c[2]; }

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

/** The density that one neighbor at distance r contributes, from its rhor table. */
HD double eamDensity(const double* rhor, int m, double p) { return eamSplineValue(rhor + m * kEamSplineStride, p); }

/**
 * One pair's force and pair energy. `rhoOfJAtI` is the table of the density atom j puts on atom i,
 * `rhoOfIAtJ` the reverse, `z2r` the pair table; fpI and fpJ are F'(ρ̄) of the two atoms. Writes
 * fOverR = −(dE/dr)/r, the convention of the pair evaluators (the force on j is fOverR·(x_j − x_i)), and
 * φ(r).
 */
HD void eamPairForce(const double* rhoOfJAtI, const double* rhoOfIAtJ, const double* z2r, int m, double p, double r,
                     double fpI, double fpJ, double& fOverR, double& pairEnergy) {
  const int row = m * kEamSplineStride;
  const double rhoip = eamSplineDerivative(rhoOfIAtJ + row, p);
  const double rhojp = eamSplineDerivative(rhoOfJAtI + row, p);
  const double z2p = eamSplineDerivative(z2r + row, p);
  const double z2 = eamSplineValue(z2r + row, p);
  const double recip = 1.0 / r;
  const double phi = z2 * recip;
  // φ' = (z' − φ)/r; dE/dr gathers the embedding terms of both atoms and the pair term.
  const double phip = z2p * recip - phi * recip;
  const double psip = fpI * rhojp + fpJ * rhoip + phip;
  fOverR = -psip * recip;
  pairEnergy = phi;
}

/**
 * eamPairForce for a pair of one element, whose two densities come from the same table `rhor`: one
 * derivative instead of two, and the same sums in the same order, so the result is bit for bit the same.
 */
HD void eamPairForceOneElement(const double* rhor, const double* z2r, int m, double p, double r, double fpI, double fpJ,
                               double& fOverR, double& pairEnergy) {
  const int row = m * kEamSplineStride;
  const double rhop = eamSplineDerivative(rhor + row, p);
  const double z2p = eamSplineDerivative(z2r + row, p);
  const double z2 = eamSplineValue(z2r + row, p);
  const double recip = 1.0 / r;
  const double phi = z2 * recip;
  const double phip = z2p * recip - phi * recip;
  const double psip = fpI * rhop + fpJ * rhop + phip;
  fOverR = -psip * recip;
  pairEnergy = phi;
}

}  // namespace hookmd
