// Typed-array views over native HostBuffers. The view is an external ArrayBuffer that keeps its buffer
// alive; where the runtime refuses external buffers (V8 sandbox builds), a copy is returned instead and
// the caller must write changes back explicitly (externalViewsSupported() tells which).
#pragma once

#include <napi.h>

#include <memory>

#include "core/Fields.h"
#include "core/HostBuffer.h"

namespace hookmd::binding {

/** A typed array of `length` elements of `type` over `buffer` (zero-copy when the runtime allows). */
Napi::TypedArray makeView(Napi::Env env, const std::shared_ptr<HostBuffer>& buffer, ElementType type,
                          std::size_t length);

/** False after the runtime has refused an external ArrayBuffer in this process. */
bool externalViewsSupported();

/** A typed array of `length` elements of `type` over the whole of `buffer`. */
Napi::TypedArray typedArrayOver(Napi::Env env, Napi::ArrayBuffer buffer, ElementType type, std::size_t length);

/** Throws a typed JS error unless `source` is a typed array of `type` with `length` elements. */
void requireFieldSource(Napi::Env env, const Napi::Value& source, ElementType type, std::size_t length, const char* fieldName);

/** Copies a JS typed array of the field's element type into `buffer` (lengths must match). */
void copyIntoBuffer(Napi::Env env, const Napi::Value& source, const std::shared_ptr<HostBuffer>& buffer,
                    ElementType type, std::size_t length, const char* fieldName);

}  // namespace hookmd::binding
