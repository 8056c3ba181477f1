// A resident chunk on the GPU (kernels/ResidentStepKernel.h; docs/cuda.md, "Resident chunks"): one CUDA graph
// per chunk length, captured from the same launchers the step-by-step path calls. The graph resets the status
// block, snapshots positions, velocities and forces, then per step runs the fused kick + drift + skin check,
// an IF node whose body rebuilds the stale systems (bins, the stable sort, bin starts, slot positions, search,
// flag reset; the kernels of CudaNeighborList.cuh with SystemArrays::staleOnly), and the pair loop with the
// closing kick. The check sets the IF node's condition on the device, so the host launches one graph and
// reads one status block per chunk. Conditional nodes need CUDA 12.4; older builds offer no resident chunks.
// Host-compiler safe.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "cuda/CudaPairForces.cuh"
#include "cuda/CudaResidentSteps.cuh"

namespace hookmd {

/** Whether this build can capture conditional graph nodes. */
constexpr bool kResidentGraphs = CUDART_VERSION >= 12040;

/** Everything one chunk's graph reads: device pointers and sizes, fixed while they are. */
struct ResidentGraphArgs {
  kernel::ResidentStepArgs step;
  /** The rebuild of the stale systems (their SystemArrays with staleOnly set). */
  kernel::BinArgs bins;
  kernel::PrepareArgs prepare;
  kernel::SearchArgs search;
  /** The pair loop with the closing kick, its energy sums deferred. */
  kernel::PairForceArgs forces;
  kernel::ResidentStatus* d_status;
  /** Positions, velocities, forces, and where the chunk keeps them. */
  double* d_fields[3];
  double* d_snapshot[3];
  std::size_t fieldBytes;
};

class CudaResidentGraph {
 public:
  CudaResidentGraph() = default;
  ~CudaResidentGraph();
  CudaResidentGraph(const CudaResidentGraph&) = delete;
  CudaResidentGraph& operator=(const CudaResidentGraph&) = delete;

  /**
   * Launches a chunk of `steps` steps over `args` (the graph captured for them, captured now when they
   * changed), counting the graph and the launches of its steps; returns the launches of one rebuild, which
   * count once the status says how many ran.
   */
  std::uint64_t launch(const ResidentGraphArgs& args, std::int64_t steps, const char* operation);

 private:
  void release();
  void capture(const ResidentGraphArgs& args, std::int64_t steps, const char* operation);

  cudaStream_t stream_ = nullptr;
  cudaStream_t bodyStream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  /** What the cached graph was captured for. */
  std::vector<unsigned char> key_;
  /** Launches of the chunk's start, of one step, and of one rebuild, tallied while capturing. */
  std::uint64_t chunkLaunches_ = 0;
  std::uint64_t stepLaunches_ = 0;
  std::uint64_t rebuildLaunches_ = 0;
};

}  // namespace hookmd
