#include "cuda/dynamics/CudaAtomRows.h"

#include "cuda/core/CudaBackend.h"
#include "cuda/core/DeviceUpload.h"

namespace hookmd {

CudaAtomRows::CudaAtomRows(CudaBackend& backend, std::string owner, int width, std::int64_t count)
    : backend_(backend), owner_(std::move(owner)), host_(owner_, width, 0, count) {}

void CudaAtomRows::fit() {
  if (fitted_ && generation_ == backend_.generation() && ptrVersion_ == backend_.version(Field::Ptr)) return;
  // Reading ptr on the host copies it only when the device wrote it: B + 1 ints.
  const std::int32_t* ptr = backend_.host({Field::Ptr}).i32(Field::Ptr);
  if (!host_.fits(ptr)) {
    download();
    host_.fit(ptr, backend_.numSystems());
    upload();
  }
  fitted_ = true;
  generation_ = backend_.generation();
  ptrVersion_ = backend_.version(Field::Ptr);
}

void CudaAtomRows::download() const {
  if (bytes() == 0) return;
  downloadBytes(host_.data(), d_values_.data(), bytes(), owner_.c_str());
  backend_.charge(DeviceOp::ControlDownload, DeviceWork{1, 0, 0, 0, bytes(), 0});
}

void CudaAtomRows::upload() {
  d_values_.allocate(bytes(), owner_.c_str());
  if (bytes() == 0) return;
  uploadBytes(d_values_, host_.data(), bytes(), BufferFit::Exact, owner_.c_str());
  backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, bytes()});
}

std::vector<double> CudaAtomRows::save() const {
  download();
  return host_.save();
}

void CudaAtomRows::load(const std::vector<double>& state) {
  host_.load(state);
  upload();
  fitted_ = false;
}

void CudaAtomRows::check(const std::vector<double>& state) const {
  AtomRows probe = host_;
  probe.load(state);
}

void CudaAtomRows::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  download();
  host_.remap(keep, added);
  upload();
  fitted_ = false;
}

}  // namespace hookmd
