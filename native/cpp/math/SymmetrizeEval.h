// Space-group averages of per-atom vectors and of 3×3 tensors, as ASE's FixSymmetry forms them
// (ase/spacegroup/symmetrize.py, symmetrize_rank1 and symmetrize_rank2). Cells are row-major with lattice
// vectors as rows; each operation's rotation W is an integer 3×3 matrix acting on fractional column vectors
// (moyo's and spglib's convention), and `map[n·op + i]` is the atom that operation op takes atom i to.
// No allocation: the caller gives the scratch of `fractional` (3·atoms) and `sum` (3·atoms).
#pragma once

#include <cstdint>

#include "core/HostDevice.h"

namespace hookmd {

/**
 * out_j = C^T · (1/|G|) Σ_ops W · (C^-T v_i) summed over the atoms i that the operation takes to j: the
 * vectors (forces, or a step of the positions) averaged over the group in fractional components, then
 * back to Cartesian. `in` and `out` may be the same array.
 */
HD void symmetrizeVectors(const double* cell, const double* inverse, const double* rotations, const std::int32_t* map, std::int64_t ops,
                          std::int64_t atoms, const double* in, double* out, double* fractional, double* sum) {
  // The fractional components of a covariant vector: v · C⁻¹ (as ASE's inv_lattice.T @ forces.T).
  for (std::int64_t i = 0; i < atoms; ++i) {
    for (int k = 0; k < 3; ++k) fractional[3 * i + k] = in[3 * i] * inverse[k] + in[3 * i + 1] * inverse[3 + k] + in[3 * i + 2] * inverse[6 + k];
  }
  for (std::int64_t k = 0; k < 3 * atoms; ++k) sum[k] = 0.0;
  for (std::int64_t op = 0; op < ops; ++op) {
    const double* w = rotations + 9 * op;
    for (std::int64_t i = 0; i < atoms; ++i) {
      const double* s = fractional + 3 * i;
      double* target = sum + 3 * map[atoms * op + i];
      for (int a = 0; a < 3; ++a) target[a] += w[3 * a] * s[0] + w[3 * a + 1] * s[1] + w[3 * a + 2] * s[2];
    }
  }
  const double scale = 1.0 / static_cast<double>(ops);
  for (std::int64_t i = 0; i < atoms; ++i) {
    const double* s = sum + 3 * i;
    for (int c = 0; c < 3; ++c) out[3 * i + c] = scale * (s[0] * cell[c] + s[1] * cell[3 + c] + s[2] * cell[6 + c]);
  }
}

/**
 * out = C⁻¹ · [(1/|G|) Σ_ops Wᵀ (C · t · Cᵀ) W] · C⁻ᵀ: a rank-2 tensor (the stress) averaged over the
 * group's rotations. `in` and `out` may be the same array.
 */
HD void symmetrizeTensor(const double* cell, const double* inverse, const double* rotations, std::int64_t ops, const double* in, double* out) {
  double ct[9], scaled[9], sum[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) ct[3 * i + j] = cell[3 * i] * in[j] + cell[3 * i + 1] * in[3 + j] + cell[3 * i + 2] * in[6 + j];
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) scaled[3 * i + j] = ct[3 * i] * cell[3 * j] + ct[3 * i + 1] * cell[3 * j + 1] + ct[3 * i + 2] * cell[3 * j + 2];
  }
  for (std::int64_t op = 0; op < ops; ++op) {
    const double* w = rotations + 9 * op;
    double sw[9];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) sw[3 * i + j] = scaled[3 * i] * w[j] + scaled[3 * i + 1] * w[3 + j] + scaled[3 * i + 2] * w[6 + j];
    }
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) sum[3 * i + j] += w[i] * sw[j] + w[3 + i] * sw[3 + j] + w[6 + i] * sw[6 + j];
    }
  }
  const double scale = 1.0 / static_cast<double>(ops);
  double left[9];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) left[3 * i + j] = scale * (inverse[3 * i] * sum[j] + inverse[3 * i + 1] * sum[3 + j] + inverse[3 * i + 2] * sum[6 + j]);
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) out[3 * i + j] = left[3 * i] * inverse[3 * j] + left[3 * i + 1] * inverse[3 * j + 1] + left[3 * i + 2] * inverse[3 * j + 2];
  }
}

}  // namespace hookmd
