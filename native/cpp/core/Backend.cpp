#include "core/Backend.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/Error.h"
#include "core/RowGather.h"

namespace hookmd {

void Backend::resize(std::int64_t numAtoms, std::int64_t numSystems) {
  // Every field is zeroed: a result still pending has nothing left to complete.
  deferred_ = Deferral();
  host_.resize(numAtoms, numSystems);
  try {
    resizeDevice(numAtoms, numSystems);
  } catch (...) {
    // Host and device sizes must always agree: an empty batch is consistent, a half-resized one is not.
    host_.resize(0, 0);
    resizeDevice(0, 0);
    coherence_.reset();
    throw;
  }
  coherence_.reset();
}

void Backend::refill(const std::vector<std::int64_t>& keep, const std::vector<std::int32_t>& addedAtoms) {
  finishDeferred(FieldSet{deferred_.field});
  const std::vector<std::int32_t> oldPtr(host({Field::Ptr}).i32(Field::Ptr), host_.i32(Field::Ptr) + host_.numSystems() + 1);
  const RefillPlan plan = makeRefillPlan(oldPtr.data(), host_.numSystems(), keep, addedAtoms);
  const FieldSet layout{Field::Ptr, Field::NumAtoms, Field::SystemIndex};
  FieldSet onHost;
  FieldSet onDevice;
  std::array<std::shared_ptr<HostBuffer>, kFieldCount> old;
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    old[i] = host_.buffer(field);
    if (layout.contains(field)) continue;
    onHost = onHost.with(field, coherence_.current(field, Side::Host));
    onDevice = onDevice.with(field, coherence_.current(field, Side::Device));
  }
  const bool copies = !unified();
  if (copies) chargeRefill(plan, onDevice);
  host_.resize(plan.numAtoms, plan.numSystems);
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    if (onHost.contains(field)) gatherRows(field, plan, old[i]->data(), host_.buffer(field)->data());
  }
  if (copies) {
    try {
      refillDevice(plan, onDevice);
    } catch (...) {
      host_.resize(0, 0);
      resizeDevice(0, 0);
      coherence_.reset();
      throw;
    }
  }
  // The layout is rebuilt on the host from the plan; the device gets it when a kernel reads it.
  std::int32_t* ptr = host_.i32(Field::Ptr);
  std::int32_t* numAtoms = host_.i32(Field::NumAtoms);
  std::int32_t* systemIndex = host_.i32(Field::SystemIndex);
  for (std::int64_t s = 0; s < plan.numSystems; ++s) {
    ptr[s] = static_cast<std::int32_t>(plan.targetAtom[s]);
    numAtoms[s] = plan.atomCount[s];
    std::fill(systemIndex + plan.targetAtom[s], systemIndex + plan.targetAtom[s] + plan.atomCount[s], static_cast<std::int32_t>(s));
  }
  ptr[plan.numSystems] = static_cast<std::int32_t>(plan.numAtoms);
  for (Field field : {Field::Ptr, Field::NumAtoms, Field::SystemIndex}) coherence_.modified(field, Side::Host);
  if (!copies) coherence_.reset();
}

void Backend::writeRows(Field field, std::int64_t first, std::int64_t count, const void* source) {
  const FieldInfo& info = fieldInfo(field);
  const std::size_t rowBytes = static_cast<std::size_t>(info.components) * elementSize(info.type);
  const std::size_t rows = fieldBytes(field) / rowBytes;
  if (first < 0 || count < 0 || static_cast<std::size_t>(first + count) > rows) {
    fail("INVALID_ARGUMENT", std::string("writeRows: rows [") + std::to_string(first) + ", " + std::to_string(first + count) +
                                 ") are outside the " + std::to_string(rows) + " rows of '" + info.name + "'");
  }
  const std::size_t offset = static_cast<std::size_t>(first) * rowBytes;
  const std::size_t bytes = static_cast<std::size_t>(count) * rowBytes;
  if (bytes == 0) return;
  // The rows not written must still be completed, and a late completion must not overwrite these.
  finishDeferred(FieldSet{field});
  // The host buffer always takes the rows: where the host is stale, they are overwritten by the next sync
  // anyway, and meanwhile they are the staging copy for the device.
  std::memcpy(static_cast<unsigned char*>(host_.buffer(field)->data()) + offset, source, bytes);
  if (!unified() && coherence_.current(field, Side::Device)) {
    copyRangeToDevice(field, offset, bytes);
    coherence_.rangeToDevice(bytes);
    charge(DeviceOp::FieldCopy);
  }
  coherence_.touched(field);
}

