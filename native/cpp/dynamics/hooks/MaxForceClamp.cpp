#include "dynamics/hooks/MaxForceClamp.h"

#include "cpu/AtomLoops.h"
#include "math/ForceClamp.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

void MaxForceClamp::apply(Backend& backend, DynamicsStage, std::int64_t, const std::uint8_t* active) {
  BatchStorage& host = arraysFor(backend, Kernel::NativeHooks, {Field::Forces, Field::SystemIndex, Field::Ptr}, {Field::Forces});
  selection_.update(backend, active);
  backend.chargeAtomKernel(DeviceOp::HookKernel);
  double* forces = host.f64(Field::Forces);
  forEachActiveAtom(host, active, [&](std::int64_t i, std::int32_t) { clampForce(forces + 3 * i, maxForce_); });
}

}  // namespace hookmd
