#include "binding/ModuleFunctions.h"

#include <string>
#include <thread>

#include "binding/AddonData.h"
#include "binding/Args.h"
#include "binding/ArrayViews.h"
#include "binding/BatchWrap.h"
#include "binding/Errors.h"
#include "binding/FileLock.h"
#include "core/BackendRegistry.h"
#include "core/CpuFeatures.h"
#include "platform/DarkKernels.h"
#include "core/ThreadBudget.h"
#include "core/ThreadPool.h"
#ifdef HOOKMD_WITH_CUDA
#include "cuda/core/CudaLaunch.h"
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

/**
 * V8's count of the external memory that native code has reported (napi_adjust_external_memory), in bytes:
 * every batch's fields among them (BatchWrap::reportHostMemory). The test seam of that accounting.
 */
Napi::Value externalMemory(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Napi::MemoryManagement::AdjustExternalMemory(info.Env(), 0)));
}

/** Which limit set the pool's size (backendInfo().threadLimit), what it said, and the CPUs it may use. */
Napi::Value threadLimit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ThreadPool& pool = ThreadPool::global();
  Napi::Object out = Napi::Object::New(env);
  out.Set("limit", threadLimitName(pool.limit()));
  out.Set("detail", pool.limitDetail());
  out.Set("cpus", systemThreadBudget().cpus);
  return out;
}

/**
 * The default budget as it would be decided from `environment` (HOOKMD_THREADS, or undefined) and the cgroup
 * files under `root` (a directory standing for "/"), with this process's cores and affinity: the policy's
 * test seam (test/native/thread-budget.test.ts).
 */
Napi::Value decideThreadBudget(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throwJs(env, "INVALID_ARGUMENT", "decideThreadBudget: root must be a string");
  const std::string root = info[0].As<Napi::String>().Utf8Value();
  const bool hasEnvironment = info.Length() > 1 && info[1].IsString();
  const std::string environment = hasEnvironment ? info[1].As<Napi::String>().Utf8Value() : std::string();
  const unsigned cores = std::thread::hardware_concurrency();
  const ThreadBudget budget = hookmd::decideThreadBudget(hasEnvironment ? environment.c_str() : nullptr,
                                                         cores == 0 ? 1 : static_cast<int>(cores), affinityCpus(),
                                                         readCgroupQuota(root));
  Napi::Object out = Napi::Object::New(env);
  out.Set("threads", budget.threads);
  out.Set("limit", threadLimitName(budget.limit));
  out.Set("detail", budget.detail);
  out.Set("cpus", budget.cpus);
  return out;
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
// What the CUDA backend really launched, waited for and copied (cuda/core/CudaLaunch.h), over the process: the
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
  exports.Set("threadLimit", Napi::Function::New(env, threadLimit, "threadLimit"));
  exports.Set("decideThreadBudget", Napi::Function::New(env, decideThreadBudget, "decideThreadBudget"));
  exports.Set("backends", Napi::Function::New(env, backends, "backends"));
  exports.Set("externalViews", Napi::Function::New(env, externalViews, "externalViews"));
  exports.Set("externalMemory", Napi::Function::New(env, externalMemory, "externalMemory"));
  exports.Set("cpuSimd", Napi::Function::New(env, cpuSimd, "cpuSimd"));
  exports.Set("lockFile", Napi::Function::New(env, lockFile, "lockFile"));
  exports.Set("unlockFile", Napi::Function::New(env, unlockFile, "unlockFile"));
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
