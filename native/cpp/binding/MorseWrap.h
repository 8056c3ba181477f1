// Morse (JS): new Morse(pairs: Float64Array, shift: boolean, switchOn: number, skin?: number) where `pairs`
// holds rows [z1, z2, D, alpha, r0, cutoff] (z1 = z2 = 0: one row for every pair).
// lib/models/morse.ts validates first; this wrap only guards argument types and shapes.
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class MorseWrap : public PotentialWrapBase<MorseWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x6d6f7273652d686bULL, 0x4d6f727365303031ULL};
  static Napi::Function define(Napi::Env env);
  explicit MorseWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
