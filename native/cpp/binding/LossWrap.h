// PairLoss (JS): the force-matching loss of a native pair potential (native/cpp/training/PairLoss.h).
//   new PairLoss(model: a name of math/PairEvaluators.h, rows: Float64Array of [z1, z2, cutoff], shift, switchOn)
//   bind(batch, refEnergy[B], refForces[3N], refStress[9B], present: Uint8Array[3B])
//   forward(theta: Float64Array[numParams], systems: Int32Array)
//   loss(weights: Float64Array[4] = [energy, forces, stress, perAtomEnergy], gradient: Float64Array | null)
//     → Float64Array of the LossStats fields, in declaration order
//   predictions() → { energy, forces, stress } (copies)
// lib/training validates first; this wrap only guards argument types and sizes.
#pragma once

#include <napi.h>

#include <memory>

#include "training/PairLoss.h"

namespace hookmd::binding {

class LossWrap : public Napi::ObjectWrap<LossWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit LossWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value bind(const Napi::CallbackInfo& info);
  Napi::Value forward(const Napi::CallbackInfo& info);
  Napi::Value loss(const Napi::CallbackInfo& info);
  Napi::Value predictions(const Napi::CallbackInfo& info);
  Napi::Value numParams(const Napi::CallbackInfo& info);
  Napi::Value paramsPerPair(const Napi::CallbackInfo& info);
  Napi::Value numSystems(const Napi::CallbackInfo& info);

  std::unique_ptr<PairLoss> loss_;
};

}  // namespace hookmd::binding
