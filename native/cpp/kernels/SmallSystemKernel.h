// The small-system path (docs/dynamics.md, "Small systems"): batches of free clusters small enough that all
// pairs cost less than a neighbor list (LJ13 and the like) run whole chunks of steps in one call, each system
// on its own: its integrator step, all its pairs, its convergence checks, until it finishes or the chunk
// ends. The CPU reference (cpu/CpuSmallSystemKernel) takes one system per thread with its atoms in cache; the
// CUDA kernel one group of lanes per system, with the state in registers. Both report a small flag block, so
// a chunk costs one launch and one read. The stepping loop (dynamics/SmallSystemPath) decides when a chunk
// may take this path and falls back to the general one otherwise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "kernels/Integrator.h"
#include "kernels/PairForceKernel.h"

namespace hookmd {

/** The most atoms a system may have on the small-system path (one warp of lanes on the GPU). */
constexpr std::int32_t kSmallSystemAtoms = 32;

/** A native convergence criterion as the small-system kernels check it (dynamics/Convergence.h numbering). */
struct SmallCriterion {
  int key;
  int op;
  double threshold;
};

/** One ConvergenceHook: criteria [first, first + count) of the list, ANDed, due every `frequency` steps from `phase`. */
struct SmallCheck {
  std::int64_t frequency;
  std::int64_t phase;
  std::int32_t source;
  std::int32_t target;
  int first;
  int count;
};

/** The engine's convergence hooks, in registration order. */
struct SmallConvergence {
  std::vector<SmallCriterion> criteria;
  std::vector<SmallCheck> checks;
};

/** The model of a chunk: a pair potential's checked tables and its atoms' species types. */
struct AllPairsModel {
  const PairForceSpec* spec;
  /** Per atom (empty when the table has one type), and the version it was assigned at. */
  AtomTypes types;
};

struct SmallChunk {
  /** The stepCount of the chunk's first step. */
  std::int64_t firstStep;
  /** Steps to take at most. */
  std::int64_t steps;
  std::int32_t exitStatus;
  /**
   * Host memory, one entry per system: a system that a convergence check moves gets the step at which it
   * did. When the flag block counts such systems, a device kernel copies its entries here.
   */
  std::int64_t* convergedAt;
};

/** What a chunk reports back: the flag block. */
struct SmallChunkResult {
  /** Steps the batch took: chunk.steps, or fewer when every system finished earlier. */
  std::int64_t steps = 0;
  /** Systems still below exitStatus. */
  std::int64_t active = 0;
  /** Systems that a convergence check moved during the chunk. */
  std::int64_t converged = 0;
  /** The first system whose positions or energy came out non-finite (it stopped at that step), or −1. */
  std::int64_t firstNonFinite = -1;
  /** The step at which it did. */
  std::int64_t nonFiniteStep = -1;
};

/** Whether the small-system path takes integrator `name`'s step: the entries of HOOKMD_INTEGRATORS marked small. */
inline bool smallSystemIntegrator(const std::string& name) {
  for (const IntegratorEntry& entry : kIntegrators) {
    if (entry.smallSystem && name == entry.name) return true;
  }
  return false;
}

/**
 * What a device kernel must send before a chunk, decided once by the stepping loop (which charges it), so
 * that every backend sends the same: the pair tables when the model changed, the species types when they
 * changed, the convergence checks when they changed.
 */
struct SmallUploads {
  bool model = false;
  bool types = false;
  bool convergence = false;
};

/** Bytes of the flag block a chunk reads back. */
constexpr std::uint64_t kSmallChunkFlagBytes = 5 * sizeof(std::int64_t);

class SmallSystemKernel {
 public:
  virtual ~SmallSystemKernel() = default;
  /** Whether it can take `integrator`'s step. */
  virtual bool runs(Integrator& integrator) const = 0;
  /**
   * Takes up to chunk.steps steps of every system of `backend`'s batch (each ≤ kSmallSystemAtoms atoms, no
   * periodic direction): positions, velocities, forces, energy and status on the device side, integrator
   * state in the integrator.
   */
  virtual SmallChunkResult run(Backend& backend, Integrator& integrator, const AllPairsModel& model,
                               const SmallConvergence& convergence, const SmallChunk& chunk, const SmallUploads& uploads) = 0;
};

}  // namespace hookmd
