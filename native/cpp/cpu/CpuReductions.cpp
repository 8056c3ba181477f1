#include "cpu/CpuReductions.h"

#include "core/Error.h"
#include "cpu/AtomLoops.h"
#include "math/Reductions.h"

namespace hookmd {

void reduceOnHost(const BatchStorage& arrays, Field field, ReduceOp op, double* out) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent != Extent::PerAtom || info.type != ElementType::Float64) {
    fail("INVALID_FIELD", std::string("reduce: field '") + info.name + "' is not a per-atom float64 field");
  }
  const double* values = arrays.f64(field);
  const int components = info.components;
  const int opIndex = static_cast<int>(op);
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double accumulator = reduceIdentity(opIndex);
    for (std::int32_t i = begin; i < end; ++i) {
      accumulator = reduceCombine(opIndex, accumulator,
                                  reduceAtomValue(opIndex, values + static_cast<std::int64_t>(i) * components, components));
    }
    out[s] = reduceFinish(opIndex, accumulator, end - begin);
  });
}

void entryMaxOnHost(const BatchStorage& arrays, Field field, ReduceOp entryOp, double* out) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent != Extent::PerAtom || info.type != ElementType::Float64) {
    fail("INVALID_FIELD", std::string("reduce: field '") + info.name + "' is not a per-atom float64 field");
  }
  const double* values = arrays.f64(field);
  const int components = info.components;
  const int opIndex = static_cast<int>(entryOp);
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double largest = begin < end ? -INFINITY : 0.0;
    for (std::int32_t i = begin; i < end; ++i) {
      // A NaN entry makes the system's value NaN, which no threshold accepts.
      if (largest != largest) break;
      const double value = entryReduce(opIndex, values + static_cast<std::int64_t>(i) * components, components);
      if (!(value <= largest)) largest = value;
    }
    out[s] = largest;
  });
}

void kineticEnergyOnHost(const BatchStorage& arrays, double* out) {
  const double* masses = arrays.f64(Field::Masses);
  const double* velocities = arrays.f64(Field::Velocities);
  const double forceToAccel = arrays.units.forceToAccel;
  forEachActiveSystem(arrays, nullptr, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double sum = 0.0;
    for (std::int32_t i = begin; i < end; ++i) {
      sum += atomKineticEnergy(masses[i], velocities + 3 * static_cast<std::int64_t>(i), forceToAccel);
    }
    out[s] = sum;
  });
}

}  // namespace hookmd
