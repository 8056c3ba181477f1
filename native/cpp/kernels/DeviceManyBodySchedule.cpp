#include "kernels/DeviceManyBodySchedule.h"

#include "core/Error.h"

namespace hookmd {

namespace {
/** Bytes of the status block (kernel::NeighborStatus) each evaluation reads back. */
constexpr std::uint64_t kStatusBytes = 40;
}  // namespace

DeviceManyBodySchedule::DeviceManyBodySchedule(Backend& backend, std::string model, std::size_t rowBytes)
    : backend_(backend), model_(model), uploads_(backend, std::move(model), rowBytes, 0) {}

bool DeviceManyBodySchedule::evaluated(std::uint64_t longest, std::uint64_t entries) {
  const auto atoms = static_cast<std::uint64_t>(numAtoms());
  const auto systems = static_cast<std::uint64_t>(numSystems());
  backend_.charge(DeviceOp::ManyBodyEvaluate, DeviceWork{1, atoms, systems, entries, kStatusBytes, 0});
  builds_ += numSystems();
  entries_ = entries;
  if (longest <= static_cast<std::uint64_t>(rowCapacity_)) return true;
  // The pair kernel's headroom: 1/8 over the longest row, a multiple of 8.
  const std::uint64_t grown = (longest * 9 / 8 + 7) / 8 * 8;
  if (grown > 0x7fffffffu) fail("NEIGHBOR_OVERFLOW", model_ + ": an atom has more than 2^31 neighbours");
  rowCapacity_ = static_cast<int>(grown);
  return false;
}

void DeviceManyBodySchedule::finished(bool stress) {
  const auto systems = static_cast<std::uint64_t>(numSystems());
  if (stress) backend_.charge(DeviceOp::ControlDownload, DeviceWork{1, 0, 0, 0, 9 * systems * sizeof(double), 0});
}

NeighborStats DeviceManyBodySchedule::stats(std::int64_t bytes) const {
  NeighborStats stats;
  stats.builds = builds_;
  stats.pairs = static_cast<std::int64_t>(entries_ / 2);
  stats.systems = builds_ > 0 ? numSystems() : 0;
  stats.bytes = bytes;
  return stats;
}

}  // namespace hookmd
