// The resident step (docs/cuda.md, "Resident chunks"): a chunk of VelocityVerlet steps between two due JS
// hooks that stays on the device. Per step one kernel kicks, drifts and checks each atom's displacement
// against skin/2 (marking its system stale), a rebuild of only the stale systems runs when the device found
// one, and one kernel evaluates the forces and gives the closing half kick. The host reads one status block
// per chunk: a row that overflowed, a non-finite energy or a failed build make the stepping loop put back the
// chunk's snapshot. With the resident-regrow family on (platform/DarkKernels.h), a chunk whose only problem was an
// overflowing row grows the rows, rebuilds and runs again on the device; otherwise the chunk is replayed on
// the step-by-step path, which grows the rows and reports errors with the same words at the same step.
//
// A device pair-force kernel offers it (PairForceKernel::residentSteps): the CUDA kernel as one CUDA graph
// per chunk, `mirror` with the CPU reference math and a model of the device lists that follows the same
// policy (which systems go stale, when rows overflow), so both charge the same (dynamics/ResidentStepPath).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/Backend.h"

namespace hookmd {

class Integrator;

/**
 * Chunk lengths whose graphs cuda keeps, least recently used evicted first (the longest chunk, a run's last
 * one, the chunks between hooks); mirror models the same cache for the ledger's graph captures.
 */
constexpr std::size_t kResidentGraphsKept = 4;

/** Bytes of the status block a chunk reads back: the neighbor status (40) and the rebuild counts (2 × 8). */
constexpr std::uint64_t kResidentStatusBytes = 56;

struct ResidentChunk {
  /** Steps the chunk takes. */
  std::int64_t steps;
  /**
   * One whole step with the CPU reference code and the ledger muted: how `mirror` computes the numbers. A
   * CUDA kernel never calls it.
   */
  std::function<void()> referenceStep;
};

/** What the chunk's status block says. */
struct ResidentChunkResult {
  /** A row overflowed, an energy came out non-finite or a build failed: put the snapshot back and replay. */
  bool replay = false;
  /** The replay is for overflowing rows alone (no failed build, no non-finite energy): longer rows suffice. */
  bool rowsOnly = false;
  /** The longest row the chunk's searches wanted (cuda: the longest over the chunk; mirror: at the first overflow). */
  std::uint64_t longestRow = 0;
  /** The chunk's graph was captured for it (its length met first, or its buffers or sizes changed). */
  bool captured = false;
  /** Full-list entries each step's pair loop read (for the modeled bytes). */
  std::uint64_t listEntries = 0;
  /** Rebuilds of stale systems the device decided on (one per step that found one), and the systems they rebuilt. */
  std::int64_t rebuildPasses = 0;
  std::int64_t systemsRebuilt = 0;
};

class ResidentStepKernel {
 public:
  virtual ~ResidentStepKernel() = default;
  /**
   * Whether the next chunk can stay on the device: `integrator` is one the kernel takes (VelocityVerlet), the
   * lists are built, every system is evaluated and fully periodic, and the cells and pbc are those of the last
   * build (a fixed cell keeps every bin grid, so a rebuild needs only bins and search).
   */
  virtual bool residentReady(Backend& backend, Integrator& integrator) = 0;
  /** Takes chunk.steps steps, leaving the energies' sums pending as a deferred evaluation does. */
  virtual ResidentChunkResult runResident(Backend& backend, Integrator& integrator, const ResidentChunk& chunk) = 0;
  /** After a chunk asked for a replay: positions, velocities and forces of the chunk's start, and lists to rebuild. */
  virtual void restoreResident(Backend& backend) = 0;
  /**
   * After restoreResident for rows alone: grows the row capacity to `longestRow` + 1/4 and rebuilds every
   * system's list at the restored positions, so the same chunk can run again on the device.
   */
  virtual void regrowResident(Backend& backend, std::uint64_t longestRow) = 0;
};

}  // namespace hookmd
