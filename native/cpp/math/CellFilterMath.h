// The algebra of a cell filter with ASE's FrechetCellFilter parametrisation: the cell is C = C0·Fᵀ for the
// deformation gradient F = exp(L), and the optimizer moves L (scaled by a cell factor) next to the atoms'
// positions in the undeformed cell, u = x·F⁻ᵀ. Matrices are row-major.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** out = a·b for n×n matrices (n ≤ 6); out may not alias a or b. */
HD void matrixProduct(const double* a, const double* b, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
      out[i * n + j] = sum;
    }
  }
}

/**
 * out = exp(a) for an n×n matrix (n ≤ 6), by scaling and squaring: a Taylor series of a/2^k with
 * ‖a/2^k‖∞ ≤ 1/2, which has converged to double precision well before its 30th term, then k squarings.
 */
HD void matrixExp(const double* a, int n, double* out) {
  double norm = 0.0;
  for (int i = 0; i < n; ++i) {
    double row = 0.0;
    for (int j = 0; j < n; ++j) row += fabs(a[i * n + j]);
    norm = row > norm ? row : norm;
  }
  int squarings = 0;
  double scale = 1.0;
  while (norm * scale > 0.5 && squarings < 60) {
    scale *= 0.5;
    ++squarings;
  }
  double term[36], next[36], scaled[36];
  for (int k = 0; k < n * n; ++k) {
    scaled[k] = a[k] * scale;
    term[k] = (k % (n + 1) == 0) ? 1.0 : 0.0;
    out[k] = term[k];
  }
  for (int order = 1; order <= 30; ++order) {
    matrixProduct(term, scaled, n, next);
    double largest = 0.0;
    for (int k = 0; k < n * n; ++k) {
      term[k] = next[k] / order;
      out[k] += term[k];
      largest = fabs(term[k]) > largest ? fabs(term[k]) : largest;
    }
    if (largest < 1e-20) break;
  }
  for (int q = 0; q < squarings; ++q) {
    matrixProduct(out, out, n, next);
    for (int k = 0; k < n * n; ++k) out[k] = next[k];
  }
}

/**
 * The force on the log-deformation L from the cell gradient G = W·F⁻ᵀ of the unit-cell filter: the adjoint of
 * exp's Fréchet derivative at L applied to G, Σ_ij [D exp(L)·E_μν]_ij G_ij for each μν, which equals the
 * Fréchet derivative at Lᵀ in direction G: the upper-right block of exp([[Lᵀ, G], [0, Lᵀ]]).
 */
HD void logDeformationForce(const double* logDeformation, const double* cellGradient, double* out) {
  double block[36], exponential[36];
  for (int k = 0; k < 36; ++k) block[k] = 0.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      block[i * 6 + j] = logDeformation[j * 3 + i];
      block[(i + 3) * 6 + j + 3] = logDeformation[j * 3 + i];
      block[i * 6 + j + 3] = cellGradient[i * 3 + j];
    }
  }
  matrixExp(block, 6, exponential);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[i * 3 + j] = exponential[i * 6 + j + 3];
  }
}

/** y = x·Mᵀ for a row vector x (y_k = Σ_j M_kj x_j): Cartesian from undeformed positions with M = F. */
HD void timesTransposed(const double* x, const double* m, double* y) {
  for (int k = 0; k < 3; ++k) y[k] = m[k * 3] * x[0] + m[k * 3 + 1] * x[1] + m[k * 3 + 2] * x[2];
}

/** y = x·M for a row vector x: forces on undeformed positions, f·F. */
HD void timesMatrix(const double* x, const double* m, double* y) {
  for (int k = 0; k < 3; ++k) y[k] = x[0] * m[k] + x[1] * m[3 + k] + x[2] * m[6 + k];
}

}  // namespace hookmd
