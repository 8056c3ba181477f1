// The CPU reference of the per-system reductions, over one set of arrays: the cpu backend runs it on its
// storage, the mirror backend on its device arrays. One system per task, atoms folded in order, so results
// do not depend on the thread count.
#pragma once

#include "core/Backend.h"

namespace hookmd {

/** Backend::reduce over `arrays` (per-atom float64 fields only; throws INVALID_FIELD otherwise). */
void reduceOnHost(const BatchStorage& arrays, Field field, ReduceOp op, double* out);
/**
 * nvalchemi's two-level reduction of a per-atom float64 field: each atom's components reduced by
 * `entryOp` (entryReduce), then the largest over each system's atoms (0 for an empty system).
 */
void entryMaxOnHost(const BatchStorage& arrays, Field field, ReduceOp entryOp, double* out);
/** Backend::kineticEnergy over `arrays`. */
void kineticEnergyOnHost(const BatchStorage& arrays, double* out);

/** The fields reduceOnHost reads for `field`. */
inline FieldSet reductionReads(Field field) { return FieldSet{field, Field::Ptr}; }
/** The fields kineticEnergyOnHost reads. */
inline FieldSet kineticEnergyReads() { return FieldSet{Field::Masses, Field::Velocities, Field::Ptr}; }

/** reduceOnHost on `backend`'s reference arrays: the reduction kernel of cpu and mirror. */
void reduceReference(Backend& backend, Field field, ReduceOp op, double* out);
/** kineticEnergyOnHost on `backend`'s reference arrays, likewise. */
void kineticEnergyReference(Backend& backend, double* out);

}  // namespace hookmd
