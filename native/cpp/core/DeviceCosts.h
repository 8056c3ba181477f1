// What each device operation costs, declared once for both device backends (docs/cuda.md, "The device
// ledger"). `cuda` charges an operation where it issues it and `mirror` where it emulates it, through
// Backend::charge; the launches, waits and control copies that cuda really issues are also counted by
// cuda/core/CudaLaunch.h, and test/backends/ledger-contract.test.ts requires the two to agree on a GPU.
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

/**
 * Every device operation and its cost, one line each: X(op, name, launches, graph launches, host syncs,
 * control bytes?, modeled bytes per atom, per system, per neighbor-list entry). The per-atom byte counts
 * follow docs/cuda.md's accounting of each kernel's reads and writes (fp64 vectors are 24 B, the pair
 * kernels' slot positions 32 B); a list entry is 4 B. A device operation is its line here; the enum, the
 * table and backendInfo()'s ledger rows expand it.
 */
#define HOOKMD_DEVICE_COSTS(X)                                                                                      \
  /* A blocking copy of batch-field data (a whole field, a row range, one system's rows); bytes are in */           \
  /* transferStats(). */                                                                                            \
  X(FieldCopy, "field copy", 0, 0, 1, false, 0, 0, 0)                                                               \
  /* A blocking host → device copy of control data: parameters, index tables, flags. */                             \
  X(ControlUpload, "control upload", 0, 0, 1, true, 0, 0, 0)                                                        \
  /* A blocking device → host copy of control data: a status block, per-system flags, a virial. */                  \
  X(ControlDownload, "control download", 0, 0, 1, true, 0, 0, 0)                                                    \
  /* One batch field compacted on the device by a refill. */                                                        \
  X(RowGather, "row gather", 1, 0, 0, false, 0, 0, 0)                                                               \
  /* cudaDeviceSynchronize. */                                                                                      \
  X(DeviceWait, "device wait", 0, 0, 1, false, 0, 0, 0)                                                             \
  /* A field set to zero on the device (a memset): the energies of a batch with no atoms, say. */                   \
  X(FieldFill, "field fill", 1, 0, 0, false, 0, 0, 0)                                                               \
  /* A per-system reduction: the error flag reset, one block per system, then results and flag in one read. */      \
  X(Reduction, "reduction", 2, 0, 1, true, 24, 16, 0)                                                               \
  /* Pair forces: the skin check (status reset, slot positions and displacements, per-system cell/pbc check). */    \
  X(PairCheck, "pair check", 3, 0, 1, true, 108, 120, 0)                                                            \
  /* Pair forces, rebuild: per-system bin grids (3 kernels, a memset, a cub scan, a device copy). */                \
  X(PairGrids, "pair grids", 6, 0, 2, true, 24, 480, 0)                                                             \
  /* Pair forces, rebuild: bin keys, the cub radix sort, bin starts, slot positions. */                             \
  X(PairBins, "pair bins", 4, 0, 0, false, 224, 8, 0)                                                               \
  /* Pair forces, rebuild: the neighbor search. */                                                                  \
  X(PairSearch, "pair search", 1, 0, 1, true, 100, 8, 4)                                                            \
  /* Pair forces, rebuild: the two counters reset before a search repeated with longer rows. */                     \
  X(PairSearchRetry, "pair search retry", 2, 0, 0, false, 0, 0, 0)                                                  \
  /* Pair forces: the status reset, the pair loop, the per-segment and per-system sums. */                          \
  X(PairEvaluate, "pair evaluate", 4, 0, 1, true, 108, 72, 4)                                                       \
  /* Pair forces with the energies deferred (ComputeRequest::energies false, the device-step family): the status */ \
  /* reset and the pair loop, which flags a non-finite slot energy itself. */                                       \
  X(PairEvaluateDeferred, "pair evaluate, energies deferred", 2, 0, 1, true, 100, 0, 4)                             \
  /* The per-segment and per-system energy sums a deferred evaluation left, run when the energies are asked for. */ \
  X(PairEnergySums, "pair energy sums", 2, 0, 0, false, 8, 72, 0)                                                   \
  /* VelocityVerlet / Langevin first half: kick and drift, one thread per atom. */                                  \
  X(VerletKickDrift, "verlet kick-drift", 1, 0, 0, false, 132, 8, 0)                                                \
  /* The closing half kick, one thread per atom. */                                                                 \
  X(VerletKick, "verlet kick", 1, 0, 0, false, 84, 8, 0)                                                            \
  /* Langevin's B-A-O-A first part (momentum-free noise: sums over each system), one block per system. */           \
  X(LangevinProgram, "langevin program", 1, 0, 0, false, 248, 56, 0)                                                \
  /* Langevin chunked: start, 3 passes, 2 folds. */                                                                 \
  X(LangevinProgramChunked, "langevin program, chunked", 6, 0, 0, false, 272, 56, 0)                                \
  /* FIRE's step, one block per system. */                                                                          \
  X(FireProgram, "fire program", 1, 0, 0, false, 190, 112, 0)                                                       \
  /* FIRE's step on the chunked path (a system above 4,096 atoms): start, 3 passes, 2 folds. */                     \
  X(FireProgramChunked, "fire program, chunked", 6, 0, 0, false, 262, 112, 0)                                       \
  X(FireTwoProgram, "fire2 program", 1, 0, 0, false, 214, 112, 0)                                                   \
  /* FIRE2 chunked: start, 4 passes, 3 folds. */                                                                    \
  X(FireTwoProgramChunked, "fire2 program, chunked", 8, 0, 0, false, 310, 112, 0)                                   \
  X(GradientDescentProgram, "gradient descent program", 1, 0, 0, false, 72, 24, 0)                                  \
  /* Gradient descent chunked: start, 2 passes, 1 fold. */                                                          \
  X(GradientDescentProgramChunked, "gradient descent program, chunked", 4, 0, 0, false, 120, 24, 0)                 \
  /* One Nosé–Hoover phase (pre or post), one block per system. */                                                  \
  X(NoseHooverProgram, "nose-hoover program", 1, 0, 0, false, 104, 64, 0)                                           \
  /* One Nosé–Hoover phase chunked: start, 2 passes, 1 fold. */                                                     \
  X(NoseHooverProgramChunked, "nose-hoover program, chunked", 4, 0, 0, false, 152, 64, 0)                           \
  /* A native hook's one kernel (freeze, anchor, clamp, wrap). */                                                   \
  X(HookKernel, "hook kernel", 1, 0, 0, false, 52, 0, 0)                                                            \
  /* NaNDetectorHook: two flag resets, the scan, one word read back. */                                             \
  X(NonFiniteScan, "non-finite scan", 3, 0, 1, true, 76, 10, 0)                                                     \
  /* The small-system path: the flag block reset, a whole chunk of steps in one launch, the flag block read back. */\
  X(SmallSystemChunk, "small-system chunk", 2, 0, 1, true, 160, 200, 0)                                             \
  /* The resident-step family (dynamics/ResidentStepPath.h): one CUDA graph per chunk of VelocityVerlet steps */    \
  /* between due JS hooks. Per chunk: the graph launch, its status reset and the snapshot of positions, */          \
  /* velocities and forces (3 device copies), and one read of the status block. */                                  \
  X(ResidentChunk, "resident chunk", 4, 1, 1, true, 144, 56, 0)                                                     \
  /* One step of a resident chunk: kick + drift + skin check, then force + closing kick (the rebuild's IF node is */\
  /* no launch); its pair loop reads every full-list entry. */                                                      \
  X(ResidentStep, "resident step", 2, 0, 0, false, 340, 8, 4)                                                       \
  /* A resident chunk's rebuild of its stale systems, decided on the device: bin keys, the radix sort, bin */       \
  /* starts, slot positions, search, flag reset. */                                                                 \
  X(ResidentRebuild, "resident rebuild", 6, 0, 0, false, 324, 16, 0)                                                \
  /* After an overflow or a non-finite energy: the chunk's snapshot copied back (3 device copies) before the */     \
  /* replay. */                                                                                                     \
  X(ResidentRestore, "resident restore", 3, 0, 0, false, 144, 0, 0)                                                 \
  /* The many-body kernel (Tersoff, Stillinger–Weber; the many-body-forces family): the status reset (2 memsets), */\
  /* per-system images, wrapped positions, the search of each centre's neighbours within the cutoff, the centres, */\
  /* the neighbours' forces, the per-segment and per-system sums; one status read. Repeated with longer rows when */\
  /* a centre had more neighbours than its row holds. */                                                            \
  X(ManyBodyEvaluate, "many-body evaluate", 9, 0, 1, true, 200, 200, 200)

enum class DeviceOp : int {
#define HOOKMD_DEVICE_OP(op, ...) op,
  HOOKMD_DEVICE_COSTS(HOOKMD_DEVICE_OP)
#undef HOOKMD_DEVICE_OP
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
