// The last copy of a per-system flag array (a selection of systems) that went to the device. Device kernels
// read such flags from device memory, and a steady run selects the same systems step after step, so the
// flags are sent again only when they differ: a CUDA class decides its upload with it, and `mirror` its
// charge for the same upload.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hookmd {

class SentFlags {
 public:
  /** Whether `flags[0, count)` differ from the last ones sent (or none were); remembers them as sent. */
  bool update(const std::uint8_t* flags, std::size_t count) {
    if (sent_ && last_.size() == count && std::equal(flags, flags + count, last_.begin())) return false;
    last_.assign(flags, flags + count);
    sent_ = true;
    return true;
  }
  /** The device copy is gone (reallocated): the next update sends again. */
  void forget() {
    sent_ = false;
    last_.clear();
  }

 private:
  std::vector<std::uint8_t> last_;
  bool sent_ = false;
};

}  // namespace hookmd
