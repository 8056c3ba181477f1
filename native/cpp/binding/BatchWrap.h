// NativeBatch: the JS handle of one backend-owned Batch storage. It exposes host views, bulk writes, the
// host side of the coherence protocol (acquire a field for reading or writing), the transfer counters and
// the per-system reductions; it does no physics itself.
#pragma once

#include <napi.h>

#include <memory>

#include "binding/EarlyRelease.h"
#include "core/Backend.h"

namespace hookmd::binding {

/** A DeviceStats as the plain JS object batch.deviceStats() returns. */
Napi::Object deviceStatsObject(Napi::Env env, const DeviceStats& stats);

class BatchWrap : public Napi::ObjectWrap<BatchWrap> {
 public:
  static Napi::Function define(Napi::Env env);
  /** The backend behind a NativeBatch argument; throws a typed JS error for anything else. */
  static Backend& backendOf(Napi::Env env, const Napi::Value& value);

  explicit BatchWrap(const Napi::CallbackInfo& info);
  ~BatchWrap() override;
  /** Withdraws this batch's host memory from V8's external-memory count when the handle is collected. */
  void Finalize(Napi::Env env) override;
  /**
   * Frees the storage now if the JS handle has been collected, ahead of Finalize, which Node defers to a
   * later turn of the event loop (binding/EarlyRelease.h).
   */
  void releaseIfCollected(napi_env env);
  Backend& backend() { return *backend_; }

 private:
  Napi::Value resize(const Napi::CallbackInfo& info);
  Napi::Value view(const Napi::CallbackInfo& info);
  Napi::Value write(const Napi::CallbackInfo& info);
  Napi::Value acquire(const Napi::CallbackInfo& info);
  Napi::Value refill(const Napi::CallbackInfo& info);
  Napi::Value writeRows(const Napi::CallbackInfo& info);
  Napi::Value readSystems(const Napi::CallbackInfo& info);
  Napi::Value hostView(const Napi::CallbackInfo& info);
  Napi::Value transferStats(const Napi::CallbackInfo& info);
  Napi::Value resetTransferStats(const Napi::CallbackInfo& info);
  Napi::Value deviceStats(const Napi::CallbackInfo& info);
  Napi::Value resetDeviceStats(const Napi::CallbackInfo& info);
  Napi::Value unified(const Napi::CallbackInfo& info);
  Napi::Value reduce(const Napi::CallbackInfo& info);
  Napi::Value kineticEnergy(const Napi::CallbackInfo& info);
  Napi::Value fmax(const Napi::CallbackInfo& info);
  Napi::Value setUnits(const Napi::CallbackInfo& info);
  Napi::Value numAtoms(const Napi::CallbackInfo& info);
  Napi::Value numSystems(const Napi::CallbackInfo& info);
  Napi::Value generation(const Napi::CallbackInfo& info);
  Napi::Value backendName(const Napi::CallbackInfo& info);
  Napi::Value device(const Napi::CallbackInfo& info);

  Napi::Float64Array perSystemResult(Napi::Env env);
  /** Runs `reallocate` (a resize or refill) and reports the change in host memory, whether it succeeded or threw. */
  template <typename Body>
  void reallocating(Napi::Env env, Body&& reallocate);
  /**
   * Tells V8 how much host memory the fields now hold (napi_adjust_external_memory), so that the garbage
   * collector sees a batch's real size and collects dropped batches before their memory piles up.
   */
  void reportHostMemory(Napi::Env env);
  /** Takes this batch's reported bytes back out of V8's external-memory count. */
  void withdrawHostMemory(napi_env env);

  std::unique_ptr<Backend> backend_;
  /** The environment's early-release registry, which lists this batch while it lives. */
  EarlyRelease* registry_ = nullptr;
  /** The bytes last reported to V8. */
  std::int64_t reportedBytes_ = 0;
};

}  // namespace hookmd::binding
