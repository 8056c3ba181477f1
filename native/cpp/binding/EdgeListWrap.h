// EdgeList (JS): new EdgeList(cutoff: number, skin: number); build(batch: NativeBatch, index: BigInt64Array,
// shift: Float64Array | Float32Array) → E, the directed edges of models/EdgeList.h. When index holds at least
// 2E values and shift 3E, it writes sources to index[0, E), targets to index[E, 2E) and shifts to
// shift[0, 3E); otherwise it writes nothing and the caller grows its arrays and calls again.
// lib/models/edge-arrays.ts owns it; this wrap only guards argument types and sizes.
#pragma once

#include <napi.h>

#include <memory>

#include "models/EdgeList.h"

namespace hookmd::binding {

class EdgeListWrap : public Napi::ObjectWrap<EdgeListWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  explicit EdgeListWrap(const Napi::CallbackInfo& info);

 private:
  Napi::Value build(const Napi::CallbackInfo& info);
  Napi::Value neighborStats(const Napi::CallbackInfo& info);

  std::unique_ptr<EdgeList> edges_;
};

}  // namespace hookmd::binding
