#include "binding/LossWrap.h"

#include <algorithm>
#include <string>
#include <vector>

#include "binding/Args.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "binding/TrainingArgs.h"
#include "binding/PotentialWrap.h"
#include "training/PairLossFactory.h"

namespace hookmd::binding {

Napi::Function LossWrap::define(Napi::Env env) {
  return DefineClass(env, "PairLoss",
                     {
                         InstanceMethod("bind", &LossWrap::bind),
                         InstanceMethod("forward", &LossWrap::forward),
                         InstanceMethod("loss", &LossWrap::loss),
                         InstanceMethod("predictions", &LossWrap::predictions),
                         InstanceAccessor("numParams", &LossWrap::numParams, nullptr),
                         InstanceAccessor("paramsPerPair", &LossWrap::paramsPerPair, nullptr),
                         InstanceAccessor("numSystems", &LossWrap::numSystems, nullptr),
                     });
}

LossWrap::LossWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<LossWrap>(info) {
  const std::string model = requireString(info, 0, "PairLoss: model");
  std::vector<PairRow> rows;
  for (const double* row : PotentialWrap::requirePairRows(info, 1, "PairLoss: rows", 3)) {
    rows.push_back(PairRow{static_cast<int>(row[0]), static_cast<int>(row[1]), row[2]});
  }
  const bool shift = PotentialWrap::requireFlag(info, 2, "PairLoss: shift");
  const double switchOn = requireNumber(info, 3, "PairLoss: switchOn");
  guard(info.Env(), [&] { loss_ = makePairLoss(model, rows, shift, switchOn); });
}

Napi::Value LossWrap::bind(const Napi::CallbackInfo& info) {
  Backend& backend = BatchWrap::backendOf(info.Env(), info[0]);
  const ReferenceArrays refs = requireReferences(info, backend, "PairLoss.bind");
  guard(info.Env(), [&] { loss_->bind(backend, refs); });
  return info.Env().Undefined();
}

Napi::Value LossWrap::forward(const Napi::CallbackInfo& info) {
  const Napi::Float64Array theta = requireFloat64Array(info, 0, "PairLoss.forward: theta", static_cast<std::int64_t>(loss_->numParams()));
  const Napi::Int32Array systems = requireTyped<Napi::Int32Array>(info, 1, napi_int32_array, "PairLoss.forward: systems", "Int32Array", -1);
  guard(info.Env(), [&] { loss_->forward(theta.Data(), systems.Data(), static_cast<std::int64_t>(systems.ElementLength())); });
  return info.Env().Undefined();
}

Napi::Value LossWrap::loss(const Napi::CallbackInfo& info) {
  const LossWeights weights = requireLossWeights(info, "PairLoss.loss");
  double* gradient = nullptr;
  if (info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined()) {
    gradient = requireFloat64Array(info, 1, "PairLoss.loss: gradient", static_cast<std::int64_t>(loss_->numParams())).Data();
  }
  const LossStats s = guard(info.Env(), [&] { return loss_->loss(weights, gradient); });
  return statsArray(info.Env(), s);
}

Napi::Value LossWrap::predictions(const Napi::CallbackInfo& info) {
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("energy", copyOut(info.Env(), loss_->energy()));
  out.Set("forces", copyOut(info.Env(), loss_->forces()));
  out.Set("stress", copyOut(info.Env(), loss_->stress()));
  return out;
}

Napi::Value LossWrap::numParams(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(loss_->numParams()));
}

Napi::Value LossWrap::paramsPerPair(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), loss_->paramsPerPair()); }

Napi::Value LossWrap::numSystems(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(loss_->numSystems()));
}

}  // namespace hookmd::binding
