// When and how the stepping loop runs a chunk of whole steps on the small-system path (docs/dynamics.md,
// "Small systems"; kernels/SmallSystemKernel.h): a batch of free clusters of at most kSmallSystemAtoms atoms,
// a pair potential, an integrator with a per-system step, native convergence checks it can evaluate, no
// native hook, no stress, and no pause at ON_CONVERGE. Anything else takes the general path, step by step.
//
// On one memory (cpu) a chunk takes steps until one reaches the time budget's end, as the general path does.
// On a device backend the chunk lengths follow one fixed schedule (64 steps, doubling to 1,024), each chunk one launch and one read of its
// flag block, so `mirror` charges exactly what cuda does; the budget is checked between chunks.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/Backend.h"
#include "dynamics/Convergence.h"
#include "kernels/Integrator.h"
#include "dynamics/NativeHook.h"
#include "kernels/SmallSystemKernel.h"
#include "models/BackendCache.h"
#include "models/Potential.h"

namespace hookmd {

class SmallSystemPath {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SmallSystemPath(Backend& backend) : backend_(backend) {}

  /** Whether the next chunk can take the path; prepares its model and checks when it can. */
  bool ready(Integrator& integrator, Potential* potential, bool nativeHooks, const std::vector<std::unique_ptr<Convergence>>& convergence,
             bool stress, bool pauseOnConverge, std::int32_t exitStatus);

  struct Outcome {
    std::int64_t steps = 0;
    /** Systems below exitStatus after the last chunk. */
    std::int64_t active = 0;
    /** The first system whose energy came out non-finite, and the step; −1 when none. */
    std::int64_t firstNonFinite = -1;
    std::int64_t nonFiniteStep = -1;
  };
  /**
   * Runs chunks from step `firstStep` until `maxSteps` steps, every system finished, a non-finite energy, or
   * the `deadline` (when `timed`).
   */
  Outcome run(Integrator& integrator, std::int64_t firstStep, std::int64_t maxSteps, std::int32_t exitStatus, bool timed,
              Clock::time_point deadline, std::vector<std::int64_t>& convergedAt);

 private:
  /** Every system a free cluster of at most kSmallSystemAtoms atoms (re-read only when ptr or pbc changed). */
  bool batchFits();
  /** What the next chunk must send to a device kernel (the first chunk sends everything); charges it. */
  SmallUploads uploads();

  Backend& backend_;
  bool kernelMade_ = false;
  std::unique_ptr<SmallSystemKernel> kernel_;
  AllPairsModel model_{};
  SmallConvergence convergence_;
  /** What a device kernel last received: the pair tables, the species types, the convergence checks. */
  const PairForceSpec* sentSpec_ = nullptr;
  std::uint64_t sentTypesVersion_ = 0;
  std::uint64_t sentTypesGeneration_ = 0;
  bool typesSent_ = false;
  std::vector<SmallCriterion> sentCriteria_;
  std::vector<SmallCheck> sentChecks_;
  bool convergenceSent_ = false;
  FieldStamp shapePtr_;
  FieldStamp shapePbc_;
  bool fits_ = false;
  /** Chunk length of the device schedule, or the last chunk's seconds per step on one memory. */
  std::int64_t deviceChunk_ = 0;
  double secondsPerStep_ = 0.0;
};

/** HOOKMD_SMALL_SYSTEMS: 1 (or unset) lets eligible chunks take the path, 0 keeps every step on the general path. */
bool smallSystemsEnabled();

}  // namespace hookmd
