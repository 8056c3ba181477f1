// The host side of a device pair-force kernel (docs/cuda.md, "Neighbor lists and pair forces on the GPU"):
// which of its operations run at each compute, in what order, and what each costs on the ledger. The CUDA
// kernel follows it with real launches; `mirror` follows it with the CPU reference and a model of what the
// device would find (which lists went stale, how long the rows are), so both charge the same operations.
//
// The policy: the per-system tables go up when the batch's layout changes, the selection flags when they
// change, the species types when their version moves. Before each compute a device pass compares every
// system's cell and pbc with its build and every atom's displacement with skin/2 and reads one status block
// back; when a wanted system is stale, every system of the batch is rebuilt in one pass (grids, bins,
// search, one status read after the grids and one after each search). A search whose longest row exceeds
// the row capacity grows it to the longest row + 1/8 and runs again. The evaluation reads the status block
// once more (and the virial when the stress is asked for). With the device-step family on (platform/DarkKernels.h),
// a compute that no one reads the energies of (ComputeRequest::energies false, no stress) leaves the
// per-system sums pending: the pair loop flags a non-finite slot energy itself, and the sums run when the
// energies are asked for (finishEnergies), or before the selection they belong to changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Backend.h"
#include "core/SentFlags.h"
#include "kernels/PairForceKernel.h"
#include "kernels/ResidentStepKernel.h"

namespace hookmd {

/** Full-list entries per first-level sum segment: the slots of one system summed by one warp. */
constexpr std::int32_t kPairSumSegmentSlots = 512;

class DevicePairSchedule {
 public:
  /** The row capacity of the first build: small systems fit it; dense ones grow once. */
  static constexpr int kInitialRowCapacity = 16;

  /** Charges the upload of the parameter tables (`paramBytes`, and `switchBytes` when switched). */
  DevicePairSchedule(Backend& backend, std::string model, std::size_t paramBytes, std::size_t switchBytes);

  /** What one compute must send before its kernels run. */
  struct Uploads {
    /** ptr changed: the per-atom system index, the sum segments and their offsets (tables of layout()). */
    bool layout = false;
    bool wanted = false;
    bool types = false;
    /** Energy sums are pending and the selection changes: run them (over the old flags) before the upload. */
    bool pendingSums = false;
  };
  /**
   * Starts a compute over `ptr` (validated: INVALID_BATCH), `wanted` (null: all systems) and the species
   * `types` (when `numTypes` > 1), with list radius cutoff + skin; charges the uploads it returns.
   */
  Uploads begin(const std::int32_t* ptr, const std::uint8_t* wanted, const AtomTypes& types, int numTypes, double cutoff,
                double skin);

  /** No atoms: the compute only zeroes the energies (and the stress); charged here. */
  bool emptyBatch() const noexcept { return numAtoms_ == 0; }
  void chargeEmptyBatch(bool stress);

  /** Whether the lists must be built before the evaluation without checking them first. */
  bool needsBuild() const noexcept { return !built_; }
  /** After the skin check, which found a wanted system `stale` (or not). */
  void checked(bool stale);
  /** A rebuild pass starts: grids (with their status read), bins and slot positions. */
  void buildStarted();
  /**
   * After a search that wanted rows of `maxNeighbors` entries and wrote `entries` (the full list, each pair
   * twice): true when the rows fit; otherwise the capacity has grown and the search must run again.
   */
  bool searched(std::uint64_t maxNeighbors, std::uint64_t entries);
  /** The rebuild pass is complete: every system of the batch was rebuilt. */
  void built();
  /** Whether this compute leaves its energy sums pending (the device-step family on, no energies, no stress asked). */
  static bool defersSums(const ComputeRequest& request);
  /** The pair loop ran, and the sums too unless `deferred` (with the virial read back when `stress`). */
  void evaluated(bool stress, bool deferred);
  /** Whether an evaluation left its energy sums pending. */
  bool sumsPending() const noexcept { return sumsPending_; }
  /** The pending energy sums ran. */
  void summed();

  /**
   * Whether a resident chunk (kernels/ResidentStepKernel.h) may start from these lists: built, none stale
   * after the last compute (which selected every system), the cells and pbc unchanged since, and every
   * system periodic in all three directions (its bin grid then never depends on the positions).
   */
  bool residentReady();
  /** A resident chunk ran: its rebuilds, and its energy sums left pending as a deferred evaluation leaves them. */
  void residentRan(const ResidentChunkResult& result);
  /** A resident chunk is replayed: its lists are not to be trusted, so the next compute rebuilds every system. */
  void forgetLists() { built_ = false; }
  /**
   * A resident chunk's rows overflowed at `longestRow`: the capacity grows to it + 1/4 (more headroom than a
   * search retry's 1/8, since the chunk's liquid keeps fluctuating before the next chance to grow), counted as
   * a regrowth; the caller then rebuilds every system.
   */
  void regrow(std::uint64_t longestRow);
  /**
   * Whether a resident chunk of `steps` steps needs its graph captured: cuda keeps one graph for each of the
   * last kResidentGraphsKept chunk lengths and captures again when its buffers or sizes change, which follow
   * the layout and the row capacity.
   */
  bool capturesChunk(std::int64_t steps);
  /** Full-list entries of the last search. */
  std::uint64_t entries() const noexcept { return entries_; }
  std::int64_t numAtoms() const noexcept { return numAtoms_; }
  std::int64_t numSystems() const noexcept { return numSystems_; }
  std::int64_t numSegments() const noexcept { return numSegments_; }
  const std::vector<std::int32_t>& ptr() const noexcept { return ptr_; }
  double rlist() const noexcept { return rlist_; }
  double skin() const noexcept { return skin_; }
  int rowCapacity() const noexcept { return rowCapacity_; }
  bool built() const noexcept { return built_; }
  /** NeighborStats of the device lists (each unordered pair counted once), with `bytes` of device buffers. */
  NeighborStats stats(std::int64_t bytes) const;

 private:
  Backend& backend_;
  std::string model_;
  std::uint64_t generation_ = 0;
  std::int64_t numAtoms_ = -1;
  std::int64_t numSystems_ = -1;
  std::int64_t numSegments_ = 0;
  std::vector<std::int32_t> ptr_;
  SentFlags wanted_;
  std::uint64_t typesVersion_ = 0;
  bool typesSent_ = false;
  double rlist_ = -1.0;
  double skin_ = -1.0;
  bool built_ = false;
  /** After the last compute no system was stale: the last check selected every system and found none, or a pass rebuilt every one. */
  bool listsClean_ = false;
  /** The current compute's selection holds every system. */
  bool wantsAll_ = true;
  /** The generation and the cell and pbc versions at the last compute. */
  std::uint64_t geometryGeneration_ = 0;
  std::uint64_t cellVersion_ = 0;
  std::uint64_t pbcVersion_ = 0;
  bool sumsPending_ = false;
  /** The current compute selects every system; the pending sums' loop did. */
  bool selectsAll_ = true;
  bool pendingAll_ = true;
  int rowCapacity_ = kInitialRowCapacity;
  std::uint64_t entries_ = 0;
  std::int64_t builds_ = 0;
  std::int64_t resets_ = 0;
  /** The chunk lengths captured since the layout or the row capacity last changed, and what they were captured for. */
  std::vector<std::int64_t> capturedLengths_;
  std::uint64_t capturedLayouts_ = 0;
  int capturedCapacity_ = 0;
  /** Layouts uploaded so far: each one may move the buffers a captured graph holds. */
  std::uint64_t layouts_ = 0;
};

}  // namespace hookmd
