#include "cuda/dynamics/CudaActiveMask.h"

#include "cuda/core/DeviceUpload.h"

namespace hookmd {

const std::uint8_t* CudaActiveMask::upload(Backend& backend, const std::uint8_t* active) {
  if (active == nullptr) return nullptr;
  if (selection_.update(backend, active)) {
    uploadBytes(d_flags_, active, static_cast<std::size_t>(backend.numSystems()), BufferFit::Exact, owner_.c_str());
  }
  return d_flags_.as<const std::uint8_t>();
}

}  // namespace hookmd
