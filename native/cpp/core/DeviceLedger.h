// The device ledger (docs/cuda.md, "The device ledger"): what a batch's device operations cost, counted from
// the declarations of core/DeviceCosts.h. Backend owns one beside its Coherence table. `mirror` charges what
// `cuda` would do at the same points of the same code, so CI can hold the GPU's budgets; on `cuda` the real
// launches, waits and control copies are counted as well (cuda/core/CudaLaunch.h), and a GPU test requires both
// to agree.
#pragma once

#include <cstdint>

namespace hookmd {

/** Device work since the last reset (batch.deviceStats()). */
struct DeviceStats {
  /** Stream operations: kernel launches, memsets, device-side copies; a library call (a cub sort) is one. */
  std::uint64_t launches = 0;
  /** CUDA graphs launched (each one whole chunk of steps). */
  std::uint64_t graphLaunches = 0;
  /** CUDA graphs captured (a chunk length met for the first time, or its graph's pointers and sizes changed). */
  std::uint64_t graphCaptures = 0;
  /** Times the host waited for the device: every blocking copy in either direction, every synchronize. */
  std::uint64_t hostSyncs = 0;
  /** Bytes of control data (status blocks, flags, per-system parameters) copied device → host. */
  std::uint64_t controlToHostBytes = 0;
  /** Bytes of control data copied host → device. */
  std::uint64_t controlToDeviceBytes = 0;
  /** Neighbor-list rebuild passes. */
  std::uint64_t rebuildPasses = 0;
  /** Systems whose neighbor list those passes rebuilt. */
  std::uint64_t systemsRebuilt = 0;
  /** Resident chunks whose rows overflowed and that ran again on the device with longer rows. */
  std::uint64_t rowRegrowths = 0;
  /** Device-memory traffic of the launched kernels, by the model of core/DeviceCosts.h. */
  std::uint64_t modeledDeviceBytes = 0;

  void add(const DeviceStats& other) {
    launches += other.launches;
    graphLaunches += other.graphLaunches;
    graphCaptures += other.graphCaptures;
    hostSyncs += other.hostSyncs;
    controlToHostBytes += other.controlToHostBytes;
    controlToDeviceBytes += other.controlToDeviceBytes;
    rebuildPasses += other.rebuildPasses;
    systemsRebuilt += other.systemsRebuilt;
    rowRegrowths += other.rowRegrowths;
    modeledDeviceBytes += other.modeledDeviceBytes;
  }
};

class DeviceLedger {
 public:
  void add(const DeviceStats& charge) { stats_.add(charge); }
  const DeviceStats& stats() const noexcept { return stats_; }
  void reset() { stats_ = DeviceStats(); }

 private:
  DeviceStats stats_;
};

}  // namespace hookmd
