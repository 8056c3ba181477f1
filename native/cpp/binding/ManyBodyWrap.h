// ManyBody (JS): new ManyBody(name: 'Tersoff' | 'StillingerWeber', style: a LAMMPS pair style of
// kernels/ManyBodyForceKernel.h's list, elements: Float64Array (atomic numbers), entries: Float64Array (nt³
// entries in the file's column order), skin?: number). lib/models/many-body-file.ts parses and checks the
// file first; this wrap only guards argument types and shapes.
#pragma once

#include <napi.h>

#include "binding/PotentialWrap.h"

namespace hookmd::binding {

class ManyBodyWrap : public PotentialWrapBase<ManyBodyWrap> {
 public:
  static constexpr napi_type_tag kTypeTag = {0x6d616e792d626f64ULL, 0x4d414e5930303031ULL};
  static Napi::Function define(Napi::Env env);
  explicit ManyBodyWrap(const Napi::CallbackInfo& info);
};

}  // namespace hookmd::binding
