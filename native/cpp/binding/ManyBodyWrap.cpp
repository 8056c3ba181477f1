#include "binding/ManyBodyWrap.h"

#include <cmath>
#include <string>

#include "models/ManyBodyPotential.h"

namespace hookmd::binding {

Napi::Function ManyBodyWrap::define(Napi::Env env) { return DefineClass(env, "ManyBody", sharedMembers()); }

ManyBodyWrap::ManyBodyWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<ManyBodyWrap>(info) {
  const Napi::Env env = info.Env();
  const std::string name = requireString(info, 0, "ManyBody: name");
  // The name outlives this call: it starts every message the potential throws.
  static const char* const kNames[] = {"Tersoff", "StillingerWeber"};
  const char* stable = nullptr;
  for (const char* known : kNames) {
    if (name == known) stable = known;
  }
  if (stable == nullptr) throwJs(env, "INVALID_ARGUMENT", "ManyBody: name must be 'Tersoff' or 'StillingerWeber', got '" + name + "'");
  const std::string styleName = requireString(info, 1, "ManyBody: style");
  ManyBodyStyle style;
  if (!ManyBodyPotential::styleFromName(styleName, style)) throwJs(env, "INVALID_ARGUMENT", "ManyBody: unknown style '" + styleName + "'");
  const Napi::Float64Array elements = requireFloat64Array(info, 2, "ManyBody: elements", -1);
  std::vector<int> atomicNumbers;
  for (std::size_t k = 0; k < elements.ElementLength(); ++k) {
    const double z = elements[k];
    if (!(z >= 1.0 && z <= 118.0) || std::floor(z) != z) throwJs(env, "INVALID_ARGUMENT", "ManyBody: elements must be atomic numbers");
    atomicNumbers.push_back(static_cast<int>(z));
  }
  const Napi::Float64Array entries = requireFloat64Array(info, 3, "ManyBody: entries", -1);
  const std::vector<double> numbers(entries.Data(), entries.Data() + entries.ElementLength());
  const std::optional<double> skin = PotentialWrap::optionalSkin(info, 4, "ManyBody: skin");
  guard(env, [&] { setPotential(std::make_shared<ManyBodyPotential>(stable, style, atomicNumbers, numbers, skin)); });
}

}  // namespace hookmd::binding
