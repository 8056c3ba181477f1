#include "binding/EdgeListWrap.h"

#include "binding/Args.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "binding/PotentialWrap.h"

namespace hookmd::binding {

Napi::Function EdgeListWrap::define(Napi::Env env) {
  return DefineClass(env, "EdgeList", {InstanceMethod("build", &EdgeListWrap::build), InstanceMethod("neighborStats", &EdgeListWrap::neighborStats)});
}

EdgeListWrap::EdgeListWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EdgeListWrap>(info) {
  const double cutoff = requireNumber(info, 0, "EdgeList: cutoff");
  const double skin = requireNumber(info, 1, "EdgeList: skin");
  guard(info.Env(), [&] { edges_ = std::make_unique<EdgeList>(cutoff, skin); });
}

Napi::Value EdgeListWrap::build(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  Backend& backend = BatchWrap::backendOf(env, info[0]);
  if (info.Length() < 3 || !info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_bigint64_array) {
    throwJs(env, "INVALID_ARGUMENT", "EdgeList.build: index must be a BigInt64Array");
  }
  if (!info[2].IsTypedArray()) throwJs(env, "INVALID_ARGUMENT", "EdgeList.build: shift must be a Float64Array or Float32Array");
  const Napi::TypedArray index = info[1].As<Napi::TypedArray>();
  const Napi::TypedArray shift = info[2].As<Napi::TypedArray>();
  const napi_typedarray_type shiftType = shift.TypedArrayType();
  if (shiftType != napi_float64_array && shiftType != napi_float32_array) {
    throwJs(env, "INVALID_ARGUMENT", "EdgeList.build: shift must be a Float64Array or Float32Array");
  }
  return guard(env, [&]() -> Napi::Value {
    const std::int64_t edges = edges_->update(backend);
    const bool fits = static_cast<std::int64_t>(index.ElementLength()) >= 2 * edges &&
                      static_cast<std::int64_t>(shift.ElementLength()) >= 3 * edges;
    if (fits && edges > 0) {
      std::int64_t* sources = index.As<Napi::TypedArrayOf<std::int64_t>>().Data();
      if (shiftType == napi_float64_array) {
        edges_->write(sources, sources + edges, shift.As<Napi::Float64Array>().Data());
      } else {
        edges_->write(sources, sources + edges, shift.As<Napi::Float32Array>().Data());
      }
    }
    return Napi::Number::New(env, static_cast<double>(edges));
  });
}

Napi::Value EdgeListWrap::neighborStats(const Napi::CallbackInfo& info) {
  return PotentialWrap::neighborStatsObject(info.Env(), edges_->neighborStats());
}

}  // namespace hookmd::binding
