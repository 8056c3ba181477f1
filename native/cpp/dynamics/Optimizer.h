// An optimizer whose step works on one system's degrees of freedom at a time, as rows of three numbers
// (position, velocity, force). Without a cell filter the rows are the system's atoms in the batch arrays; a
// CellFilter hands the same step its atoms in the undeformed cell plus three rows of cell coordinates, as
// ASE's optimizers see a filter's (N + 3) × 3 arrays.
//
// An optimizer's velocities (FIRE's, FIRE2's) are its own state, kept here per atom (AtomRows), never in the
// batch: they are minimizer bookkeeping, not motion. Every step holds the batch velocities of the systems it
// updates at zero, so no temperature, no momenta and no next engine ever sees them (docs/dynamics.md,
// "Optimizer state").
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dynamics/AtomRows.h"
#include "kernels/Integrator.h"
#include "dynamics/ProgramLayout.h"
#include "kernels/SystemStepper.h"

namespace hookmd {

/** One system's degrees of freedom: `count` rows of 3 positions, velocities and forces. */
struct OptimizerRows {
  double* x;
  /** The optimizer's own velocities of these rows; null for an optimizer that keeps none. */
  double* v;
  const double* f;
  std::int64_t count;
};

class Optimizer : public Integrator, public SystemStepper {
 public:
  /** `keepsVelocities`: the step carries velocities from one step to the next (FIRE, FIRE2). */
  Optimizer(const char* owner, bool keepsVelocities, std::int64_t numSystems);

  /** One step of system `s` on `rows`, with the forces of the current positions; systems run concurrently. */
  virtual void stepSystem(std::int64_t s, const OptimizerRows& rows) = 0;
  /** Checked before a round of stepSystem calls: per-system state and parameters cover `numSystems`. */
  virtual void requireCount(std::int64_t numSystems) const = 0;

  /** A cell filter's rows: every system steps `rows` more rows than it has atoms. Call before the first step. */
  void setExtraRows(int rows);
  /** Sizes the velocities for the batch layout `ptr`: new systems start at rest. */
  void fitVelocities(const std::int32_t* ptr, std::int64_t numSystems);
  /** System s's velocity rows after fitVelocities(), or null when the optimizer keeps none. */
  double* velocities(std::int64_t s) { return velocities_ ? velocities_->system(s) : nullptr; }

  /** The whole step runs here, on the batch's atoms, with the forces of the current positions. */
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext&) override {}

  /** requireCount(), and the velocities sized for the layout `ptr`. */
  void prepareSystems(const std::int32_t* ptr, std::int64_t numSystems) override {
    requireCount(numSystems);
    fitVelocities(ptr, numSystems);
  }
  /** The whole step of system s (stepSystem) on its atoms' copies, with its own velocities; the batch's stay zero. */
  void beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t, double, double) override;

  /** The device operations of this optimizer's step on the one-block and the chunked paths (core/DeviceCosts.h). */
  struct DeviceProgram {
    DeviceOp single;
    DeviceOp chunked;
  };
  /** The step's device program where a device backend has one (FIRE, FIRE2, gradient descent); null otherwise. */
  virtual const DeviceProgram* deviceProgram() const noexcept { return nullptr; }

  /** ownState(), then (when kept) the velocities, as joinState() parts (dynamics/StateParts.h). */
  std::vector<double> state() const final;
  void loadState(const std::vector<double>& state) final;
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) final;

 protected:
  /** The per-system state of the step (dt, α, histories). */
  virtual std::vector<double> ownState() const = 0;
  virtual void loadOwnState(const std::vector<double>& state) = 0;
  virtual void remapOwn(const std::vector<std::int64_t>& keep, std::int64_t added) = 0;

 private:
  ProgramLayout layout_;
  const char* owner_;
  std::unique_ptr<AtomRows> velocities_;
};

}  // namespace hookmd
