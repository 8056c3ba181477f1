// The backend-neutral stepping loop (docs/dynamics.md). One step is a walk over nine dispatch points with the
// engine's actions between them:
//
//   BEFORE_STEP, BEFORE_PRE_UPDATE, [preUpdate], AFTER_PRE_UPDATE, BEFORE_COMPUTE, [compute], AFTER_COMPUTE,
//   BEFORE_POST_UPDATE, [postUpdate], AFTER_POST_UPDATE, AFTER_STEP, [convergence], ON_CONVERGE, [stepCount+1]
//
// Native hooks run at their dispatch points. `advance(n)` walks whole steps without stopping; `runTo(stage)`
// walks to one dispatch point so the JS engine can fire its due hooks there, and crosses into JS nowhere
// else.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/Backend.h"
#include "dynamics/Convergence.h"
#include "dynamics/DynamicsStage.h"
#include "kernels/Integrator.h"
#include "dynamics/NativeHook.h"
#include "dynamics/ResidentStepPath.h"
#include "dynamics/SmallSystemPath.h"
#include "models/Potential.h"

namespace hookmd {

class Stepper {
 public:
  /**
   * Computes energies and forces, and the stress when `stress` is set, into the backend's arrays for the
   * flagged systems (one flag per system); empty when JS computes them. `energies` false: nothing reads the
   * energies before Potential::finishEnergies, so a device may leave their sums until then.
   */
  using ComputeFn = std::function<void(Backend&, const std::uint8_t* systems, bool stress, bool energies)>;

  Stepper(Backend& backend, ComputeFn compute, std::unique_ptr<Integrator> integrator, std::int32_t exitStatus);

  /** Adds a native hook; one that freezes atoms changes the degrees of freedom the integrator counts. */
  void addHook(std::unique_ptr<NativeHook> hook);
  /**
   * The native potential behind `compute` (null for a JS model): a pair potential lets whole chunks of
   * small free clusters take the small-system path (dynamics/SmallSystemPath.h).
   */
  void setPotential(std::shared_ptr<Potential> potential) { potential_ = std::move(potential); }
  void addConvergence(std::unique_ptr<Convergence> convergence) { convergence_.push_back(std::move(convergence)); }
  Integrator& integrator() { return *integrator_; }

  std::int64_t stepCount() const noexcept { return stepCount_; }
  void setStepCount(std::int64_t step) { stepCount_ = step; }
  /** The next dispatch point the walk will reach (0 = the step has not started). */
  int cursor() const noexcept { return cursor_; }

  /**
   * Walks to dispatch point `stage` of the current step, running the actions and native hooks before it and
   * the native hooks at it. Reaching ON_CONVERGE returns whether some system newly converged this step.
   */
  bool runTo(DynamicsStage stage);
  /** Completes the current step (convergence check included) and increments stepCount. */
  void finishStep();
  /**
   * Runs the native hooks due at `stage` (BEFORE_COMPUTE or AFTER_COMPUTE) of step stepCount outside a step,
   * for the active systems: around the force computation that precedes a run's first step, which the engine
   * does (docs/dynamics.md, "Forces before the first step").
   */
  void runComputeHooks(DynamicsStage stage);
  /**
   * The compute of the current step (or of the next one, before it starts) also evaluates the stress, for
   * a JS hook that needs it; steps nobody asks for pay nothing (docs/dynamics.md).
   */
  void requestStress() { stressRequested_ = true; }
  /** Whether the last compute evaluated the stress. */
  bool stressComputed() const noexcept { return stressComputed_; }

  struct AdvanceResult {
    std::int64_t steps = 0;
    /** The walk stopped at ON_CONVERGE of step `stepCount` because systems newly converged. */
    bool pausedOnConverge = false;
  };
  /**
   * Takes up to `maxSteps` whole steps, stopping early when `budgetSeconds` has elapsed, when every system
   * has reached exitStatus, or (with pauseOnConverge) at ON_CONVERGE of a step where systems newly converged.
   */
  AdvanceResult advance(std::int64_t maxSteps, double budgetSeconds, bool pauseOnConverge);

