// The Backend interface (docs/ARCHITECTURE.md), the storage of one Batch: it owns every per-atom and
// per-system array, keeps the host mirrors and the device arrays coherent, holds deferred results and
// counts the device work. `cpu` keeps one memory; `mirror` keeps device arrays in host memory apart from
// the host mirrors; `cuda` keeps them on a GPU. Which kernels run on it is the platform's business
// (platform/KernelFactory.h). Engine code declares what it reads and writes and never asks which backend it
// runs on.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/BatchStorage.h"
#include "core/Coherence.h"
#include "core/DeviceCosts.h"
#include "core/DeviceLedger.h"
#include "core/FieldSet.h"
#include "core/Fields.h"
#include "core/RefillPlan.h"

namespace hookmd {

enum class ReduceOp : int { Sum = 0, Mean, Min, Max, Norm };

/** Returns false when `name` is not one of sum, mean, min, max, norm. */
bool reduceOpFromName(const std::string& name, ReduceOp& out);

class Backend {
 public:
  virtual ~Backend() = default;

  /**
   * "cpu", "mirror" or "cuda": for reports, and the key of the backend's kernels in the platform registry
   * (platform/KernelFactory.h); never for choosing a code path.
   */
  virtual const char* name() const noexcept = 0;
  /** Human-readable device description, e.g. "2 threads" or "NVIDIA H100 (sm_90)". */
  virtual std::string device() const = 0;
  /** Reallocates every field for numAtoms atoms in numSystems systems, zeroed on both sides. */
  void resize(std::int64_t numAtoms, std::int64_t numSystems);
  std::int64_t numAtoms() const noexcept { return host_.numAtoms(); }
  std::int64_t numSystems() const noexcept { return host_.numSystems(); }
  /** Unique per backend object, so a model used with several batches can tell them apart. */
  std::uint64_t id() const noexcept { return host_.id(); }
  /** Changes whenever the arrays are reallocated. */
  std::uint64_t generation() const noexcept { return host_.generation(); }
  Units& units() noexcept { return host_.units; }
  const Units& units() const noexcept { return host_.units; }
  /** Changes whenever `field` is modified on either side. */
  std::uint64_t version(Field field) const { return coherence_.version(field); }

  /** The host arrays, after syncing `reads` to the host and marking `writes` as modified there. */
  BatchStorage& host(FieldSet reads, FieldSet writes = {});
  /** Syncs `reads` to the device and marks `writes` as modified there; device kernels then use their arrays. */
  void onDevice(FieldSet reads, FieldSet writes = {});
  /**
   * The arrays a CPU reference runs on: the device arrays where `deviceKernel` (the operation runs on this
   * backend's device, platform/DeviceOperations.h) and they are host memory (cpu, mirror), else the host
   * mirrors. Syncs and marks like host().
   */
  BatchStorage& referenceArrays(bool deviceKernel, FieldSet reads, FieldSet writes = {});
  /**
   * Keeps the systems at `keep` (in that order) and appends systems of `addedAtoms` atoms, in place. Every
   * field is compacted on each side where it is current, so kept data does not cross between host and
   * device; appended rows are zero until writeRows() fills them. ptr, numAtoms and systemIndex are rebuilt on
   * the host. The arrays are reallocated (generation() changes). Throws INVALID_ARGUMENT for a bad index.
   */
  void refill(const std::vector<std::int64_t>& keep, const std::vector<std::int32_t>& addedAtoms);
  /**
   * Writes `count` rows of `field` from `source`, starting at row `first`, on every side where the field is
   * current (the copy to the device counts in transferStats()). Coherence is unchanged.
   */
  void writeRows(Field field, std::int64_t first, std::int64_t count, const void* source);
  /**
   * The rows of the systems at `systems` (in that order) of `field`, packed into `out`: from the host when
   * it is current, else only those rows from the device (counted). Coherence is unchanged.
   */
  void readSystems(Field field, const std::vector<std::int64_t>& systems, void* out);
  /** The host buffer of `field` without any sync, for views that stay valid across syncs. */
  const std::shared_ptr<HostBuffer>& hostBuffer(Field field) const { return host_.buffer(field); }

  /**
   * A result that a device kernel left incomplete (docs/cuda.md, "Energies only when asked"): `finish`
   * completes `field` before it is next read or written anywhere, on either side or by a refill, except by
   * the accesses made inside a DeferralScope of the same `owner` (its own computes, which complete or
   * supersede it). A pending deferral of another owner is finished first; a resize drops it.
   */
  void defer(Field field, const void* owner, std::function<void()> finish);

  /** While alive, accesses on behalf of `owner` leave its deferred result pending. */
  class DeferralScope {
   public:
    DeferralScope(Backend& backend, const void* owner) : backend_(backend), outer_(backend.scopeOwner_) { backend.scopeOwner_ = owner; }
    ~DeferralScope() { backend_.scopeOwner_ = outer_; }
    DeferralScope(const DeferralScope&) = delete;
    DeferralScope& operator=(const DeferralScope&) = delete;

   private:
    Backend& backend_;
    const void* outer_;
  };

  /** True where host and device are one memory (cpu): nothing is ever copied and host views never go stale. */
  bool unified() noexcept { return deviceArrays() == &host_; }
  /**
   * The bytes of host memory this batch's fields hold: the host arrays, plus the device arrays where they
   * are host memory apart from them (mirror). The binding reports it to V8 (BatchWrap::reportHostMemory).
   */
  std::size_t hostMemoryBytes() noexcept {
    const BatchStorage* device = deviceArrays();
    return host_.bytes() + (device != nullptr && device != &host_ ? device->bytes() : 0);
  }

