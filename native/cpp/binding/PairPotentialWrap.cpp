#include "binding/PairPotentialWrap.h"

#include <string>

#include "models/ListedPairPotential.h"

namespace hookmd::binding {

namespace {
PairEvaluator requireEvaluator(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && info[0].IsString()) {
    const std::string model = info[0].As<Napi::String>().Utf8Value();
    for (int e = 0; e < kNumPairEvaluators; ++e) {
      if (model == kPairEvaluatorNames[e]) return static_cast<PairEvaluator>(e);
    }
  }
  std::string known;
  for (int e = 0; e < kNumPairEvaluators; ++e) known += (e == 0 ? "" : ", ") + std::string(kPairEvaluatorNames[e]);
  throwJs(info.Env(), "UNKNOWN_MODEL", "PairPotential: model must be one of " + known);
}
}  // namespace

Napi::Function PairPotentialWrap::define(Napi::Env env) { return DefineClass(env, "PairPotential", sharedMembers()); }

Napi::Object PairPotentialWrap::evaluators(Napi::Env env) {
  Napi::Object out = Napi::Object::New(env);
  for (int e = 0; e < kNumPairEvaluators; ++e) {
    out.Set(kPairEvaluatorNames[e], Napi::Number::New(env, pairEvaluatorParams(static_cast<PairEvaluator>(e))));
  }
  return out;
}

PairPotentialWrap::PairPotentialWrap(const Napi::CallbackInfo& info) : PotentialWrapBase<PairPotentialWrap>(info) {
  ListedPairOptions options;
  options.evaluator = requireEvaluator(info);
  const std::string model = pairEvaluatorName(options.evaluator);
  const std::size_t columns = 3 + static_cast<std::size_t>(pairEvaluatorParams(options.evaluator));
  for (const double* row : PotentialWrap::requirePairRows(info, 1, (model + ": pairs").c_str(), columns)) {
    options.rows.insert(options.rows.end(), row, row + columns);
  }
  options.shift = PotentialWrap::requireFlag(info, 2, (model + ": shift").c_str());
  options.switchOn = requireNumber(info, 3, (model + ": switchOn").c_str());
  options.skin = PotentialWrap::optionalSkin(info, 4, (model + ": skin").c_str());
  guard(info.Env(), [&] { setPotential(std::make_shared<ListedPairPotential>(options)); });
}

}  // namespace hookmd::binding
