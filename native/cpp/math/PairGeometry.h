// Small vector helpers for pair geometry in row-vector convention: a cell is three rows (lattice vectors),
// a lattice translation n is n₀a₀ + n₁a₁ + n₂a₂, and fractional coordinates s satisfy x = s·H.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

HD double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

HD void cross3(const double* a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/** det of a row-major 3×3 matrix (the signed cell volume). */
HD double det3(const double* m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
         m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** out = n·H for an integer lattice translation n. */
HD void latticeTranslation(const double* cell, int n0, int n1, int n2, double* out) {
  for (int c = 0; c < 3; ++c) out[c] = n0 * cell[c] + n1 * cell[3 + c] + n2 * cell[6 + c];
}

/** Symmetric virial increment d ⊗ F for a central pair force F = fOverR·d, as (xx, yy, zz, xy, xz, yz). */
HD void addPairVirial(double* virial6, const double* d, double fOverR) {
  virial6[0] += fOverR * d[0] * d[0];
  virial6[1] += fOverR * d[1] * d[1];
  virial6[2] += fOverR * d[2] * d[2];
  virial6[3] += fOverR * d[0] * d[1];
  virial6[4] += fOverR * d[0] * d[2];
  virial6[5] += fOverR * d[1] * d[2];
}

}  // namespace hookmd
