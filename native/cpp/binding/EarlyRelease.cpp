#include "binding/EarlyRelease.h"

#include "binding/BatchWrap.h"

namespace hookmd::binding {

bool collected(napi_env env, napi_ref ref) {
  napi_value value = nullptr;
  return napi_get_reference_value(env, ref, &value) == napi_ok && value == nullptr;
}

void EarlyRelease::sweep(napi_env env) {
  // A collected view no longer reads its buffer; its anchor stays registered until its finalizer deletes it.
  for (ViewAnchor* anchor : views_) {
    if (anchor->buffer && collected(env, anchor->view)) anchor->buffer.reset();
  }
  for (BatchWrap* batch : batches_) batch->releaseIfCollected(env);
}

}  // namespace hookmd::binding
