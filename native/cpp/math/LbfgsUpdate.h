// One L-BFGS step direction (Nocedal's two-loop recursion) exactly as ase.optimize.LBFGS computes it, for
// one system's degrees of freedom (`size` numbers). The history pairs are passed oldest first as pointers,
// so that a ring buffer on the host and an array on a device call the same code.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

/** Σ a_k·b_k over `size` numbers. */
HD double dotProduct(const double* a, const double* b, long long size) {
  double sum = 0.0;
  for (long long k = 0; k < size; ++k) sum += a[k] * b[k];
  return sum;
}

/**
 * The L-BFGS step p = −H·g for gradient g = −f, with H built from `stored` pairs (s_i, y_i, ρ_i = 1/(y_i·s_i)),
 * oldest first, on top of H0 = 1/alpha. `a` holds `stored` scratch numbers; the result goes to `step`.
 */
HD void lbfgsStep(const double* f, long long size, const double* const* s, const double* const* y, const double* rho,
                  int stored, double alpha, double* a, double* step) {
  // q = g = −f; the first loop runs newest to oldest.
  for (long long k = 0; k < size; ++k) step[k] = -f[k];
  for (int i = stored - 1; i >= 0; --i) {
    a[i] = rho[i] * dotProduct(s[i], step, size);
    for (long long k = 0; k < size; ++k) step[k] -= a[i] * y[i][k];
  }
  const double h0 = 1.0 / alpha;
  for (long long k = 0; k < size; ++k) step[k] *= h0;
  for (int i = 0; i < stored; ++i) {
    const double b = rho[i] * dotProduct(y[i], step, size);
    for (long long k = 0; k < size; ++k) step[k] += s[i][k] * (a[i] - b);
  }
  for (long long k = 0; k < size; ++k) step[k] = -step[k];
}

/**
 * ASE's determine_step: when the longest row (an atom's displacement) reaches maxStep, the whole step is
 * scaled so that it is exactly maxStep; then it is multiplied by `damping`.
 */
HD void lbfgsCapStep(double* step, long long rows, double maxStep, double damping) {
  double longest = 0.0;
  for (long long i = 0; i < rows; ++i) {
    const double* r = step + 3 * i;
    const double length = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    longest = length > longest ? length : longest;
  }
  const double scale = (longest >= maxStep ? maxStep / longest : 1.0) * damping;
  for (long long k = 0; k < 3 * rows; ++k) step[k] *= scale;
}

}  // namespace hookmd
