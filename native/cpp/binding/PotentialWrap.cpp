#include "binding/PotentialWrap.h"

#include <cmath>
#include <string>

#include "binding/EamWrap.h"
#include "binding/ManyBodyWrap.h"
#include "binding/SnapWrap.h"
#include "binding/PairPotentialWrap.h"

namespace hookmd::binding {

namespace {
bool hasTag(Napi::Env env, const Napi::Object& object, const napi_type_tag& tag) {
  bool result = false;
  return napi_check_object_type_tag(env, object, &tag, &result) == napi_ok && result;
}
}  // namespace

std::shared_ptr<Potential> PotentialWrap::potentialOf(Napi::Env env, const Napi::Value& value) {
  if (value.IsObject()) {
    const Napi::Object object = value.As<Napi::Object>();
    // One line per potential class: the tag says which ObjectWrap type to unwrap.
    if (hasTag(env, object, PairPotentialWrap::kTypeTag)) return PairPotentialWrap::Unwrap(object)->potential();
    if (hasTag(env, object, EamWrap::kTypeTag)) return EamWrap::Unwrap(object)->potential();
    if (hasTag(env, object, ManyBodyWrap::kTypeTag)) return ManyBodyWrap::Unwrap(object)->potential();
    if (hasTag(env, object, SnapWrap::kTypeTag)) return SnapWrap::Unwrap(object)->potential();
  }
  throwJs(env, "INVALID_ARGUMENT", "expected a native potential (PairPotential, EAM, ManyBody, Snap)");
}

bool PotentialWrap::requireFlag(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsBoolean()) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be a boolean");
  }
  return info[index].As<Napi::Boolean>().Value();
}

std::vector<const double*> PotentialWrap::requirePairRows(const Napi::CallbackInfo& info, std::size_t index,
                                                          const char* what, std::size_t columns) {
  const Napi::Float64Array table = requireFloat64Array(info, index, what, -1);
  const std::size_t length = table.ElementLength();
  if (length == 0 || length % columns != 0) {
    throwJs(info.Env(), "INVALID_ARGUMENT",
            std::string(what) + " must hold rows of " + std::to_string(columns) + " numbers, got " + std::to_string(length));
  }
  std::vector<const double*> rows;
  for (std::size_t r = 0; r < length / columns; ++r) {
    const double* row = table.Data() + r * columns;
    for (int k = 0; k < 2; ++k) {
      if (!(row[k] >= 0.0 && row[k] <= 1000.0 && row[k] == std::floor(row[k]))) {
        throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + ": species must be atomic numbers");
      }
    }
    rows.push_back(row);
  }
  return rows;
}

std::optional<double> PotentialWrap::optionalSkin(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || info[index].IsUndefined()) return std::nullopt;
  return requireNumber(info, index, what);
}

Napi::Object PotentialWrap::neighborStatsObject(Napi::Env env, const NeighborStats& stats) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("builds", static_cast<double>(stats.builds));
  out.Set("resets", static_cast<double>(stats.resets));
  out.Set("pairs", static_cast<double>(stats.pairs));
  out.Set("systems", static_cast<double>(stats.systems));
  out.Set("bytes", static_cast<double>(stats.bytes));
  return out;
}

}  // namespace hookmd::binding
