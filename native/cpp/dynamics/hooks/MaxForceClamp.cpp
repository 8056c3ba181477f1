#include "dynamics/hooks/MaxForceClamp.h"

#include <cmath>

#include "cpu/AtomLoops.h"
#include "math/Reductions.h"

namespace hookmd {

void MaxForceClamp::apply(Backend& backend, DynamicsStage, std::int64_t, const std::uint8_t* active) {
  BatchStorage& host = backend.arraysFor(Kernel::NativeHooks, {Field::Forces, Field::SystemIndex, Field::Ptr}, {Field::Forces});
  double* forces = host.f64(Field::Forces);
  forEachActiveAtom(host, active, [&](std::int64_t i, std::int32_t) {
    double* f = forces + 3 * i;
    const double norm = std::sqrt(squaredNorm3(f));
    if (norm > maxForce_) {
      const double scale = maxForce_ / norm;
      for (int c = 0; c < 3; ++c) f[c] *= scale;
    }
  });
}

}  // namespace hookmd