void Backend::readSystems(Field field, const std::vector<std::int64_t>& systems, void* out) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent == Extent::PerSystemPlusOne) fail("INVALID_FIELD", "readSystems: ptr has no rows per system");
  const std::size_t rowBytes = static_cast<std::size_t>(info.components) * elementSize(info.type);
  finishDeferred(FieldSet{field});
  const std::int32_t* ptr = host({Field::Ptr}).i32(Field::Ptr);
  const bool fromHost = unified() || coherence_.current(field, Side::Host);
  auto* target = static_cast<unsigned char*>(out);
  for (std::int64_t s : systems) {
    if (s < 0 || s >= host_.numSystems()) fail("INVALID_ARGUMENT", "readSystems: system " + std::to_string(s) + " is outside the batch");
    const bool perAtom = info.extent == Extent::PerAtom;
    const std::size_t offset = (perAtom ? static_cast<std::size_t>(ptr[s]) : static_cast<std::size_t>(s)) * rowBytes;
    const std::size_t bytes = (perAtom ? static_cast<std::size_t>(ptr[s + 1] - ptr[s]) : 1) * rowBytes;
    if (bytes == 0) continue;
    if (fromHost) {
      std::memcpy(target, static_cast<const unsigned char*>(host_.buffer(field)->data()) + offset, bytes);
    } else {
      copyRangeFromDevice(field, offset, bytes, target);
      coherence_.rangeToHost(bytes);
      charge(DeviceOp::FieldCopy);
    }
    target += bytes;
  }
}

void Backend::defer(Field field, const void* owner, std::function<void()> finish) {
  if (deferred_.finish && deferred_.owner == owner && deferred_.field == field) return;
  finishDeferred(FieldSet{deferred_.field});
  deferred_ = Deferral{field, owner, std::move(finish)};
}

void Backend::finishDeferred(FieldSet touched) {
  if (!deferred_.finish || !touched.contains(deferred_.field) || deferred_.owner == scopeOwner_) return;
  // Cleared first: the completion accesses the field itself, and a failed one is not retried.
  const std::function<void()> finish = std::move(deferred_.finish);
  deferred_ = Deferral();
  finish();
}

void Backend::acquire(Side side, FieldSet reads, FieldSet writes) {
  finishDeferred(reads | writes);
  const bool copies = !unified();
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    if (copies && reads.contains(field) && !coherence_.current(field, side)) {
      const std::size_t bytes = fieldBytes(field);
      if (bytes > 0) {
        if (side == Side::Host) copyToHost(field, bytes);
        else copyToDevice(field, bytes);
        charge(DeviceOp::FieldCopy);
      }
      coherence_.synced(field, side, bytes);
    }
    if (writes.contains(field)) coherence_.modified(field, copies ? side : Side::Host);
  }
  // On one memory both sides are always current; modified() above only moved the version on.
  if (!copies) coherence_.reset();
}

BatchStorage& Backend::host(FieldSet reads, FieldSet writes) {
  acquire(Side::Host, reads, writes);
  return host_;
}

void Backend::onDevice(FieldSet reads, FieldSet writes) { acquire(Side::Device, reads, writes); }

