// Which side of a field is current: the host mirror, the device array, or both (Kokkos DualView's
// modify/sync, HOOMD's GPUArray data location). Writing a side makes the other stale; a read of a stale
// side is the only thing that copies. The table also counts what was copied, so tests can prove what moved.
#pragma once

#include <array>
#include <cstdint>

#include "core/Fields.h"

namespace hookmd {

enum class Side : int { Host = 0, Device = 1 };

/** Bytes and copies moved between the sides since the last reset. */
struct TransferStats {
  std::uint64_t toHostBytes = 0;
  std::uint64_t toDeviceBytes = 0;
  std::uint64_t toHostCopies = 0;
  std::uint64_t toDeviceCopies = 0;
};

class Coherence {
 public:
  Coherence();

  /** Both sides hold the same contents (after a resize zeroes both). Versions keep counting. */
  void reset();
  bool current(Field field, Side side) const { return (current_[index(field)] & bit(side)) != 0; }
  /** A copy of `bytes` bytes brought `side` up to date: both sides are current. */
  void synced(Field field, Side side, std::uint64_t bytes);
  /** `side` was (or is about to be) written: the other side is stale, and the field's version moves on. */
  void modified(Field field, Side side);
  /** Changes every time the field is modified on either side, so caches of derived data can compare it. */
  std::uint64_t version(Field field) const { return version_[index(field)]; }

  /** Rows of a field were copied host → device without changing which side is current (writeRows). */
  void rangeToDevice(std::uint64_t bytes) {
    stats_.toDeviceBytes += bytes;
    ++stats_.toDeviceCopies;
  }
  /** Rows of a field were copied device → host into a caller's buffer (readSystems). */
  void rangeToHost(std::uint64_t bytes) {
    stats_.toHostBytes += bytes;
    ++stats_.toHostCopies;
  }
  /** The field changed in place on every current side: its version moves on, its sides stay current. */
  void touched(Field field) { ++version_[index(field)]; }

  /** A per-system result block (a reduction's output) was copied device → host. */
  void resultToHost(std::uint64_t bytes) {
    stats_.toHostBytes += bytes;
    ++stats_.toHostCopies;
  }

  const TransferStats& stats() const noexcept { return stats_; }
  void resetStats() { stats_ = TransferStats(); }

 private:
  static int index(Field field) { return static_cast<int>(field); }
  static std::uint8_t bit(Side side) { return side == Side::Host ? 1 : 2; }

  std::array<std::uint8_t, kFieldCount> current_{};
  std::array<std::uint64_t, kFieldCount> version_{};
  TransferStats stats_;
};

}  // namespace hookmd
