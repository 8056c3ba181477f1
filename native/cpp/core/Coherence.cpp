#include "core/Coherence.h"

namespace hookmd {

Coherence::Coherence() { reset(); }

void Coherence::reset() { current_.fill(3); }

void Coherence::synced(Field field, Side side, std::uint64_t bytes) {
  current_[index(field)] = 3;
  if (side == Side::Host) {
    stats_.toHostBytes += bytes;
    ++stats_.toHostCopies;
  } else {
    stats_.toDeviceBytes += bytes;
    ++stats_.toDeviceCopies;
  }
}

void Coherence::modified(Field field, Side side) {
  current_[index(field)] = bit(side);
  ++version_[index(field)];
}

}  // namespace hookmd
