#include "dynamics/Optimizer.h"

#include <algorithm>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "dynamics/StateParts.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

Optimizer::Optimizer(const char* owner, bool keepsVelocities, std::int64_t numSystems) : owner_(owner) {
  if (keepsVelocities) velocities_ = std::make_unique<AtomRows>(owner, 3, 0, numSystems);
}

void Optimizer::setExtraRows(int rows) {
  if (velocities_) velocities_ = std::make_unique<AtomRows>(owner_, 3, rows, velocities_->count());
}

void Optimizer::fitVelocities(const std::int32_t* ptr, std::int64_t numSystems) {
  if (velocities_) velocities_->fit(ptr, numSystems);
}

// Each system is one task, so the sums inside a step run in atom order whatever the thread count.
void Optimizer::preUpdate(const StepContext& context) {
  BatchStorage& host = arraysFor(context.backend, Kernel::Integrator, {Field::Status, Field::Positions, Field::Velocities, Field::Forces, Field::Ptr},
      {Field::Positions, Field::Velocities});
  requireCount(host.numSystems());
  // What the device twin of this step launches (docs/cuda.md, "The device ledger").
  if (const DeviceProgram* program = deviceProgram()) {
    layout_.update(context.backend, name());
    layout_.chargeStep(context.backend, program->single, program->chunked);
  }
  const std::int32_t* ptr = host.i32(Field::Ptr);
  fitVelocities(ptr, host.numSystems());
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    std::fill(v + 3 * begin, v + 3 * end, 0.0);
    stepSystem(s, OptimizerRows{x + 3 * begin, velocities(s), f + 3 * begin, end - begin});
  });
}

void Optimizer::beforeForces(std::int64_t s, const SystemAtoms& atoms, std::int64_t, double, double) {
  std::fill(atoms.v, atoms.v + 3 * atoms.count, 0.0);
  stepSystem(s, OptimizerRows{atoms.x, velocities(s), atoms.f, atoms.count});
}

std::vector<double> Optimizer::state() const {
  if (!velocities_) return ownState();
  return joinState({ownState(), velocities_->save()});
}

void Optimizer::loadState(const std::vector<double>& state) {
  if (!velocities_) {
    loadOwnState(state);
    return;
  }
  const std::vector<std::vector<double>> parts = splitState(state, 2, owner_);
  // Both parts are checked before either is kept, so a bad state changes nothing.
  AtomRows velocities = *velocities_;
  velocities.load(parts[1]);
  loadOwnState(parts[0]);
  *velocities_ = std::move(velocities);
}

void Optimizer::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  remapOwn(keep, added);
  if (velocities_) velocities_->remap(keep, added);
}

}  // namespace hookmd
