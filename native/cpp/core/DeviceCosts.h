// What each device operation costs, declared once for both device backends (docs/cuda.md, "The device
// ledger"). `cuda` charges an operation where it issues it and `mirror` where it emulates it, through
// Backend::charge; the launches, waits and control copies that cuda really issues are also counted by
// cuda/CudaLaunch.h, and test/backends/ledger-contract.test.ts requires the two to agree on a GPU.
//
// A launch is one stream operation: a kernel, a memset or a device-side copy; a library call such as a cub
// scan or sort counts as one. A host sync is one wait of the host for the device: a blocking copy in
// either direction (a host → device copy from pageable memory waits for the stream first) or a
// synchronize. Allocating and freeing device memory (when a buffer grows) is not counted. Modeled bytes
// are the device-memory traffic of the kernels, per atom, per system and per neighbor-list entry: a model
// for trends, not a measurement.
#pragma once

#include <cstdint>

namespace hookmd {

enum class DeviceOp : int {
  /** A blocking copy of batch-field data (a whole field, a row range, one system's rows); bytes are in transferStats(). */
  FieldCopy = 0,
  /** A blocking host → device copy of control data: parameters, index tables, flags. */
  ControlUpload,
  /** A blocking device → host copy of control data: a status block, per-system flags, a virial. */
  ControlDownload,
  /** One batch field compacted on the device by a refill. */
  RowGather,
  /** cudaDeviceSynchronize. */
  DeviceWait,
  /** A field set to zero on the device (a memset): the energies of a batch with no atoms, say. */
  FieldFill,
  /** A per-system reduction: the error flag reset, one block per system, then results and flag in one read. */
  Reduction,
  /** Pair forces: the skin check (status reset, slot positions and displacements, per-system cell/pbc check). */
  PairCheck,
  /** Pair forces, rebuild: per-system bin grids (3 kernels, a memset, a cub scan, a device copy). */
  PairGrids,
  /** Pair forces, rebuild: bin keys, the cub radix sort, bin starts, slot positions. */
  PairBins,
  /** Pair forces, rebuild: the neighbor search. */
  PairSearch,
  /** Pair forces, rebuild: the two counters reset before a search repeated with longer rows. */
  PairSearchRetry,
  /** Pair forces: the status reset, the pair loop, the per-segment and per-system sums. */
  PairEvaluate,
  /**
   * Pair forces with the energies deferred (ComputeRequest::energies false, the device-step family): the
   * status reset and the pair loop, which flags a non-finite slot energy itself.
   */
  PairEvaluateDeferred,
  /** The per-segment and per-system energy sums a deferred evaluation left, run when the energies are asked for. */
  PairEnergySums,
  /** VelocityVerlet / Langevin first half: kick and drift, one thread per atom. */
  VerletKickDrift,
  /** The closing half kick, one thread per atom. */
  VerletKick,
  /** Langevin's B-A-O-A first part (momentum-free noise: sums over each system), one block per system. */
  LangevinProgram,
  /** Langevin chunked: start, 3 passes, 2 folds. */
  LangevinProgramChunked,
  /** FIRE's step, one block per system. */
  FireProgram,
  /** FIRE's step on the chunked path (a system above 4,096 atoms): start, 3 passes, 2 folds. */
  FireProgramChunked,
  FireTwoProgram,
  /** FIRE2 chunked: start, 4 passes, 3 folds. */
  FireTwoProgramChunked,
  GradientDescentProgram,
  /** Gradient descent chunked: start, 2 passes, 1 fold. */
  GradientDescentProgramChunked,
  /** One Nosé–Hoover phase (pre or post), one block per system. */
  NoseHooverProgram,
  /** One Nosé–Hoover phase chunked: start, 2 passes, 1 fold. */
  NoseHooverProgramChunked,
  /** A native hook's one kernel (freeze, anchor, clamp, wrap). */
  HookKernel,
  /** NaNDetectorHook: two flag resets, the scan, one word read back. */
  NonFiniteScan,
  /** The small-system path: the flag block reset, a whole chunk of steps in one launch, the flag block read back. */
  SmallSystemChunk,
  /**
   * The resident-step family (dynamics/ResidentStepPath.h): one CUDA graph per chunk of VelocityVerlet steps
   * between due JS hooks. Per chunk: the graph launch, its status reset and the snapshot of positions,
   * velocities and forces (3 device copies), and one read of the status block.
   */
  ResidentChunk,
  /**
   * One step of a resident chunk: kick + drift + skin check, then force + closing kick (the rebuild's IF node
   * is no launch); its pair loop reads every full-list entry.
   */
  ResidentStep,
  /** A resident chunk's rebuild of its stale systems, decided on the device: bin keys, the radix sort, bin starts, slot positions, search, flag reset. */
  ResidentRebuild,
  /** After an overflow or a non-finite energy: the chunk's snapshot copied back (3 device copies) before the replay. */
  ResidentRestore,
  /**
   * The many-body kernel (Tersoff, Stillinger–Weber; the many-body-forces family): the status reset (2 memsets), per-system
   * images, wrapped positions, the search of each centre's neighbours within the cutoff, the centres, the
   * neighbours' forces, the per-segment and per-system sums; one status read. Repeated with longer rows when
   * a centre had more neighbours than its row holds.
   */
  ManyBodyEvaluate,
  Count
};

constexpr int kDeviceOpCount = static_cast<int>(DeviceOp::Count);

struct DeviceCost {
  const char* name;
  std::uint32_t launches;
  /** CUDA graphs launched; the launches of the kernels inside one are counted in `launches`. */
  std::uint32_t graphLaunches;
  std::uint32_t hostSyncs;
  /** The bytes a charge names are control data (controlTo*Bytes); otherwise they are field data, counted by transferStats(). */
  bool control;
  std::uint32_t bytesPerAtom;
  std::uint32_t bytesPerSystem;
  std::uint32_t bytesPerEntry;
};

/** The declared cost of `op`. */
const DeviceCost& deviceCost(DeviceOp op);

/** How much of an operation a charge covers. */
struct DeviceWork {
  /** Times the operation ran. */
  std::uint64_t times = 1;
  /** Atoms, systems and neighbor-list entries its kernels touched (for the modeled bytes). */
  std::uint64_t atoms = 0;
  std::uint64_t systems = 0;
  std::uint64_t entries = 0;
  /** Bytes copied device → host and host → device (control data only; field copies count in transferStats()). */
  std::uint64_t toHost = 0;
  std::uint64_t toDevice = 0;
};

}  // namespace hookmd
