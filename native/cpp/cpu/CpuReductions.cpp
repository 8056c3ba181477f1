#include "cpu/CpuReductions.h"

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/SystemReductions.h"

namespace hookmd {

namespace {
const FieldInfo& requirePerAtomFloat(Field field) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent != Extent::PerAtom || info.type != ElementType::Float64) {
    fail("INVALID_FIELD", std::string("reduce: field '") + info.name + "' is not a per-atom float64 field");
  }
  return info;
}
}  // namespace

void reduceOnHost(const BatchStorage& arrays, Field field, ReduceOp op, double* out) {
  const FieldInfo& info = requirePerAtomFloat(field);
  const double* values = arrays.f64(field);
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    out[s] = reduceSystem(static_cast<int>(op), values + static_cast<std::int64_t>(begin) * info.components, end - begin, info.components);
  });
}

void entryMaxOnHost(const BatchStorage& arrays, Field field, ReduceOp entryOp, double* out) {
  const FieldInfo& info = requirePerAtomFloat(field);
  const double* values = arrays.f64(field);
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    out[s] = entryMaxSystem(static_cast<int>(entryOp), values + static_cast<std::int64_t>(begin) * info.components, end - begin,
                            info.components);
  });
}

void kineticEnergyOnHost(const BatchStorage& arrays, double* out) {
  const double* masses = arrays.f64(Field::Masses);
  const double* velocities = arrays.f64(Field::Velocities);
  const double forceToAccel = arrays.units.forceToAccel;
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    out[s] = systemKineticEnergy(masses + begin, velocities + 3 * static_cast<std::int64_t>(begin), end - begin, forceToAccel);
  });
}

void reduceReference(Backend& backend, Field field, ReduceOp op, double* out) {
  reduceOnHost(backend.referenceArrays(true, reductionReads(field)), field, op, out);
}

void kineticEnergyReference(Backend& backend, double* out) {
  kineticEnergyOnHost(backend.referenceArrays(true, kineticEnergyReads()), out);
}

}  // namespace hookmd
