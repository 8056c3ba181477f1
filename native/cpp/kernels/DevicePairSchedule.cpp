#include "kernels/DevicePairSchedule.h"

#include <algorithm>

#include "platform/DarkKernels.h"
#include "core/Error.h"

namespace hookmd {

namespace {
/** Bytes of the status block (kernel::NeighborStatus) each check, build and evaluation reads back. */
constexpr std::uint64_t kStatusBytes = 40;
}  // namespace

DevicePairSchedule::DevicePairSchedule(Backend& backend, std::string model, std::size_t paramBytes, std::size_t switchBytes)
    : backend_(backend), model_(std::move(model)) {
  backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, paramBytes});
  if (switchBytes > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, switchBytes});
}

DevicePairSchedule::Uploads DevicePairSchedule::begin(const std::int32_t* ptr, const std::uint8_t* wanted, const AtomTypes& types,
                                                      int numTypes, double cutoff, double skin) {
  Uploads uploads;
  const std::int64_t atoms = backend_.numAtoms();
  const std::int64_t systems = backend_.numSystems();
  const bool resized = generation_ != backend_.generation() || atoms != numAtoms_ || systems != numSystems_;
  if (resized || !std::equal(ptr, ptr + systems + 1, ptr_.begin())) {
    bool ok = ptr[0] == 0 && ptr[systems] == atoms;
    for (std::int64_t s = 0; ok && s < systems; ++s) ok = ptr[s + 1] >= ptr[s];
    if (!ok) fail("INVALID_BATCH", model_ + ": the batch's ptr offsets do not partition its atoms");
    uploads.layout = true;
    ++layouts_;
    built_ = false;
    // A new layout is a new batch: energies a step of the old one left unsummed belong to no system now.
    sumsPending_ = false;
    std::int64_t segments = 0;
    for (std::int64_t s = 0; s < systems; ++s) segments += (ptr[s + 1] - ptr[s] + kPairSumSegmentSlots - 1) / kPairSumSegmentSlots;
    numSegments_ = segments;
    // Each table goes up in its own copy, and an empty one not at all.
    const std::uint64_t tables[3] = {static_cast<std::uint64_t>(atoms) * 4, static_cast<std::uint64_t>(segments) * 12,
                                     static_cast<std::uint64_t>(systems + 1) * 4};
    for (std::uint64_t bytes : tables) {
      if (bytes > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, bytes});
    }
    if (resized) {
      typesSent_ = false;
      wanted_.forget();
    }
    generation_ = backend_.generation();
    numAtoms_ = atoms;
    numSystems_ = systems;
    ptr_.assign(ptr, ptr + systems + 1);
  }
  const bool selectionChanged = wanted != nullptr && wanted_.update(wanted, static_cast<std::size_t>(systems));
  // Pending sums are superseded by a pair loop over the same systems or more; a loop over fewer would leave
  // some systems' energies unsummed, so the pending sums run first, over the selection they belong to.
  if (sumsPending_ && wanted != nullptr && (selectionChanged || pendingAll_)) {
    uploads.pendingSums = true;
    summed();
  }
  if (selectionChanged) {
    uploads.wanted = true;
    backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, static_cast<std::uint64_t>(systems)});
  }
  selectsAll_ = wanted == nullptr;
  wantsAll_ = wanted == nullptr || std::all_of(wanted, wanted + systems, [](std::uint8_t flag) { return flag != 0; });
  geometryGeneration_ = backend_.generation();
  cellVersion_ = backend_.version(Field::Cell);
  pbcVersion_ = backend_.version(Field::Pbc);
  if (numTypes > 1) {
    if (types.types == nullptr || static_cast<std::int64_t>(types.types->size()) != atoms) {
      fail("INVALID_STATE", model_ + ": species types were not assigned to every atom of the batch");
    }
    if (!typesSent_ || types.version != typesVersion_) {
      uploads.types = true;
      if (atoms > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, static_cast<std::uint64_t>(atoms)});
      typesVersion_ = types.version;
      typesSent_ = true;
    }
  }
  const double rlist = cutoff + skin;
  const bool newRadius = rlist != rlist_ || skin != skin_;
  if (newRadius) {
    rlist_ = rlist;
    skin_ = skin;
    built_ = false;
  }
  // NeighborCache's count: every time the whole state is dropped (new batch, layout, cutoff or skin).
  if (resized || newRadius) ++resets_;
  return uploads;
}

void DevicePairSchedule::chargeEmptyBatch(bool stress) {
  backend_.charge(DeviceOp::FieldFill, DeviceWork{stress ? 2u : 1u});
}

void DevicePairSchedule::checked(bool stale) {
  listsClean_ = !stale && wantsAll_;
  const auto atoms = static_cast<std::uint64_t>(numAtoms_);
  const auto systems = static_cast<std::uint64_t>(numSystems_);
  backend_.charge(DeviceOp::PairCheck, DeviceWork{1, atoms, systems, 0, kStatusBytes, 0});
}

void DevicePairSchedule::buildStarted() {
  built_ = false;
  const auto atoms = static_cast<std::uint64_t>(numAtoms_);
  const auto systems = static_cast<std::uint64_t>(numSystems_);
  backend_.charge(DeviceOp::PairGrids, DeviceWork{1, atoms, systems, 0, kStatusBytes, kStatusBytes});
  backend_.charge(DeviceOp::PairBins, DeviceWork{1, atoms, systems, 0, 0, 0});
}

