// One system's reductions over its atoms, in atom order: the bodies that the CPU reductions run per system
// (cpu/CpuReductions) and that the small-system path runs inside its steps, so both give the same bits.
#pragma once

#include "core/HostDevice.h"
#include "math/Reductions.h"

namespace hookmd {

/** Backend::reduce over one system: `count` atoms of `components` values each at `values`. */
HD double reduceSystem(int op, const double* values, long long count, int components) {
  double accumulator = reduceIdentity(op);
  for (long long i = 0; i < count; ++i) accumulator = reduceCombine(op, accumulator, reduceAtomValue(op, values + i * components, components));
  return reduceFinish(op, accumulator, count);
}

/**
 * nvalchemi's two-level reduction over one system: each atom's components reduced by `entryOp`
 * (entryReduce), then the largest over the atoms (0 for an empty system). A NaN entry makes the result NaN.
 */
HD double entryMaxSystem(int entryOp, const double* values, long long count, int components) {
  double largest = count > 0 ? -INFINITY : 0.0;
  for (long long i = 0; i < count; ++i) {
    if (largest != largest) break;
    const double value = entryReduce(entryOp, values + i * components, components);
    if (!(value <= largest)) largest = value;
  }
  return largest;
}

/** Σ ½ m v² over one system, in energy units. */
HD double systemKineticEnergy(const double* masses, const double* velocities, long long count, double forceToAccel) {
  double sum = 0.0;
  for (long long i = 0; i < count; ++i) sum += atomKineticEnergy(masses[i], velocities + 3 * i, forceToAccel);
  return sum;
}

}  // namespace hookmd
