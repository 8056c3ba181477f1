// PairPotential (JS): new PairPotential(model: string, pairs: Float64Array, shift: boolean, switchOn: number,
// skin?: number), one class for every entry of math/PairEvaluators.h. `model` is the entry's name
// ('LennardJones', 'Morse', ...) and `pairs` holds rows [z1, z2, θ..., cutoff] of its θ layout (z1 = z2 = 0:
// one row for every pair); `pairEvaluators` (ModuleFunctions) says how many θ each takes. lib/models
// validates first; this wrap only guards argument types and shapes.
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class PairPotentialWrap : public PotentialWrapBase<PairPotentialWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x706169722d686b6dULL, 0x5061697250303031ULL};
  static Napi::Function define(Napi::Env env);
  /** { LennardJones: 2, Morse: 3, ... }: the list's names and θ per pair. */
  static Napi::Object evaluators(Napi::Env env);
  explicit PairPotentialWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
