// 3×3 cell algebra (rows are lattice vectors) shared by hooks and neighbor code.
#pragma once

#include "core/HostDevice.h"

namespace hookmd {

HD double determinant(const double* m) {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/** inverse = m⁻¹ (row-major). Returns false for a singular matrix. */
HD bool invert3(const double* m, double* inverse) {
  const double det = determinant(m);
  if (det == 0.0) return false;
  const double r = 1.0 / det;
  inverse[0] = (m[4] * m[8] - m[5] * m[7]) * r;
  inverse[1] = (m[2] * m[7] - m[1] * m[8]) * r;
  inverse[2] = (m[1] * m[5] - m[2] * m[4]) * r;
  inverse[3] = (m[5] * m[6] - m[3] * m[8]) * r;
  inverse[4] = (m[0] * m[8] - m[2] * m[6]) * r;
  inverse[5] = (m[2] * m[3] - m[0] * m[5]) * r;
  inverse[6] = (m[3] * m[7] - m[4] * m[6]) * r;
  inverse[7] = (m[1] * m[6] - m[0] * m[7]) * r;
  inverse[8] = (m[0] * m[4] - m[1] * m[3]) * r;
  return true;
}

/** Fractional coordinates s of Cartesian x, with x = s · cell (rows are lattice vectors): s = x · cell⁻¹. */
HD void toFractional(const double* x, const double* inverseCell, double* s) {
  for (int k = 0; k < 3; ++k) s[k] = x[0] * inverseCell[k] + x[1] * inverseCell[3 + k] + x[2] * inverseCell[6 + k];
}

HD void toCartesian(const double* s, const double* cell, double* x) {
  for (int k = 0; k < 3; ++k) x[k] = s[0] * cell[k] + s[1] * cell[3 + k] + s[2] * cell[6 + k];
}

}  // namespace hookmd
