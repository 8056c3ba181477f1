// Snap (JS): new Snap(name: 'SNAP' | 'MLIAP', elements: Float64Array (atomic numbers), settings: Float64Array
// [twojmax, rcutfac, rfac0, rmin0, switchflag, bzeroflag, quadraticflag, chemflag, bnormflag, wselfallflag],
// radius: Float64Array, weight: Float64Array (one per element), coefficients: Float64Array (per element, in
// the file's order), zbl: Float64Array ([] without a core, else [inner, outer, then zi zj for each element
// pair a·nt + b]), network: Float64Array ([] for β₀ + β·B (+ ½ Bᵀ α B), else [layers, then each layer's
// activation (math/DescriptorNetwork.h) and node count]), skin?: number). lib/models/snap-file.ts parses and checks the files first; this wrap only
// guards argument types and shapes (models/SnapPotential checks the numbers).
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class SnapWrap : public PotentialWrapBase<SnapWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x736e61702d706f74ULL, 0x534e415030303031ULL};
  static Napi::Function define(Napi::Env env);
  explicit SnapWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
