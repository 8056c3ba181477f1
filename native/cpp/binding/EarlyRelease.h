// Frees the native memory of collected handles without waiting for their finalizers. Node runs an addon's
// finalizers in a later turn of the event loop (only experimental N-API, which the prebuild's ABI promise
// rules out, runs them during the collection), so a synchronous loop that drops batch after batch piled up
// every batch's host memory (150 dropped 256,000-atom batches: 3.5 GB). The weak references V8 clears
// during the collection itself show which handles are gone already: at the next allocation, the registry
// frees what only those handles held, and the finalizer that comes later finds nothing left to free.
#pragma once

#include <napi.h>

#include <memory>
#include <unordered_set>

#include "core/HostBuffer.h"

namespace hookmd::binding {

/**
 * What keeps a HostBuffer alive for one external ArrayBuffer view over it: the buffer, and a weak reference
 * to the view's ArrayBuffer, which tells when the view itself is gone.
 */
struct ViewAnchor {
  std::shared_ptr<HostBuffer> buffer;
  napi_ref view = nullptr;
};

class BatchWrap;

/** Per-environment registry of the live batches and views whose memory a sweep may free early. */
class EarlyRelease {
 public:
  void add(BatchWrap* batch) { batches_.insert(batch); }
  void remove(BatchWrap* batch) { batches_.erase(batch); }
  void add(ViewAnchor* anchor) { views_.insert(anchor); }
  /** Called by the view's finalizer: the anchor is deleted after it. */
  void remove(ViewAnchor* anchor) { views_.erase(anchor); }
  /** Drops the buffers of collected views and the storage of collected batches. */
  void sweep(napi_env env);

 private:
  std::unordered_set<BatchWrap*> batches_;
  std::unordered_set<ViewAnchor*> views_;
};

/** True when `ref`, a weak reference, no longer reaches its object (the collector has taken it). */
bool collected(napi_env env, napi_ref ref);

}  // namespace hookmd::binding
