#include "dynamics/Optimizer.h"

#include "cpu/AtomLoops.h"

namespace hookmd {

// Each system is one task, so the sums inside a step run in atom order whatever the thread count.
void Optimizer::preUpdate(const StepContext& context) {
  const bool velocities = usesVelocities();
  BatchStorage& host = context.backend.arraysFor(
      Kernel::Integrator,
      FieldSet{Field::Status, Field::Positions, Field::Forces, Field::Ptr}.with(Field::Velocities, velocities),
      FieldSet{Field::Positions}.with(Field::Velocities, velocities));
  requireCount(host.numSystems());
  // What the device twin of this step launches (docs/cuda.md, "The device ledger").
  if (const DeviceProgram* program = deviceProgram()) {
    layout_.update(context.backend, name());
    layout_.chargeStep(context.backend, program->single, program->chunked);
  }
  double* x = host.f64(Field::Positions);
  double* v = velocities ? host.f64(Field::Velocities) : nullptr;
  const double* f = host.f64(Field::Forces);
  forEachActiveSystem(host, context.active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    stepSystem(s, OptimizerRows{x + 3 * begin, v == nullptr ? nullptr : v + 3 * begin, f + 3 * begin, end - begin});
  });
}

}  // namespace hookmd
