// An optimizer whose step works on one system's degrees of freedom at a time, as rows of three numbers
// (position, velocity, force). Without a cell filter the rows are the system's atoms in the batch arrays; a
// CellFilter hands the same step its atoms in the undeformed cell plus three rows of cell coordinates, as
// ASE's optimizers see a filter's (N + 3) × 3 arrays.
#pragma once

#include <cstdint>

#include "dynamics/Integrator.h"
#include "dynamics/ProgramLayout.h"
#include "dynamics/SystemStepper.h"

namespace hookmd {

/** One system's degrees of freedom: `count` rows of 3 positions, velocities and forces. */
struct OptimizerRows {
  double* x;
  /** Null for an optimizer that keeps no velocities. */
  double* v;
  const double* f;
  std::int64_t count;
};

class Optimizer : public Integrator, public SystemStepper {
 public:
  /** One step of system `s` on `rows`, with the forces of the current positions; systems run concurrently. */
  virtual void stepSystem(std::int64_t s, const OptimizerRows& rows) = 0;
  /** Checked before a round of stepSystem calls: per-system state and parameters cover `numSystems`. */
  virtual void requireCount(std::int64_t numSystems) const = 0;
  /** Whether the step reads and writes velocities (gradient descent and L-BFGS keep none). */
  virtual bool usesVelocities() const noexcept { return true; }

  /** The whole step runs here, on the batch's atoms, with the forces of the current positions. */
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext&) override {}

  void requireSystems(std::int64_t numSystems) const override { requireCount(numSystems); }
  /** The whole step of system s (stepSystem), on its atoms' copies. */
  void beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t, double, double) override {
    stepSystem(s, OptimizerRows{atoms.x, usesVelocities() ? atoms.v : nullptr, atoms.f, atoms.count});
  }

  /** The device operations of this optimizer's step on the one-block and the chunked paths (core/DeviceCosts.h). */
  struct DeviceProgram {
    DeviceOp single;
    DeviceOp chunked;
  };
  /** The step's device program where a device backend has one (FIRE, FIRE2, gradient descent); null otherwise. */
  virtual const DeviceProgram* deviceProgram() const noexcept { return nullptr; }

 private:
  ProgramLayout layout_;
};

}  // namespace hookmd
