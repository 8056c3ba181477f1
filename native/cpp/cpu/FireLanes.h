// FIRE on the CPU small-system path, several systems at once (cpu/CpuSmallSystemKernel): a group of clusters
// with the same atom count steps together in SIMD lanes (8 with AVX-512, 4 with AVX2, 2 otherwise), one
// system per lane. Each lane runs exactly the operations of the scalar path in the same order
// (Fire::stepSystem, cpu/AllPairs.h with a single-species Lennard-Jones table, the fmax check), with IEEE
// division and square root and no fused multiply-add, so a lane's bits equal the scalar path's; branches
// become selects, and a finished lane keeps its state while the others go on.
#pragma once

#include <cstdint>

#include "kernels/SmallSystemKernel.h"
#include "math/FireUpdate.h"
#include "math/LennardJonesEval.h"

namespace hookmd {

/** The most lanes a group takes. */
constexpr int kMaxFireLanes = 8;

/** What the lanes step: the batch's arrays (system s's atoms at ptr[s]) and the chunk. */
struct FireLaneBatch {
  const std::int32_t* ptr;
  double* positions;
  double* forces;
  double* energy;
  std::int32_t* status;
  /** Per system: FIRE's parameters, and its state row (dt, α, P>0 streak, first). */
  const FireParameters* const* parameters;
  double* const* stateRows;
  /** Per system: FIRE's own velocities (Optimizer::velocities), 3 per atom. */
  double* const* velocityRows;
  LennardJonesParams pair;
  /** fmax thresholds of each convergence check, in criteria order ([first, first + count) of `checks`). */
  const SmallConvergence* convergence;
  SmallChunk chunk;
};

/** One lane's system after the chunk (the scalar kernel reports the same). */
struct LaneOutcome {
  std::int64_t steps = 0;
  bool nonFinite = false;
  bool converged = false;
};

/** Lanes this CPU runs per group (by its SIMD level). */
int fireLaneWidth();

/**
 * Steps `count` systems (≤ fireLaneWidth(), all with the same atom count, every one below exitStatus at the
 * chunk's start) through the chunk, writing their arrays and `outcomes[0, count)`.
 */
void runFireLanes(const FireLaneBatch& batch, const std::int64_t* systems, int count, LaneOutcome* outcomes);

/** Whether every check of `convergence` is fmax only (forces, norm): what the lanes evaluate. */
bool fireLanesCheck(const SmallConvergence& convergence);

}  // namespace hookmd
