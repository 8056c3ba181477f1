#include "dynamics/Fire.h"

#include <cmath>

#include "math/CappedStep.h"

namespace hookmd {

Fire::Fire(const Parameters& parameters, std::int64_t numSystems)
    : Optimizer("FIRE", true, numSystems), rows_("FIRE", {0.0, 0.0, 0.0, 1.0}, numSystems) {
  updateParameters(parameters, numSystems);
}

void Fire::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  auto get = [&](const char* name) { return parameters.perSystem("FIRE", name, numSystems); };
  const auto dt = get("dt"), dtMax = get("dtMax"), dtMin = get("dtMin"), maxStep = get("maxStep"), nMin = get("nMin"),
             fInc = get("fInc"), fDec = get("fDec"), alphaStart = get("alphaStart"), fAlpha = get("fAlpha");
  std::vector<FireParameters> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s] = FireParameters{dt[s], dtMax[s], dtMin[s], maxStep[s], nMin[s], fInc[s], fDec[s], alphaStart[s], fAlpha[s]};
  }
  systems_ = std::move(systems);
}

void Fire::stepSystem(std::int64_t s, const OptimizerRows& rows) {
  double* x = rows.x;
  double* v = rows.v;
  const double* f = rows.f;
  const std::int64_t count = rows.count;
  const FireParameters& p = systems_[s];
  double* row = rows_.row(s);
  FireState state{row[0], row[1], row[2], row[3]};
  FirePower power;
  if (state.first == 0.0) {
    for (std::int64_t i = 0; i < count; ++i) accumulatePower(power, v + 3 * i, f + 3 * i);
  }
  const FireMixing mixing = fireAdvance(state, p, power);
  double stepSquared = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    fireKick(v + 3 * i, f + 3 * i, mixing, state.dt);
    stepSquared += stepSquaredNorm(v + 3 * i, state.dt);
  }
  const double stepNorm = std::sqrt(stepSquared);
  for (std::int64_t i = 0; i < count; ++i) applyCappedStep(x + 3 * i, v + 3 * i, state.dt, stepNorm, p.maxStep);
  row[0] = state.dt;
  row[1] = state.alpha;
  row[2] = state.nSteps;
  row[3] = state.first;
}

}  // namespace hookmd