BatchStorage& Backend::referenceArrays(bool deviceKernel, FieldSet reads, FieldSet writes) {
  BatchStorage* onDevice = deviceArrays();
  if (!deviceKernel || onDevice == nullptr) return host(reads, writes);
  acquire(Side::Device, reads, writes);
  return *onDevice;
}

void Backend::charge(DeviceOp op, const DeviceWork& work) {
  if (unified() || ledgerMuted_ > 0) return;
  const DeviceCost& cost = deviceCost(op);
  DeviceStats stats;
  stats.launches = cost.launches * work.times;
  stats.graphLaunches = cost.graphLaunches * work.times;
  stats.hostSyncs = cost.hostSyncs * work.times;
  if (cost.control) {
    stats.controlToHostBytes = work.toHost;
    stats.controlToDeviceBytes = work.toDevice;
  }
  stats.modeledDeviceBytes =
      work.times * (cost.bytesPerAtom * work.atoms + cost.bytesPerSystem * work.systems + cost.bytesPerEntry * work.entries);
  ledger_.add(stats);
}

void Backend::chargeAtomKernel(DeviceOp op) {
  if (numAtoms() == 0) return;
  charge(op, DeviceWork{1, static_cast<std::uint64_t>(numAtoms()), static_cast<std::uint64_t>(numSystems()), 0, 0, 0});
}

void Backend::chargeRebuild(std::int64_t systems) { chargeRebuilds(1, systems); }

void Backend::chargeRebuilds(std::int64_t passes, std::int64_t systems) {
  if (unified() || ledgerMuted_ > 0) return;
  DeviceStats stats;
  stats.rebuildPasses = static_cast<std::uint64_t>(passes);
  stats.systemsRebuilt = static_cast<std::uint64_t>(systems);
  ledger_.add(stats);
}

void Backend::chargeResidentEvents(std::uint64_t captures, std::uint64_t regrowths) {
  if (unified() || ledgerMuted_ > 0) return;
  DeviceStats stats;
  stats.graphCaptures = captures;
  stats.rowRegrowths = regrowths;
  ledger_.add(stats);
}

void Backend::chargeRefill(const RefillPlan& plan, FieldSet kept) {
  // The plan's four per-system vectors go up (none for an empty batch), one gather per kept field with rows,
  // then one wait before the old arrays are freed.
  if (plan.numSystems > 0) {
    const auto systems = static_cast<std::uint64_t>(plan.numSystems);
    charge(DeviceOp::ControlUpload, DeviceWork{4, 0, 0, 0, 0, systems * (3 * sizeof(std::int64_t) + sizeof(std::int32_t))});
    std::uint64_t gathers = 0;
    for (int i = 0; i < kFieldCount; ++i) gathers += kept.contains(static_cast<Field>(i)) ? 1 : 0;
    charge(DeviceOp::RowGather, DeviceWork{gathers});
  }
  charge(DeviceOp::DeviceWait);
}

void Backend::reduce(Field field, ReduceOp op, double* out) {
  const FieldInfo& info = fieldInfo(field);
  if (info.extent != Extent::PerAtom || info.type != ElementType::Float64) {
    fail("INVALID_FIELD", std::string("reduce: field '") + info.name + "' is not a per-atom float64 field");
  }
  if (numSystems() == 0) return;
  reduceOnDevice(field, op, out);
  chargeReduction();
}

void Backend::kineticEnergy(double* out) {
  if (numSystems() == 0) return;
  kineticEnergyOnDevice(out);
  chargeReduction();
}

void Backend::chargeReduction() {
  if (unified()) return;
  const auto systems = static_cast<std::uint64_t>(numSystems());
  // The results and the error flag after them come back in one copy of control data; transferStats()
  // also counts the results, as a per-system result block.
  coherence_.resultToHost(systems * sizeof(double));
  charge(DeviceOp::Reduction, DeviceWork{1, static_cast<std::uint64_t>(numAtoms()), systems, 0, (systems + 1) * sizeof(double), 0});
}

}  // namespace hookmd
