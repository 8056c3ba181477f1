// An integrator or optimizer: the preUpdate and postUpdate phases of one step (docs/dynamics.md). Implementations
// loop over systems on the backend and skip systems whose `active` flag is 0 (status ≥ exitStatus), which
// leaves their positions, velocities and integrator state unchanged bit for bit.
//
// The CPU implementations declare Field::Status among their reads although they select systems through
// StepContext::active: the device kernels read status, and the emulated device must copy what cuda copies.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"
#include "kernels/Parameters.h"

/**
 * The one list of integrators createIntegrator makes by name (dynamics/IntegratorFactory.cpp), in the order
 * its messages list them. X(name, Class, kind, small, cuda): `name` as JS spells it; `Class` the CPU
 * reference, dynamics/<Class>.h, made from (parameters, numSystems); `kind` an IntegratorKind, which says
 * what Velocities: and CellFilter: wrap; `small` whether the small-system path takes its step (those with a
 * device step on every device backend, so that every backend takes the path for the same runs); `cuda`
 * whether cuda has a twin, makeCuda<Class>. Adding an integrator is its class, its include in
 * dynamics/IntegratorFactory.cpp and a line here.
 */
#define HOOKMD_INTEGRATORS(X)                                         \
  X(VelocityVerlet, VelocityVerlet, MolecularDynamics, true, true)    \
  X(Langevin, Langevin, MolecularDynamics, true, true)                \
  X(NoseHooverChain, NoseHooverChain, MolecularDynamics, false, true) \
  X(NPT, Npt, MolecularDynamics, false, false)                        \
  X(NPTLangevin, NptLangevin, MolecularDynamics, false, false)        \
  X(FIRE, Fire, Optimizer, true, true)                                \
  X(FIRE2, Fire2, Optimizer, true, true)                              \
  X(GradientDescent, GradientDescent, Optimizer, true, true)          \
  X(LBFGS, Lbfgs, Optimizer, false, false)                            \
  X(External, ExternalIntegrator, External, false, false)

namespace hookmd {

/** What an entry of HOOKMD_INTEGRATORS is: Velocities: wraps molecular dynamics, CellFilter: an optimizer. */
enum class IntegratorKind { MolecularDynamics, Optimizer, External };

/** One entry of HOOKMD_INTEGRATORS, for the dispatchers that look a name up at run time. */
struct IntegratorEntry {
  const char* name;
  IntegratorKind kind;
  bool smallSystem;
};

inline constexpr IntegratorEntry kIntegrators[] = {
#define HOOKMD_INTEGRATOR_ENTRY(name, Class, kind, small, cuda) {#name, IntegratorKind::kind, small},
    HOOKMD_INTEGRATORS(HOOKMD_INTEGRATOR_ENTRY)
#undef HOOKMD_INTEGRATOR_ENTRY
};

struct StepContext {
  Backend& backend;
  /** One flag per system (host memory): 1 when the system is updated this step. */
  const std::uint8_t* active;
  /** The step being taken (stepCount). */
  std::int64_t step;
  /**
   * The same selection as status codes, for device kernels that read the status field where it lives
   * rather than the host flags: a system is updated when status < exitStatus and, for a sub-stage of a
   * FusedStage (stage ≥ 0), status == stage.
   */
  std::int32_t exitStatus;
  std::int32_t stage = -1;
  /**
   * Frozen atoms (FreezeAtomsHook), which change the degrees of freedom (math/DegreesOfFreedom.h): per
   * system their count and per atom a flag (host memory), or null when no atom is frozen.
   */
  const std::int32_t* frozenCount = nullptr;
  const std::uint8_t* frozenAtoms = nullptr;
  /** Changes whenever the frozen atoms do (a stream's refill), so a device copy of the counts knows to follow. */
  std::uint64_t frozenVersion = 0;

  /** The same step for the systems flagged in `systems`, as sub-stage `subStage` of a FusedStage. */
  StepContext subStage(const std::uint8_t* systems, std::int32_t subStage) const {
    StepContext own = *this;
    own.active = systems;
    own.stage = subStage;
    return own;
  }
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual const char* name() const noexcept = 0;
  /** Runs before the force computation of the step. */
  virtual void preUpdate(const StepContext& context) = 0;
  /** Runs after the force computation of the step. */
  virtual void postUpdate(const StepContext& context) = 0;
  /**
   * Runs after the step's convergence checks: moves on systems whose step budget ran out (FusedStage), so
   * that a system that converged in the same step leaves as converged.
   */
  virtual void afterConvergence(const StepContext&) {}
  /**
   * Whether every compute must also evaluate the stress, because the update reads it (a cell filter, a
   * barostat). Integrators that only move atoms leave the stress to the steps where a hook asks for it.
   */
  virtual bool needsStress() const noexcept { return false; }
  /**
   * Whether the update reads the energies. Integrators that only move atoms by their forces (VelocityVerlet,
   * Langevin) say no, so that steps no hook or check reads let a device leave the energy sums until a read
   * (Stepper::advance).
   */
  virtual bool readsEnergy() const noexcept { return true; }
  /** Replaces the per-system parameters (after a refill changed the number of systems, or a user edit). */
  virtual void updateParameters(const Parameters& parameters, std::int64_t numSystems) = 0;
  /** Per-system state (FIRE's dt and α, thermostat variables) for checkpoints and refills. */
  virtual std::vector<double> state() const { return {}; }
  virtual void loadState(const std::vector<double>&) {}
  /**
   * Per system, the steps it has taken in each sub-stage (numSystems rows of one count per sub-stage), from
   * which a FusedStage's log gives each system's MD time; empty for an integrator without sub-stages.
   */
  virtual std::vector<double> stageSteps() const { return {}; }
  /**
   * Keeps the state of the systems at `keep` (in that order) and appends `added` fresh systems, after the
   * batch was compacted or refilled.
   */
  virtual void remap(const std::vector<std::int64_t>& keep, std::int64_t added) = 0;
};

}  // namespace hookmd
