// Per-environment state of the addon: the JS error factory handed over at initialization and the
// constructors that other wraps need to recognise their arguments, and the registry of early release.
#pragma once

#include <napi.h>

#include "binding/EarlyRelease.h"

namespace hookmd::binding {

struct AddonData {
  Napi::FunctionReference errorFactory;
  Napi::FunctionReference batchConstructor;
  /** The handles and views whose memory is freed as soon as they are collected. */
  EarlyRelease earlyRelease;
};

AddonData& addonData(Napi::Env env);

}  // namespace hookmd::binding
