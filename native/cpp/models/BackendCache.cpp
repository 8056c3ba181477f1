#include "models/BackendCache.h"

#include "core/Error.h"

namespace hookmd {

void checkPtrLayout(Backend& backend, const std::string& model, FieldStamp& checked) {
  if (FieldStamp::of(backend, Field::Ptr) == checked) return;
  const BatchStorage& storage = backend.host({Field::Ptr});
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int64_t systems = storage.numSystems();
  bool ok = ptr[0] == 0 && ptr[systems] == storage.numAtoms();
  for (std::int64_t s = 0; ok && s < systems; ++s) ok = ptr[s + 1] >= ptr[s];
  if (!ok) fail("INVALID_BATCH", model + ": the batch's ptr offsets do not partition its atoms");
  checked = FieldStamp::of(backend, Field::Ptr);
}

}  // namespace hookmd
