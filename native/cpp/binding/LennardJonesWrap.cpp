#include "binding/LennardJonesWrap.h"

#include "models/LennardJones.h"

namespace hookmd::binding {

Napi::Function LennardJonesWrap::define(Napi::Env env) {
  return DefineClass(env, "LennardJones", sharedMembers());
}

LennardJonesWrap::LennardJonesWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<LennardJonesWrap>(info) {
  LennardJonesOptions options;
  for (const double* row : PotentialWrap::requirePairRows(info, 0, "LennardJones: pairs", 5)) {
    options.pairs.push_back(LennardJonesPair{static_cast<int>(row[0]), static_cast<int>(row[1]), row[2], row[3], row[4]});
  }
  options.shift = PotentialWrap::requireFlag(info, 1, "LennardJones: shift");
  options.switchOn = requireNumber(info, 2, "LennardJones: switchOn");
  options.skin = PotentialWrap::optionalSkin(info, 3, "LennardJones: skin");
  guard(info.Env(), [&] { setPotential(std::make_shared<LennardJones>(options)); });
}

}  // namespace hookmd::binding
