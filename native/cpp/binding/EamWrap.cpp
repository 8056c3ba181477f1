#include "binding/EamWrap.h"

#include <cmath>
#include <string>

#include "models/Eam.h"

namespace hookmd::binding {

namespace {
std::vector<double> copyOf(const Napi::Float64Array& array) { return {array.Data(), array.Data() + array.ElementLength()}; }

int requireInteger(Napi::Env env, double value, const char* what) {
  if (!(value >= 0.0 && value <= 2147483647.0) || std::floor(value) != value) {
    throwJs(env, "INVALID_ARGUMENT", std::string("EAM: ") + what + " must be a non-negative integer");
  }
  return static_cast<int>(value);
}
}  // namespace

Napi::Function EamWrap::define(Napi::Env env) { return DefineClass(env, "EAM", sharedMembers()); }

EamWrap::EamWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<EamWrap>(info) {
  const Napi::Env env = info.Env();
  EamFileData data;
  const std::string format = requireString(info, 0, "EAM: format");
  if (format == "funcfl") {
    data.format = EamFormat::Funcfl;
  } else if (format == "setfl") {
    data.format = EamFormat::Setfl;
  } else if (format == "fs") {
    data.format = EamFormat::FinnisSinclair;
  } else {
    throwJs(env, "INVALID_ARGUMENT", "EAM: format must be 'funcfl', 'setfl' or 'fs', got '" + format + "'");
  }
  const Napi::Float64Array elements = requireFloat64Array(info, 1, "EAM: elements", -1);
  for (std::size_t k = 0; k < elements.ElementLength(); ++k) data.elements.push_back(requireInteger(env, elements[k], "elements"));
  const Napi::Float64Array grid = requireFloat64Array(info, 2, "EAM: grid", 5);
  data.nrho = requireInteger(env, grid[0], "nrho");
  data.drho = grid[1];
  data.nr = requireInteger(env, grid[2], "nr");
  data.dr = grid[3];
  data.cutoff = grid[4];
  data.frho = copyOf(requireFloat64Array(info, 3, "EAM: frho", -1));
  data.rhor = copyOf(requireFloat64Array(info, 4, "EAM: rhor", -1));
  data.z2r = copyOf(requireFloat64Array(info, 5, "EAM: z2r", -1));
  const std::optional<double> skin = PotentialWrap::optionalSkin(info, 6, "EAM: skin");
  guard(env, [&] { setPotential(std::make_shared<Eam>(data, skin)); });
}

}  // namespace hookmd::binding
