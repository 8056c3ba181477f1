// NetworkLoss (JS): the force-matching loss of an ML-IAP network on SNAP descriptors (native/cpp/training/NetworkLoss.h).
//   new NetworkLoss(elements: Float64Array (atomic numbers), settings: Float64Array [twojmax, rcutfac, rfac0, rmin0,
//     switchflag, bzeroflag, chemflag, bnormflag, wselfallflag], radius, weight (one per element),
//     network: Float64Array [layers, then each layer's activation and node count])
//   bind(batch, refEnergy[B], refForces[3N], refStress[9B], present: Uint8Array[3B])   (computes the descriptors)
//   descriptors() → { values: Float64Array [N × n], types: Int32Array [N] } (copies)
//   derivatives() → { entryBegin: Float64Array [N + 1], entryAtom: Int32Array, values: Float64Array [entries × n × 3],
//     virial: Float64Array [N × n × 6] } (copies)
//   setScales(scales: Float64Array [elements × 2n]); forward(theta, systems: Int32Array)
//   loss(weights: Float64Array[4], gradient: Float64Array | null) → Float64Array of the LossStats fields
//   predictions() → { energy, forces, stress }; activations() → one Float64Array per layer (atoms × nodes)
// lib/training validates first; this wrap only guards argument types and sizes.
#pragma once

#include <napi.h>

#include <memory>

#include "training/NetworkLoss.h"

namespace hookmd::binding {

class NetworkLossWrap : public Napi::ObjectWrap<NetworkLossWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit NetworkLossWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value bind(const Napi::CallbackInfo& info);
  Napi::Value descriptors(const Napi::CallbackInfo& info);
  Napi::Value derivatives(const Napi::CallbackInfo& info);
  Napi::Value setScales(const Napi::CallbackInfo& info);
  Napi::Value forward(const Napi::CallbackInfo& info);
  Napi::Value loss(const Napi::CallbackInfo& info);
  Napi::Value predictions(const Napi::CallbackInfo& info);
  Napi::Value activations(const Napi::CallbackInfo& info);
  Napi::Value numParams(const Napi::CallbackInfo& info);
  Napi::Value numDescriptors(const Napi::CallbackInfo& info);

  std::unique_ptr<NetworkLoss> loss_;
};

}  // namespace hookmd::binding
