#include "dynamics/IntegratorFactory.h"

#include <type_traits>
#include <vector>

#include "core/Error.h"
#include "dynamics/CellFilter.h"
#include "dynamics/ExternalIntegrator.h"
#include "dynamics/Fire.h"
#include "dynamics/Fire2.h"
#include "dynamics/FusedIntegrator.h"
#include "dynamics/GradientDescent.h"
#include "dynamics/InitialVelocities.h"
#include "dynamics/Langevin.h"
#include "dynamics/Lbfgs.h"
#include "dynamics/NoseHooverChain.h"
#include "dynamics/Npt.h"
#include "dynamics/NptLangevin.h"
#include "dynamics/VelocityVerlet.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {
// The kind column must say what the class is: CellFilter: hands an optimizer its rows.
#define HOOKMD_KIND_CHECK(name, Class, kind, small, cuda)                                                     \
  static_assert((IntegratorKind::kind == IntegratorKind::Optimizer) == std::is_base_of_v<Optimizer, Class>, \
                #name ": its kind disagrees with its class");
HOOKMD_INTEGRATORS(HOOKMD_KIND_CHECK)
#undef HOOKMD_KIND_CHECK

/** Whether `type` is an entry of HOOKMD_INTEGRATORS of kind `kind`. */
bool isKind(const std::string& type, IntegratorKind kind) {
  for (const IntegratorEntry& entry : kIntegrators) {
    if (entry.kind == kind && type == entry.name) return true;
  }
  return false;
}

/** The names of `kind`'s entries, as a message lists them: "A, B or C". */
std::string namesOf(IntegratorKind kind) {
  std::vector<std::string> names;
  for (const IntegratorEntry& entry : kIntegrators) {
    if (entry.kind == kind) names.emplace_back(entry.name);
  }
  std::string joined;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) joined += i + 1 == names.size() ? " or " : ", ";
    joined += names[i];
  }
  return joined;
}

/** Entry `Class` as a cell filter takes it; only the optimizers' branch is ever taken (the static_assert above). */
template <class Class>
std::unique_ptr<Optimizer> makeOptimizer(const Parameters& parameters, std::int64_t numSystems) {
  if constexpr (std::is_base_of_v<Optimizer, Class>) {
    return std::make_unique<Class>(parameters, numSystems);
  } else {
    return nullptr;
  }
}

// The optimizers a CellFilter can wrap: always the CPU reference, whose per-system step the filter drives
// on its own rows (on a device backend it runs on the host mirrors, as any kernel the device lacks).
std::unique_ptr<Optimizer> createOptimizer(const std::string& type, const Parameters& parameters, std::int64_t numSystems) {
#define HOOKMD_OPTIMIZER_CASE(name, Class, kind, small, cuda) \
  if (IntegratorKind::kind == IntegratorKind::Optimizer && type == #name) return makeOptimizer<Class>(parameters, numSystems);
  HOOKMD_INTEGRATORS(HOOKMD_OPTIMIZER_CASE)
#undef HOOKMD_OPTIMIZER_CASE
  fail("UNKNOWN_INTEGRATOR", "createIntegrator: a cell filter wraps " + namesOf(IntegratorKind::Optimizer) + ", not '" + type + "'");
}
}  // namespace

std::unique_ptr<Integrator> createIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                             std::int64_t numSystems) {
  return createKernel<operation::Integrator>(backend, type, parameters, numSystems);
}

std::unique_ptr<Integrator> createCpuIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                                std::int64_t numSystems) {
#define HOOKMD_CPU_INTEGRATOR(name, Class, kind, small, cuda) \
  if (type == #name) return std::make_unique<Class>(parameters, numSystems);
  HOOKMD_INTEGRATORS(HOOKMD_CPU_INTEGRATOR)
#undef HOOKMD_CPU_INTEGRATOR
  // "Velocities:NoseHooverChain": the named MD integrator, which draws each system's velocities first.
  const std::string velocities = "Velocities:";
  if (type.compare(0, velocities.size(), velocities) == 0) {
    const std::string inner = type.substr(velocities.size());
    if (!isKind(inner, IntegratorKind::MolecularDynamics)) {
      fail("UNKNOWN_INTEGRATOR", "createIntegrator: initial velocities go with " + namesOf(IntegratorKind::MolecularDynamics) + ", not '" + inner + "'");
    }
    return std::make_unique<InitialVelocities>(createIntegrator(backend, inner, parameters, numSystems), parameters, numSystems);
  }
  // "CellFilter:FIRE": the named optimizer relaxing positions and cell together.
  const std::string filtered = "CellFilter:";
  if (type.compare(0, filtered.size(), filtered) == 0) {
    return std::make_unique<CellFilter>(createOptimizer(type.substr(filtered.size()), parameters, numSystems), parameters, numSystems);
  }
  // "Fused:FIRE|Langevin": a FusedStage over the named sub-integrators.
  const std::string fused = "Fused:";
  if (type.compare(0, fused.size(), fused) == 0) {
    std::vector<std::string> types;
    std::size_t start = fused.size();
    for (std::size_t bar = type.find('|', start); ; bar = type.find('|', start)) {
      types.push_back(type.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
      if (bar == std::string::npos) break;
      start = bar + 1;
    }
    return std::make_unique<FusedIntegrator>(backend, types, parameters, numSystems);
  }
  std::string known;
  for (const IntegratorEntry& entry : kIntegrators) known += std::string(entry.name) + ", ";
  fail("UNKNOWN_INTEGRATOR", "createIntegrator: unknown integrator '" + type + "' (known: " + known +
                                 "Velocities:<integrator>, CellFilter:<optimizer>, Fused:A|B|...)");
}

}  // namespace hookmd