  /** Systems that newly converged in the current step. */
  const std::vector<std::uint8_t>& newlyConverged() const noexcept { return newly_; }
  /** For each newly converged system, the status it first converged from in this step (its FusedStage sub-stage); -1 elsewhere. */
  const std::vector<std::int32_t>& newlyFrom() const noexcept { return newlyFrom_; }
  /**
   * Per system, the last step at which a convergence check moved (or reported) it, on either path; −1 when
   * none has. Kept through remap().
   */
  const std::vector<std::int64_t>& convergedAt() const noexcept { return convergedAt_; }
  /** Whether every system has status ≥ exitStatus. */
  bool allConverged();
  /**
   * What an exact restart needs besides the batch and stepCount: the integrator's state, then each
   * convergence check's (joinState parts, in the order they were added).
   */
  std::vector<double> state() const;
  /** Restores `state()` between steps; INVALID_STATE, changing nothing, when it does not fit. */
  void loadState(const std::vector<double>& state);
  /**
   * After the batch was compacted/refilled: keep systems `keep` in that order, then `added` new ones.
   * `arrivals` is empty, or holds one entry per hook (in the order added): the data the refill brings that
   * hook (null: none, a plain remap).
   */
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added, const std::vector<const HookArrivals*>& arrivals = {});

 private:
  /** Throws BATCH_RESIZED when the batch was reallocated behind the stepper's back (not through remap). */
  void requireLayout() const;
  /** frozenAtoms_ and frozenCount_ from the hooks' frozen atoms, for the batch as it is now. */
  void recountFrozen();
  void beginStep();
  /** Drops systems whose status reached exitStatus since the step began (a hook finished them). */
  void refreshActive();
  /**
   * Step 5 of a step (docs/dynamics.md): systems that a hook finished during a JS-driven step get their
   * start-of-step state back. Systems the engine finishes (budgets) keep the step: budgets move them only
   * after the convergence checks (Integrator::afterConvergence), past this point.
   */
  void restoreFinished();
  void walkTo(DynamicsStage stage);
  void actionBefore(int point);
  /**
   * The step's compute: stress too when a JS hook asked for it, a due convergence check reads it, or the
   * integrator's update reads it.
   */
  void compute(const std::uint8_t* systems);
  void runNativeHooks(DynamicsStage stage);
  /**
   * advance()'s steps as resident chunks (dynamics/ResidentStepPath.h); a chunk whose status asks for it is
   * put back and replayed on the general path.
   */
  AdvanceResult residentSteps(std::int64_t maxSteps, bool timed, std::chrono::steady_clock::time_point deadline);
  /** Whether every system is below exitStatus (a resident chunk evaluates every system). */
  bool everySystemActive();
  /** advance()'s steps on the general path, from the current one. */
  AdvanceResult walkSteps(std::int64_t maxSteps, bool timed, std::chrono::steady_clock::time_point deadline, bool pauseOnConverge);
  /** After a small-system chunk found a non-finite energy: the general compute names the cause (OVERLAPPING_ATOMS, ...). */
  [[noreturn]] void failNonFinite(std::int64_t system);

  Backend& backend_;
  ComputeFn compute_;
  /**
   * Inside advance(): no native hook, convergence check or integrator update reads the energies between its
   * steps, so each compute may leave their sums until something reads them (Backend::defer; docs/cuda.md,
   * "Energies only when asked").
   */
  bool deferEnergies_ = false;
  std::shared_ptr<Potential> potential_;
  SmallSystemPath smallPath_;
  ResidentStepPath residentPath_;
  /** Systems below exitStatus after the last small-system chunk, valid while the status field's version is `knownStatusVersion_`. */
  std::int64_t knownActive_ = -1;
  std::uint64_t knownStatusVersion_ = 0;
  std::unique_ptr<Integrator> integrator_;
  std::vector<std::unique_ptr<NativeHook>> hooks_;
  /** Frozen atoms of every FreezeAtomsHook (one flag per atom) and their count per system; empty when none. */
  std::vector<std::uint8_t> frozenAtoms_;
  std::vector<std::int32_t> frozenCount_;
  /** Counts recountFrozen() calls, so a device copy of the counts knows when they changed (StepContext::frozenVersion). */
  std::uint64_t frozenVersion_ = 0;
  std::vector<std::unique_ptr<Convergence>> convergence_;
  std::int32_t exitStatus_;
  /** The storage generation the per-system state was sized for. */
  std::uint64_t layout_;
  std::int64_t stepCount_ = 0;
  int cursor_ = 0;
  std::int64_t newlyCount_ = 0;
  std::vector<std::uint8_t> active_;
  std::vector<std::uint8_t> activeAtStart_;
  std::vector<std::uint8_t> all_;
  /** Set while JS gets control mid-step (before AFTER_STEP): only then can a hook change a status mid-step. */
  bool jsWalk_ = false;
  bool stressRequested_ = false;
  bool stressComputed_ = false;
  std::vector<double> startPositions_;
  std::vector<double> startVelocities_;
  std::vector<double> startCells_;
  std::vector<std::uint8_t> newly_;
  std::vector<std::int64_t> convergedAt_;
  std::vector<std::int32_t> newlyFrom_;
};

}  // namespace hookmd
