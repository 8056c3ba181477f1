#include "cuda/CudaActiveMask.h"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "cuda/DeviceUpload.h"

namespace hookmd {

const std::uint8_t* CudaActiveMask::upload(const std::uint8_t* active, std::int64_t numSystems) {
  if (active == nullptr) return nullptr;
  const auto count = static_cast<std::size_t>(numSystems);
  if (!current_ || uploaded_.size() != count || !std::equal(active, active + count, uploaded_.begin())) {
    uploaded_.assign(active, active + count);
    uploadVector(d_flags_, uploaded_, owner_.c_str());
    current_ = true;
  }
  return d_flags_.as<const std::uint8_t>();
}

}  // namespace hookmd
