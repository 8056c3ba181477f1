// Per-atom terms of the per-system reductions, shared by the CPU loops and the CUDA kernels.
#pragma once

#include <cmath>

#include "core/HostDevice.h"

namespace hookmd {

HD double squaredNorm3(const double* v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; }

/** ½ m v² in energy units: forceToAccel converts energy/(length·mass) to length/time². */
HD double atomKineticEnergy(double mass, const double* velocity, double forceToAccel) {
  return 0.5 * mass * squaredNorm3(velocity) / forceToAccel;
}

/** Identity element of each ReduceOp, in the order sum, mean, min, max, norm. */
HD double reduceIdentity(int op) {
  return op == 2 ? INFINITY : (op == 3 ? -INFINITY : 0.0);
}

/** Folds one atom's value into the running accumulator; for Norm the value is a sum of squares. */
HD double reduceCombine(int op, double accumulator, double value) {
  switch (op) {
    case 2: return value < accumulator ? value : accumulator;
    case 3: return value > accumulator ? value : accumulator;
    default: return accumulator + value;
  }
}

/** Turns the accumulator into the reported value. Empty systems report 0. */
HD double reduceFinish(int op, double accumulator, long long count) {
  if (count == 0) return 0.0;
  switch (op) {
    case 1: return accumulator / static_cast<double>(count);
    case 4: return sqrt(accumulator);
    default: return accumulator;
  }
}

/**
 * The value one atom contributes: for Norm, the sum of squares of its components; otherwise the
 * component itself (scalar fields) or its Euclidean norm (vector fields).
 */
HD double reduceAtomValue(int op, const double* components, int count) {
  double squares = 0.0;
  for (int c = 0; c < count; ++c) squares += components[c] * components[c];
  if (op == 4) return squares;
  return count == 1 ? components[0] : sqrt(squares);
}

/**
 * One entry (an atom's vector, or a system's row) reduced to a number, as nvalchemi's criteria reduce
 * "within each entry" before the max over a system's atoms: op 0 sum, 1 mean, 2 min, 3 max, 4 Euclidean
 * norm of the components.
 */
HD double entryReduce(int op, const double* components, int count) {
  double accumulator = op == 2 ? INFINITY : (op == 3 ? -INFINITY : 0.0);
  for (int c = 0; c < count; ++c) {
    const double value = components[c];
    switch (op) {
      case 2: accumulator = value < accumulator ? value : accumulator; break;
      case 3: accumulator = value > accumulator ? value : accumulator; break;
      case 4: accumulator += value * value; break;
      default: accumulator += value; break;
    }
  }
  if (op == 1) return accumulator / static_cast<double>(count);
  if (op == 4) return sqrt(accumulator);
  return accumulator;
}

}  // namespace hookmd