bool DevicePairSchedule::searched(std::uint64_t maxNeighbors, std::uint64_t entries) {
  const auto atoms = static_cast<std::uint64_t>(numAtoms_);
  const auto systems = static_cast<std::uint64_t>(numSystems_);
  backend_.charge(DeviceOp::PairSearch, DeviceWork{1, atoms, systems, entries, kStatusBytes, 0});
  entries_ = entries;
  if (maxNeighbors <= static_cast<std::uint64_t>(rowCapacity_)) return true;
  // 1/8 headroom over the longest row, so a liquid's fluctuating density rarely triggers another retry.
  const std::uint64_t grown = (maxNeighbors * 9 / 8 + 7) / 8 * 8;
  if (grown > 0x7fffffffu) fail("NEIGHBOR_OVERFLOW", model_ + ": neighbor list: an atom has more than 2^31 neighbors");
  rowCapacity_ = static_cast<int>(grown);
  backend_.charge(DeviceOp::PairSearchRetry);
  return false;
}

void DevicePairSchedule::built() {
  listsClean_ = true;
  builds_ += numSystems_;
  backend_.chargeRebuild(numSystems_);
  built_ = true;
}

bool DevicePairSchedule::defersSums(const ComputeRequest& request) {
  return !request.energies && !request.stress && deviceKernelEnabled(DeviceKernelFamily::DeviceStep);
}

void DevicePairSchedule::evaluated(bool stress, bool deferred) {
  const auto atoms = static_cast<std::uint64_t>(numAtoms_);
  const auto systems = static_cast<std::uint64_t>(numSystems_);
  backend_.charge(deferred ? DeviceOp::PairEvaluateDeferred : DeviceOp::PairEvaluate,
                  DeviceWork{1, atoms, systems, entries_, kStatusBytes, 0});
  sumsPending_ = deferred;
  pendingAll_ = selectsAll_;
  if (stress) backend_.charge(DeviceOp::ControlDownload, DeviceWork{1, 0, 0, 0, 9 * systems * sizeof(double), 0});
}

void DevicePairSchedule::summed() {
  backend_.charge(DeviceOp::PairEnergySums, DeviceWork{1, static_cast<std::uint64_t>(numAtoms_), static_cast<std::uint64_t>(numSystems_), 0, 0, 0});
  sumsPending_ = false;
}

bool DevicePairSchedule::residentReady() {
  if (!built_ || !listsClean_ || numSystems_ <= 0 || geometryGeneration_ != backend_.generation() ||
      cellVersion_ != backend_.version(Field::Cell) || pbcVersion_ != backend_.version(Field::Pbc)) {
    return false;
  }
  const std::uint8_t* pbc = backend_.host({Field::Pbc}).u8(Field::Pbc);
  return std::all_of(pbc, pbc + 3 * numSystems_, [](std::uint8_t periodic) { return periodic != 0; });
}

void DevicePairSchedule::residentRan(const ResidentChunkResult& result) {
  builds_ += result.systemsRebuilt;
  // The chunk's pair loops covered the selection of the compute before it (every system), as a deferred
  // evaluation over it would.
  sumsPending_ = true;
  pendingAll_ = selectsAll_;
  // Each step rebuilt the systems its check marked, so a chunk leaves none stale; a replayed one leaves garbage.
  listsClean_ = !result.replay;
  if (result.replay) built_ = false;
}

void DevicePairSchedule::regrow(std::uint64_t longestRow) {
  const std::uint64_t grown = (longestRow * 5 / 4 + 7) / 8 * 8;
  if (grown > 0x7fffffffu) fail("NEIGHBOR_OVERFLOW", model_ + ": neighbor list: an atom has more than 2^31 neighbors");
  rowCapacity_ = std::max(rowCapacity_, static_cast<int>(grown));
  built_ = false;
  backend_.chargeResidentEvents(0, 1);
}

bool DevicePairSchedule::capturesChunk(std::int64_t steps) {
  if (capturedLayouts_ != layouts_ || capturedCapacity_ != rowCapacity_) {
    capturedLengths_.clear();
    capturedLayouts_ = layouts_;
    capturedCapacity_ = rowCapacity_;
  }
  const auto kept = std::find(capturedLengths_.begin(), capturedLengths_.end(), steps);
  if (kept != capturedLengths_.end()) {
    std::rotate(kept, kept + 1, capturedLengths_.end());
    return false;
  }
  if (capturedLengths_.size() == kResidentGraphsKept) capturedLengths_.erase(capturedLengths_.begin());
  capturedLengths_.push_back(steps);
  return true;
}

NeighborStats DevicePairSchedule::stats(std::int64_t bytes) const {
  NeighborStats stats;
  stats.builds = builds_;
  stats.resets = resets_;
  // Each unordered pair sits in both of its atoms' rows; count it once, as the CPU's half lists do.
  stats.pairs = built_ ? static_cast<std::int64_t>(entries_ / 2) : 0;
  stats.systems = built_ ? numSystems_ : 0;
  stats.bytes = bytes;
  return stats;
}

}  // namespace hookmd
