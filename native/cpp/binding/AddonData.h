// Per-environment state of the addon: the JS error factory handed over at initialization and the
// constructors that other wraps need to recognise their arguments.
#pragma once

#include <napi.h>

namespace hookmd::binding {

struct AddonData {
  Napi::FunctionReference errorFactory;
  Napi::FunctionReference batchConstructor;
};

AddonData& addonData(Napi::Env env);

}  // namespace hookmd::binding
