// EAM (JS): new EAM(format: 'funcfl' | 'setfl' | 'fs', elements: Float64Array (atomic numbers),
// grid: Float64Array [nrho, drho, nr, dr, cutoff], frho, rhor, z2r: Float64Array, skin?: number), the tables
// as the file lists them (kernels/EamTables.h). lib/models/eam-file.ts parses and checks the file first;
// this wrap only guards argument types and shapes.
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class EamWrap : public PotentialWrapBase<EamWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x65616d2d686f6f6bULL, 0x45414d3030303031ULL};
  static Napi::Function define(Napi::Env env);
  explicit EamWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
