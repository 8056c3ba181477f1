#include "binding/Args.h"

#include <cmath>

#include "binding/Errors.h"

namespace hookmd::binding {

double requireNumber(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsNumber()) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be a number");
  }
  return info[index].As<Napi::Number>().DoubleValue();
}

std::int64_t requireCount(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  const double value = requireNumber(info, index, what);
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value > 2147483647.0) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be an integer in [0, 2^31)");
  }
  return static_cast<std::int64_t>(value);
}

std::string requireString(const Napi::CallbackInfo& info, std::size_t index, const char* what) {
  if (info.Length() <= index || !info[index].IsString()) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be a string");
  }
  return info[index].As<Napi::String>().Utf8Value();
}

Field requireField(const Napi::CallbackInfo& info, std::size_t index) {
  const std::string name = requireString(info, index, "field");
  Field field;
  if (!fieldFromName(name.c_str(), field)) {
    throwJs(info.Env(), "UNKNOWN_FIELD", "unknown batch field '" + name + "'");
  }
  return field;
}

Napi::Float64Array requireFloat64Array(const Napi::CallbackInfo& info, std::size_t index, const char* what,
                                       std::int64_t length) {
  if (info.Length() <= index || !info[index].IsTypedArray() ||
      info[index].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
    throwJs(info.Env(), "INVALID_ARGUMENT", std::string(what) + " must be a Float64Array");
  }
  Napi::Float64Array array = info[index].As<Napi::Float64Array>();
  if (length >= 0 && static_cast<std::int64_t>(array.ElementLength()) != length) {
    throwJs(info.Env(), "INVALID_ARGUMENT",
            std::string(what) + " must have " + std::to_string(length) + " elements, got " +
                std::to_string(array.ElementLength()));
  }
  return array;
}

}  // namespace hookmd::binding
