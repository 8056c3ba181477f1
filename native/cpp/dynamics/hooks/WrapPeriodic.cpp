#include "dynamics/hooks/WrapPeriodic.h"

#include <cmath>
#include <vector>

#include "cpu/AtomLoops.h"
#include "math/CellMath.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

void WrapPeriodic::apply(Backend& backend, DynamicsStage, std::int64_t, const std::uint8_t* active) {
  BatchStorage& host = arraysFor(backend, Kernel::NativeHooks, {Field::Positions, Field::Cell, Field::Pbc, Field::Ptr, Field::SystemIndex}, {Field::Positions});
  selection_.update(backend, active);
  backend.chargeAtomKernel(DeviceOp::HookKernel);
  double* positions = host.f64(Field::Positions);
  const double* cells = host.f64(Field::Cell);
  const std::uint8_t* pbc = host.u8(Field::Pbc);
  forEachActiveSystem(host, active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    const std::uint8_t* periodic = pbc + 3 * s;
    if (!(periodic[0] || periodic[1] || periodic[2])) return;
    double cell[9];
    completeCell(cells + 9 * s, periodic, cell);
    double inverse[9];
    if (!invert3(cell, inverse)) return;
    for (std::int32_t i = begin; i < end; ++i) {
      double fractional[3];
      toFractional(positions + 3 * i, inverse, fractional);
      for (int k = 0; k < 3; ++k) {
        if (periodic[k]) fractional[k] -= std::floor(fractional[k]);
      }
      toCartesian(fractional, cell, positions + 3 * i);
    }
  });
}

}  // namespace hookmd
