#include "dynamics/IntegratorFactory.h"

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
// The optimizers a CellFilter can wrap: always the CPU reference, whose per-system step the filter drives
// on its own rows (on a device backend it runs on the host mirrors, as any kernel the device lacks).
std::unique_ptr<Optimizer> createOptimizer(const std::string& type, const Parameters& parameters, std::int64_t numSystems) {
  if (type == "FIRE") return std::make_unique<Fire>(parameters, numSystems);
  if (type == "FIRE2") return std::make_unique<Fire2>(parameters, numSystems);
  if (type == "GradientDescent") return std::make_unique<GradientDescent>(parameters, numSystems);
  if (type == "LBFGS") return std::make_unique<Lbfgs>(parameters, numSystems);
  fail("UNKNOWN_INTEGRATOR", "createIntegrator: a cell filter wraps FIRE, FIRE2, GradientDescent or LBFGS, not '" + type + "'");
}

bool isMolecularDynamics(const std::string& type) {
  return type == "VelocityVerlet" || type == "Langevin" || type == "NoseHooverChain" || type == "NPT" || type == "NPTLangevin";
}
}  // namespace

std::unique_ptr<Integrator> createIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                             std::int64_t numSystems) {
  return createKernel<operation::Integrator>(backend, type, parameters, numSystems);
}

std::unique_ptr<Integrator> createCpuIntegrator(Backend& backend, const std::string& type, const Parameters& parameters,
                                                std::int64_t numSystems) {
  if (type == "VelocityVerlet") return std::make_unique<VelocityVerlet>(parameters, numSystems);
  if (type == "Langevin") return std::make_unique<Langevin>(parameters, numSystems);
  if (type == "NoseHooverChain") return std::make_unique<NoseHooverChain>(parameters, numSystems);
  if (type == "NPT") return std::make_unique<Npt>(parameters, numSystems);
  if (type == "NPTLangevin") return std::make_unique<NptLangevin>(parameters, numSystems);
  if (type == "FIRE") return std::make_unique<Fire>(parameters, numSystems);
  if (type == "FIRE2") return std::make_unique<Fire2>(parameters, numSystems);
  if (type == "GradientDescent") return std::make_unique<GradientDescent>(parameters, numSystems);
  if (type == "LBFGS") return std::make_unique<Lbfgs>(parameters, numSystems);
  if (type == "External") return std::make_unique<ExternalIntegrator>();
  // "Velocities:NoseHooverChain": the named MD integrator, which draws each system's velocities first.
  const std::string velocities = "Velocities:";
  if (type.compare(0, velocities.size(), velocities) == 0) {
    const std::string inner = type.substr(velocities.size());
    if (!isMolecularDynamics(inner)) {
      fail("UNKNOWN_INTEGRATOR", "createIntegrator: initial velocities go with VelocityVerlet, Langevin, NoseHooverChain, NPT or NPTLangevin, not '" + inner + "'");
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
  fail("UNKNOWN_INTEGRATOR", "createIntegrator: unknown integrator '" + type +
                                 "' (known: VelocityVerlet, Langevin, NoseHooverChain, NPT, NPTLangevin, FIRE, FIRE2, GradientDescent, LBFGS, External, Velocities:<integrator>, CellFilter:<optimizer>, Fused:A|B|...)");
}

}  // namespace hookmd
