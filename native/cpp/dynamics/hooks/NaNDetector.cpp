#include "dynamics/hooks/NaNDetector.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

void NaNDetector::apply(Backend& backend, DynamicsStage, std::int64_t step, const std::uint8_t* active) {
  BatchStorage& host = arraysFor(backend, Kernel::NativeHooks, {Field::Positions, Field::Velocities, Field::Forces, Field::Energy, Field::SystemId, Field::Ptr});
  if (host.numSystems() == 0) return;
  selection_.update(backend, active);
  // Two flag resets, the scan, one word read back (the per-system flags only when it fails).
  backend.charge(DeviceOp::NonFiniteScan, DeviceWork{1, static_cast<std::uint64_t>(host.numAtoms()),
                                                     static_cast<std::uint64_t>(host.numSystems()), 0, sizeof(unsigned int), 0});
  const double* x = host.f64(Field::Positions);
  const double* v = host.f64(Field::Velocities);
  const double* f = host.f64(Field::Forces);
  const double* energy = host.f64(Field::Energy);
  const std::int32_t* ids = host.i32(Field::SystemId);
  std::vector<std::uint8_t> bad(static_cast<std::size_t>(host.numSystems()), 0);
  forEachActiveSystem(host, active, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    bool finite = std::isfinite(energy[s]);
    for (std::int64_t k = 3 * static_cast<std::int64_t>(begin); finite && k < 3 * static_cast<std::int64_t>(end); ++k) {
      finite = std::isfinite(x[k]) && std::isfinite(v[k]) && std::isfinite(f[k]);
    }
    bad[s] = finite ? 0 : 1;
  });
  std::string systems;
  for (std::size_t s = 0; s < bad.size(); ++s) {
    if (!bad[s]) continue;
    if (!systems.empty()) systems += ", ";
    systems += std::to_string(s) + " (systemId " + std::to_string(ids[s]) + ")";
  }
  if (!systems.empty()) {
    fail("NAN_DETECTED", "NaNDetectorHook: non-finite values at step " + std::to_string(step) + " in systems " + systems);
  }
}

}  // namespace hookmd
