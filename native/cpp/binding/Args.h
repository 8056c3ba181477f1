// Argument guards for the wraps. The TS layer validates first; these checks only make sure that native
// code never reads an argument of the wrong type or size.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>

#include "core/Fields.h"

namespace hookmd::binding {

double requireNumber(const Napi::CallbackInfo& info, std::size_t index, const char* what);
std::int64_t requireCount(const Napi::CallbackInfo& info, std::size_t index, const char* what);
std::string requireString(const Napi::CallbackInfo& info, std::size_t index, const char* what);
Field requireField(const Napi::CallbackInfo& info, std::size_t index);
/** A Float64Array argument of exactly `length` elements (length < 0: any length). */
Napi::Float64Array requireFloat64Array(const Napi::CallbackInfo& info, std::size_t index, const char* what,
                                       std::int64_t length);

}  // namespace hookmd::binding
