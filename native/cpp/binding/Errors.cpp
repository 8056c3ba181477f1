#include "binding/Errors.h"

#include "binding/AddonData.h"

namespace hookmd::binding {

void throwJs(Napi::Env env, const std::string& code, const std::string& message) {
  AddonData& data = addonData(env);
  if (!data.errorFactory.IsEmpty()) {
    Napi::Value error = data.errorFactory.Call({Napi::String::New(env, code), Napi::String::New(env, message)});
    throw Napi::Error(env, error);
  }
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, code));
  throw error;
}

}  // namespace hookmd::binding
