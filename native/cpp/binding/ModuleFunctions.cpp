#include "binding/ModuleFunctions.h"

#include "binding/AddonData.h"
#include "binding/Args.h"
#include "binding/ArrayViews.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "core/BackendRegistry.h"
#include "core/CpuFeatures.h"
#include "core/DarkKernels.h"
#include "core/ThreadPool.h"
#ifdef HOOKMD_WITH_CUDA
#include "cuda/CudaLaunch.h"
#endif

namespace hookmd::binding {

namespace {
Napi::Value setErrorFactory(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsFunction()) {
    throwJs(info.Env(), "INVALID_ARGUMENT", "setErrorFactory: expected a function");
  }
  addonData(info.Env()).errorFactory = Napi::Persistent(info[0].As<Napi::Function>());
  return info.Env().Undefined();
}

Napi::Value setThreads(const Napi::CallbackInfo& info) {
  const std::int64_t n = requireCount(info, 0, "setThreads: n");
  guard(info.Env(), [&] { ThreadPool::global().setThreads(static_cast<int>(n)); });
  return Napi::Number::New(info.Env(), ThreadPool::global().threads());
}

Napi::Value getThreads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), ThreadPool::global().threads());
}

Napi::Value hardwareThreads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), ThreadPool::hardwareThreads());
}

Napi::Value backends(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& entries = registeredBackends();
  Napi::Array list = Napi::Array::New(env, entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const BackendAvailability availability = guard(env, [&] { return entries[i].probe(); });
    Napi::Object item = Napi::Object::New(env);
    item.Set("name", entries[i].name);
    item.Set("available", availability.available);
    item.Set("reason", availability.reason);
    item.Set("device", availability.device);
    list.Set(static_cast<std::uint32_t>(i), item);
  }
  return list;
}

Napi::Value cpuSimd(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), simdLevelName(simdLevel()));
}

Napi::Value externalViews(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), externalViewsSupported());
}

Napi::Value deviceKernels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array list = Napi::Array::New(env, kDeviceKernelFamilies);
  for (int i = 0; i < kDeviceKernelFamilies; ++i) {
    const DeviceKernelInfo& family = deviceKernelInfo(static_cast<DeviceKernelFamily>(i));
    Napi::Object item = Napi::Object::New(env);
    item.Set("name", family.name);
    item.Set("verified", family.verified);
    list.Set(static_cast<std::uint32_t>(i), item);
  }
  return list;
}

#ifdef HOOKMD_WITH_CUDA
// What the CUDA backend really launched, waited for and copied (cuda/CudaLaunch.h), over the process: the
// ledger contract test compares it with one batch's deviceStats().
Napi::Value actualDeviceStats(const Napi::CallbackInfo& info) { return deviceStatsObject(info.Env(), device::actualStats()); }

Napi::Value resetActualDeviceStats(const Napi::CallbackInfo& info) {
  device::resetActualStats();
  return info.Env().Undefined();
}
#endif
}  // namespace

void exportModuleFunctions(Napi::Env env, Napi::Object exports) {
  exports.Set("setErrorFactory", Napi::Function::New(env, setErrorFactory, "setErrorFactory"));
  exports.Set("setThreads", Napi::Function::New(env, setThreads, "setThreads"));
  exports.Set("getThreads", Napi::Function::New(env, getThreads, "getThreads"));
  exports.Set("hardwareThreads", Napi::Function::New(env, hardwareThreads, "hardwareThreads"));
  exports.Set("backends", Napi::Function::New(env, backends, "backends"));
  exports.Set("externalViews", Napi::Function::New(env, externalViews, "externalViews"));
  exports.Set("cpuSimd", Napi::Function::New(env, cpuSimd, "cpuSimd"));
  exports.Set("deviceKernels", Napi::Function::New(env, deviceKernels, "deviceKernels"));
  exports.Set("napiVersion", Napi::Number::New(env, NAPI_VERSION));
#ifdef HOOKMD_WITH_CUDA
  exports.Set("cudaBuild", Napi::Boolean::New(env, true));
  exports.Set("actualDeviceStats", Napi::Function::New(env, actualDeviceStats, "actualDeviceStats"));
  exports.Set("resetActualDeviceStats", Napi::Function::New(env, resetActualDeviceStats, "resetActualDeviceStats"));
#else
  exports.Set("cudaBuild", Napi::Boolean::New(env, false));
#endif
}

}  // namespace hookmd::binding
