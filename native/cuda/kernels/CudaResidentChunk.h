// A resident chunk on the GPU (kernels/ResidentStepKernel.h; docs/cuda.md, "Resident chunks"): one CUDA graph
// per chunk length (the last few lengths kept), captured from the same launchers the step-by-step path calls. The graph resets the status
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

#include "cuda/kernels/CudaPairForces.cuh"
#include "cuda/kernels/CudaResidentSteps.cuh"
#include "kernels/ResidentStepKernel.h"

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

  struct Launched {
    /** The launches of one rebuild, which count once the status says how many ran. */
    std::uint64_t rebuildLaunches = 0;
    /** The graph was captured for this launch. */
    bool captured = false;
  };

  /**
   * Launches a chunk of `steps` steps over `args`: the graph kept for that length, captured now when there
   * is none or `args` changed (the kept executable updated in place when CUDA can, instantiated otherwise),
   * counting the graph and the launches of its steps.
   */
  Launched launch(const ResidentGraphArgs& args, std::int64_t steps, const char* operation);

 private:
  /** One chunk length's graph and what it was captured for. */
  struct Kept {
    std::int64_t steps = 0;
    cudaGraphExec_t exec = nullptr;
    std::vector<unsigned char> key;
    /** Launches of the chunk's start, of one step, and of one rebuild, tallied while capturing. */
    std::uint64_t chunkLaunches = 0;
    std::uint64_t stepLaunches = 0;
    std::uint64_t rebuildLaunches = 0;
  };

  /** The kept graph of `steps`, most recently used last; a new length evicts the least recently used one. */
  Kept& keptFor(std::int64_t steps);
  /** Captures the chunk's graph into `kept` (its tallies) and makes `kept.exec` run it. */
  void capture(const ResidentGraphArgs& args, Kept& kept, const char* operation);

  cudaStream_t stream_ = nullptr;
  cudaStream_t bodyStream_ = nullptr;
  std::vector<Kept> kept_;
};

}  // namespace hookmd
