#include "binding/ArrayViews.h"

#include <atomic>
#include <cstring>
#include <string>

#include "binding/AddonData.h"
#include "binding/EarlyRelease.h"
#include "binding/Errors.h"

namespace hookmd::binding {

namespace {
std::atomic<bool> externalAllowed{true};

napi_typedarray_type typedArrayType(ElementType type) {
  switch (type) {
    case ElementType::Float64: return napi_float64_array;
    case ElementType::Int32: return napi_int32_array;
    case ElementType::Uint8: return napi_uint8_array;
  }
  return napi_uint8_array;
}

Napi::ArrayBuffer externalOrCopy(Napi::Env env, const std::shared_ptr<HostBuffer>& buffer, std::size_t bytes) {
  if (externalAllowed.load()) {
    auto* anchor = new ViewAnchor{buffer};
    napi_value result;
    const napi_status status = napi_create_external_arraybuffer(
        env, buffer->data(), bytes,
        [](napi_env finalizing, void*, void* hint) {
          auto* done = static_cast<ViewAnchor*>(hint);
          addonData(Napi::Env(finalizing)).earlyRelease.remove(done);
          napi_delete_reference(finalizing, done->view);
          delete done;
        },
        anchor, &result);
    if (status == napi_ok) {
      // Weak: the view's collection empties it, which is what lets a sweep drop the buffer before this finalizer.
      if (napi_create_reference(env, result, 0, &anchor->view) == napi_ok) addonData(env).earlyRelease.add(anchor);
      return Napi::ArrayBuffer(env, result);
    }
    delete anchor;
    externalAllowed.store(false);
  }
  Napi::ArrayBuffer copy = Napi::ArrayBuffer::New(env, bytes);
  if (bytes > 0) std::memcpy(copy.Data(), buffer->data(), bytes);
  return copy;
}
}  // namespace

bool externalViewsSupported() { return externalAllowed.load(); }

Napi::TypedArray typedArrayOver(Napi::Env env, Napi::ArrayBuffer buffer, ElementType type, std::size_t length) {
  napi_value view;
  const napi_status status = napi_create_typedarray(env, typedArrayType(type), length, buffer, 0, &view);
  if (status != napi_ok) throwJs(env, "NATIVE_FAILURE", "could not create a typed array view");
  return Napi::TypedArray(env, view);
}

Napi::TypedArray makeView(Napi::Env env, const std::shared_ptr<HostBuffer>& buffer, ElementType type,
                          std::size_t length) {
  return typedArrayOver(env, externalOrCopy(env, buffer, length * elementSize(type)), type, length);
}

void requireFieldSource(Napi::Env env, const Napi::Value& source, ElementType type, std::size_t length, const char* fieldName) {
  if (!source.IsTypedArray() || source.As<Napi::TypedArray>().TypedArrayType() != typedArrayType(type)) {
    throwJs(env, "INVALID_ARGUMENT", std::string("write: '") + fieldName + "' needs a typed array of its element type");
  }
  Napi::TypedArray array = source.As<Napi::TypedArray>();
  if (array.ElementLength() != length) {
    throwJs(env, "INVALID_ARGUMENT",
            std::string("write: '") + fieldName + "' needs " + std::to_string(length) + " elements, got " +
                std::to_string(array.ElementLength()));
  }
}

void copyIntoBuffer(Napi::Env env, const Napi::Value& source, const std::shared_ptr<HostBuffer>& buffer,
                    ElementType type, std::size_t length, const char* fieldName) {
  requireFieldSource(env, source, type, length, fieldName);
  Napi::TypedArray array = source.As<Napi::TypedArray>();
  const auto* bytes = static_cast<const std::uint8_t*>(array.ArrayBuffer().Data()) + array.ByteOffset();
  if (length > 0) std::memcpy(buffer->data(), bytes, length * elementSize(type));
}

}  // namespace hookmd::binding
