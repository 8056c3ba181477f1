// Argument guards and conversions that the training wraps share (LossWrap, NetworkLossWrap): typed arrays of
// a given type and length, copies of native vectors out, a bind call's reference arrays, and LossStats as
// the Float64Array lib/training reads.
#pragma once

#include <napi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "binding/Args.h"
#include "binding/Errors.h"
#include "core/Backend.h"
#include "training/LossTypes.h"
#include "kernels/TrainingData.h"

namespace hookmd::binding {

template <class Array>
Array requireTyped(const Napi::CallbackInfo& info, std::size_t index, napi_typedarray_type type, const char* what, const char* typeName,
                   std::int64_t length) {
  if (info.Length() <= index || !info[index].IsTypedArray() || info[index].As<Napi::TypedArray>().TypedArrayType() != type) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be a " + typeName);
  }
  Array array = info[index].As<Array>();
  if (length >= 0 && static_cast<std::int64_t>(array.ElementLength()) != length) {
    throwJs(info.Env(), "INVALID_ARGUMENT",
            std::string(what) + " must have " + std::to_string(length) + " elements, got " + std::to_string(array.ElementLength()));
  }
  return array;
}

inline Napi::Float64Array copyOut(Napi::Env env, const std::vector<double>& values) {
  Napi::Float64Array out = Napi::Float64Array::New(env, values.size());
  std::copy(values.begin(), values.end(), out.Data());
  return out;
}

/** bind(batch, refEnergy[B], refForces[3N], refStress[9B], present[3B]): the reference arrays, from argument 1 on. */
inline ReferenceArrays requireReferences(const Napi::CallbackInfo& info, const Backend& backend, const std::string& owner) {
  const std::int64_t systems = backend.numSystems();
  const std::int64_t atoms = backend.numAtoms();
  ReferenceArrays refs;
  refs.energy = requireFloat64Array(info, 1, (owner + ": refEnergy").c_str(), systems).Data();
  refs.forces = requireFloat64Array(info, 2, (owner + ": refForces").c_str(), 3 * atoms).Data();
  refs.stress = requireFloat64Array(info, 3, (owner + ": refStress").c_str(), 9 * systems).Data();
  refs.present = requireTyped<Napi::Uint8Array>(info, 4, napi_uint8_array, (owner + ": present").c_str(), "Uint8Array", 3 * systems).Data();
  return refs;
}

/** loss(weights[4] = [energy, forces, stress, perAtomEnergy], …): the weights. */
inline LossWeights requireLossWeights(const Napi::CallbackInfo& info, const std::string& owner) {
  const double* w = requireFloat64Array(info, 0, (owner + ": weights").c_str(), 4).Data();
  return LossWeights{w[0], w[1], w[2], w[3] != 0.0};
}

/** The LossStats fields in declaration order. */
inline Napi::Float64Array statsArray(Napi::Env env, const LossStats& s) {
  const double values[] = {s.total,    s.energy,  s.forces, s.stress, s.energyAbs, s.energySq, static_cast<double>(s.energyCount),
                           s.forceAbs, s.forceSq, static_cast<double>(s.forceCount), s.stressAbs, s.stressSq,
                           static_cast<double>(s.stressCount)};
  Napi::Float64Array out = Napi::Float64Array::New(env, std::size(values));
  std::copy(std::begin(values), std::end(values), out.Data());
  return out;
}

}  // namespace hookmd::binding
