#include "dynamics/Fire2.h"

#include <cmath>

#include "math/CappedStep.h"
#include "math/Reductions.h"

namespace hookmd {

Fire2::Fire2(const Parameters& parameters, std::int64_t numSystems)
    : Optimizer("FIRE2", true, numSystems), rows_("FIRE2", {0.0, 0.0, 0.0, 0.0}, numSystems) {
  updateParameters(parameters, numSystems);
}

void Fire2::updateParameters(const Parameters& parameters, std::int64_t numSystems) {
  auto get = [&](const char* name) { return parameters.perSystem("FIRE2", name, numSystems); };
  const auto dt = get("dt"), dtMax = get("dtMax"), dtMin = get("dtMin"), maxStep = get("maxStep"),
             nDelay = get("nDelay"), fInc = get("fInc"), fDec = get("fDec"), alphaStart = get("alphaStart"),
             fAlpha = get("fAlpha");
  std::vector<Fire2Parameters> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s] = Fire2Parameters{dt[s], dtMax[s], dtMin[s], maxStep[s], nDelay[s], fInc[s], fDec[s], alphaStart[s], fAlpha[s]};
  }
  systems_ = std::move(systems);
}

void Fire2::stepSystem(std::int64_t s, const OptimizerRows& rows) {
  double* x = rows.x;
  double* v = rows.v;
  const double* f = rows.f;
  const std::int64_t count = rows.count;
  const Fire2Parameters& p = systems_[s];
  double* row = rows_.row(s);
  Fire2State state{row[0], row[1], row[2], row[3]};
  FirePower power;
  for (std::int64_t i = 0; i < count; ++i) accumulatePower(power, v + 3 * i, f + 3 * i);
  const Fire2Reset reset = fire2Advance(state, p, power.vf);
  double speedSquared = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    fire2Kick(x + 3 * i, v + 3 * i, f + 3 * i, reset, state.dt);
    speedSquared += squaredNorm3(v + 3 * i);
  }
  // F = 0 means P = 0, so the velocities were just reset to zero and there is nothing to mix.
  const double forceNorm = std::sqrt(power.ff);
  const double speedNorm = std::sqrt(speedSquared);
  double stepSquared = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    if (forceNorm > 0.0) mixVelocity(v + 3 * i, f + 3 * i, state.alpha, forceNorm, speedNorm);
    stepSquared += stepSquaredNorm(v + 3 * i, state.dt);
  }
  const double stepNorm = std::sqrt(stepSquared);
  for (std::int64_t i = 0; i < count; ++i) {
    applyCappedStep(x + 3 * i, v + 3 * i, state.dt, stepNorm, p.maxStep);
    fire2MatchVelocity(v + 3 * i, stepNorm, p.maxStep);
  }
  row[0] = state.dt;
  row[1] = state.alpha;
  row[2] = state.nPositive;
  row[3] = state.steps;
}

}  // namespace hookmd
