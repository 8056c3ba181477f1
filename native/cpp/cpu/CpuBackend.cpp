#include "cpu/CpuBackend.h"

#include "core/BackendRegistry.h"
#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/AtomLoops.h"
#include "math/Reductions.h"

namespace hookmd {

namespace {
template <typename PerSystem>
void forEachSystem(const BatchStorage& storage, PerSystem&& body) {
  forEachActiveSystem(storage, nullptr, body);
}
}  // namespace

std::string CpuBackend::device() const {
  return std::to_string(ThreadPool::global().threads()) + " threads";
}

bool CpuBackend::supports(const std::string&) const { return true; }

void CpuBackend::reduce(Field field, ReduceOp op, double* out) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent != Extent::PerAtom || info.type != ElementType::Float64) {
    fail("INVALID_FIELD", std::string("reduce: field '") + info.name + "' is not a per-atom float64 field");
  }
  const double* values = storage_.f64(field);
  const int components = info.components;
  const int opIndex = static_cast<int>(op);
  forEachSystem(storage_, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double accumulator = reduceIdentity(opIndex);
    for (std::int32_t i = begin; i < end; ++i) {
      accumulator = reduceCombine(opIndex, accumulator,
                                  reduceAtomValue(opIndex, values + static_cast<std::int64_t>(i) * components,
                                                  components));
    }
    out[s] = reduceFinish(opIndex, accumulator, end - begin);
  });
}

void CpuBackend::kineticEnergy(double* out) {
  const double* masses = storage_.f64(Field::Masses);
  const double* velocities = storage_.f64(Field::Velocities);
  const double forceToAccel = storage_.units.forceToAccel;
  forEachSystem(storage_, [&](std::int64_t s, std::int32_t begin, std::int32_t end) {
    double sum = 0.0;
    for (std::int32_t i = begin; i < end; ++i) {
      sum += atomKineticEnergy(masses[i], velocities + 3 * static_cast<std::int64_t>(i), forceToAccel);
    }
    out[s] = sum;
  });
}

void CpuBackend::fmax(double* out) { reduce(Field::Forces, ReduceOp::Max, out); }

void registerCpuBackend() {
  BackendEntry entry;
  entry.name = "cpu";
  entry.probe = [] {
    BackendAvailability availability;
    availability.available = true;
    availability.device = std::to_string(ThreadPool::global().threads()) + " threads";
    return availability;
  };
  entry.create = [] { return std::unique_ptr<Backend>(new CpuBackend()); };
  registerBackend(std::move(entry));
}

}  // namespace hookmd