  const TransferStats& transferStats() const noexcept { return coherence_.stats(); }
  void resetTransferStats() { coherence_.resetStats(); }

  /** Device work since the last reset, as core/DeviceCosts.h declares it; all zero where host and device are one memory. */
  const DeviceStats& deviceStats() const noexcept { return ledger_.stats(); }
  void resetDeviceStats() { ledger_.reset(); }
  /**
   * Records that `op` ran on the device (`work` says how often and over how much). Device backends call it
   * where they issue the operation, `mirror` where it emulates it; on one memory it records nothing.
   */
  void charge(DeviceOp op, const DeviceWork& work = {});
  /** Records one run of a one-thread-per-atom kernel `op` over the whole batch (none when it has no atoms). */
  void chargeAtomKernel(DeviceOp op);
  /** Records a neighbor-list rebuild pass that rebuilt `systems` systems. */
  void chargeRebuild(std::int64_t systems);
  /** Records `passes` rebuild passes that rebuilt `systems` systems in all (a resident chunk's, read from its status). */
  void chargeRebuilds(std::int64_t passes, std::int64_t systems);
  /** Records a resident chunk's graph captures and its row regrowths (dynamics/ResidentStepPath.h). */
  void chargeResidentEvents(std::uint64_t captures, std::uint64_t regrowths);

  /**
   * While alive, nothing is charged: `mirror` computes a resident chunk's numbers with the general step's
   * CPU code, while the chunk is charged what cuda's graph costs (dynamics/ResidentStepPath.h).
   */
  class LedgerMute {
   public:
    explicit LedgerMute(Backend& backend) : backend_(backend) { ++backend.ledgerMuted_; }
    ~LedgerMute() { --backend_.ledgerMuted_; }
    LedgerMute(const LedgerMute&) = delete;
    LedgerMute& operator=(const LedgerMute&) = delete;

   private:
    Backend& backend_;
  };

  /**
   * Per-system reduction of a per-atom field over each system's atoms, written to out[numSystems] (host).
   * Vector fields are reduced through each atom's Euclidean norm; `Norm` is the root of the sum of squares
   * of every component. Empty systems give 0. Throws INVALID_FIELD for a field that is not per-atom float64.
   */
  void reduce(Field field, ReduceOp op, double* out);
  /** Kinetic energy per system, ½ Σ m v² converted to energy units with the batch's Units. */
  void kineticEnergy(double* out);
  /** Largest per-atom force norm per system. */
  void fmax(double* out) { reduce(Field::Forces, ReduceOp::Max, out); }

 protected:
  /** Reallocates the device arrays (zeroed); the host mirrors are already resized. */
  virtual void resizeDevice(std::int64_t numAtoms, std::int64_t numSystems) = 0;
  /** The device arrays where they are host memory (cpu: the host arrays themselves), else null. */
  virtual BatchStorage* deviceArrays() noexcept = 0;
  /** Copies `bytes` bytes of `field` device → host mirror. */
  virtual void copyToHost(Field field, std::size_t bytes) = 0;
  /** Copies `bytes` bytes of `field` host mirror → device. */
  virtual void copyToDevice(Field field, std::size_t bytes) = 0;
  /** Reallocates the device arrays for `plan` (zeroed) and compacts the fields in `kept` into them. */
  virtual void refillDevice(const RefillPlan& plan, FieldSet kept) = 0;
  /** Copies bytes [offset, offset + bytes) of `field`'s host mirror to the same range on the device. */
  virtual void copyRangeToDevice(Field field, std::size_t offset, std::size_t bytes) = 0;
  /** Copies bytes [offset, offset + bytes) of `field` on the device to `out`. */
  virtual void copyRangeFromDevice(Field field, std::size_t offset, std::size_t bytes, void* out) = 0;
  /**
   * The reduction kernel, over a field already checked to be per-atom float64: writes out[numSystems] on
   * the host. `cpu` and `mirror` run the CPU reference on referenceArrays(true, ...).
   */
  virtual void reduceOnDevice(Field field, ReduceOp op, double* out) = 0;
  /** The kinetic-energy kernel, likewise. */
  virtual void kineticEnergyOnDevice(double* out) = 0;

  BatchStorage& hostStorage() noexcept { return host_; }
  const BatchStorage& hostStorage() const noexcept { return host_; }
  std::size_t fieldBytes(Field field) const { return host_.length(field) * elementSize(fieldInfo(field).type); }

 private:
  void acquire(Side side, FieldSet reads, FieldSet writes);
  /** The ledger charges of a refill that compacts the fields in `kept` on the device. */
  void chargeRefill(const RefillPlan& plan, FieldSet kept);
  /** The ledger and transfer counts of one per-system reduction, whose results come back with its error flag. */
  void chargeReduction();

  /** Runs the pending deferral when `touched` holds its field and the access is not its owner's. */
  void finishDeferred(FieldSet touched);

  BatchStorage host_;
  Coherence coherence_;
  DeviceLedger ledger_;
  struct Deferral {
    Field field = Field::Energy;
    const void* owner = nullptr;
    std::function<void()> finish;
  };
  Deferral deferred_;
  const void* scopeOwner_ = nullptr;
  int ledgerMuted_ = 0;
};

}  // namespace hookmd
