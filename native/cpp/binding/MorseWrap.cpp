#include "binding/MorseWrap.h"

#include "models/Morse.h"

namespace hookmd::binding {

Napi::Function MorseWrap::define(Napi::Env env) { return DefineClass(env, "Morse", sharedMembers()); }

MorseWrap::MorseWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<MorseWrap>(info) {
  MorseOptions options;
  for (const double* row : PotentialWrap::requirePairRows(info, 0, "Morse: pairs", 6)) {
    options.pairs.push_back(MorsePair{static_cast<int>(row[0]), static_cast<int>(row[1]), row[2], row[3], row[4], row[5]});
  }
  options.shift = PotentialWrap::requireFlag(info, 1, "Morse: shift");
  options.switchOn = requireNumber(info, 2, "Morse: switchOn");
  options.skin = PotentialWrap::optionalSkin(info, 3, "Morse: skin");
  guard(info.Env(), [&] { setPotential(std::make_shared<Morse>(options)); });
}

}  // namespace hookmd::binding
