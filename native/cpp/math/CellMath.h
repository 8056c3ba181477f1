// 3×3 cell algebra (rows are lattice vectors) shared by hooks and neighbor code.
#pragma once

#include <cmath>
#include <cstdint>

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

/**
 * `cell` with every zero lattice vector of a non-periodic direction replaced as ASE's complete_cell does:
 * one missing vector by the unit normal of the other two, two by unit vectors normal to the third and to
 * each other. A slab or a wire may leave its vacuum vector zero (docs/models.md); its fractional
 * coordinates along the periodic directions then still exist. Non-zero vectors are kept as they are.
 */
HD void completeCell(const double* cell, const std::uint8_t* periodic, double* out) {
  bool missing[3];
  int count = 0;
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 3; ++c) out[3 * k + c] = cell[3 * k + c];
    missing[k] = !periodic[k] && cell[3 * k] == 0.0 && cell[3 * k + 1] == 0.0 && cell[3 * k + 2] == 0.0;
    count += missing[k] ? 1 : 0;
  }
  const auto cross = [](const double* a, const double* b, double* r) {
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
  };
  const auto normalize = [](double* v) {
    const double length = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (length > 0.0) {
      for (int c = 0; c < 3; ++c) v[c] /= length;
    }
  };
  if (count == 1) {
    int k = 0;
    while (!missing[k]) ++k;
    cross(out + 3 * ((k + 1) % 3), out + 3 * ((k + 2) % 3), out + 3 * k);
    normalize(out + 3 * k);
  } else if (count == 2) {
    int present = 0;
    while (missing[present]) ++present;
    const double* a = out + 3 * present;
    // Seeded by the axis least aligned with the vector that is given.
    int least = 0;
    for (int c = 1; c < 3; ++c) least = fabs(a[c]) < fabs(a[least]) ? c : least;
    double axis[3] = {0.0, 0.0, 0.0};
    axis[least] = 1.0;
    double* first = out + 3 * ((present + 1) % 3);
    double* second = out + 3 * ((present + 2) % 3);
    cross(axis, a, second);
    normalize(second);
    cross(second, a, first);
    normalize(first);
  } else if (count == 3) {
    for (int k = 0; k < 9; ++k) out[k] = k % 4 == 0 ? 1.0 : 0.0;
  }
}

}  // namespace hookmd
