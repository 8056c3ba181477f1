// LennardJones (JS): new LennardJones(pairs: Float64Array, shift: boolean, switchOn: number, skin?: number)
// where `pairs` holds rows [z1, z2, epsilon, sigma, cutoff] (z1 = z2 = 0: one row for every pair).
// lib/models/lennard-jones.ts validates first; this wrap only guards argument types and shapes.
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class LennardJonesWrap : public PotentialWrapBase<LennardJonesWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x6c6a2d686f6f6b6dULL, 0x4c656e6e61726431ULL};
  static Napi::Function define(Napi::Env env);
  explicit LennardJonesWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
