#include "cuda/kernels/CudaResidentChunk.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda/core/CudaCheck.h"
#include "cuda/core/CudaLaunch.h"

namespace hookmd {

namespace {

/** The bytes of every pointer and number the graph's nodes hold: a change means capturing again. */
std::vector<unsigned char> keyOf(const ResidentGraphArgs& a, std::int64_t steps) {
  std::vector<unsigned char> key;
  const auto add = [&key](const auto value) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    key.insert(key.end(), bytes, bytes + sizeof value);
  };
  const kernel::SystemArrays& s = a.step.systems;
  add(steps);
  add(s.numSystems), add(s.numAtoms), add(s.d_ptr), add(s.d_systemOf), add(s.d_grids), add(s.d_stale), add(s.d_status);
  add(a.step.d_slotAtom), add(a.step.d_wrap), add(a.step.d_types), add(a.step.d_slotPositions), add(a.step.d_reference);
  add(a.step.d_positions), add(a.step.d_velocities), add(a.step.d_forces), add(a.step.d_masses), add(a.step.d_dt);
  add(a.step.forceToAccel), add(a.step.limitSq);
  add(a.bins.d_binOffset), add(a.bins.totalBins), add(a.bins.d_keys), add(a.bins.d_atoms), add(a.bins.d_slotKeys);
  add(a.bins.d_binStart), add(a.bins.d_temp), add(a.bins.tempBytes);
  add(a.prepare.d_cell), add(a.prepare.d_pbc);
  add(a.search.rlistSq), add(a.search.capacity), add(a.search.d_neighbors), add(a.search.d_neighborCount), add(a.search.compareWrap);
  add(a.forces.evaluator), add(a.forces.numTypes), add(a.forces.d_params), add(a.forces.d_switches), add(a.forces.d_slotSums);
  add(a.forces.kick.d_velocities), add(a.forces.kick.d_masses), add(a.forces.kick.d_dt), add(a.forces.kick.forceToAccel);
  add(a.d_status), add(a.fieldBytes);
  for (int k = 0; k < 3; ++k) add(a.d_fields[k]), add(a.d_snapshot[k]);
  return key;
}

}  // namespace

CudaResidentGraph::~CudaResidentGraph() {
  for (Kept& kept : kept_) {
    if (kept.exec != nullptr) cudaGraphExecDestroy(kept.exec);
  }
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
  if (bodyStream_ != nullptr) cudaStreamDestroy(bodyStream_);
}

CudaResidentGraph::Kept& CudaResidentGraph::keptFor(std::int64_t steps) {
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    if (kept_[k].steps != steps) continue;
    std::rotate(kept_.begin() + static_cast<std::ptrdiff_t>(k), kept_.begin() + static_cast<std::ptrdiff_t>(k) + 1, kept_.end());
    return kept_.back();
  }
  if (kept_.size() == kResidentGraphsKept) {
    if (kept_.front().exec != nullptr) cudaGraphExecDestroy(kept_.front().exec);
    kept_.erase(kept_.begin());
  }
  kept_.push_back(Kept{});
  kept_.back().steps = steps;
  return kept_.back();
}

CudaResidentGraph::Launched CudaResidentGraph::launch(const ResidentGraphArgs& args, std::int64_t steps, const char* operation) {
  std::vector<unsigned char> key = keyOf(args, steps);
  Kept& kept = keptFor(steps);
  Launched launched;
  if (kept.exec == nullptr || key != kept.key) {
    kept.key.clear();
    capture(args, kept, operation);
    kept.key = std::move(key);
    launched.captured = true;
  }
  cudaCheck(device::launchGraph(kept.exec, kept.chunkLaunches + static_cast<std::uint64_t>(steps) * kept.stepLaunches), operation);
  launched.rebuildLaunches = kept.rebuildLaunches;
  return launched;
}

#if CUDART_VERSION >= 12040
namespace {

// CUDA 13 folded the edge-data variants of the capture calls into the plain names.
#if CUDART_VERSION >= 13000
cudaError_t captureInfo(cudaStream_t stream, cudaGraph_t* graph, const cudaGraphNode_t** dependencies, std::size_t* count) {
  cudaStreamCaptureStatus status;
  return cudaStreamGetCaptureInfo(stream, &status, nullptr, graph, dependencies, nullptr, count);
}
cudaError_t addNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count,
                    cudaGraphNodeParams* params) {
  return cudaGraphAddNode(node, graph, dependencies, nullptr, count, params);
}
cudaError_t continueAfter(cudaStream_t stream, cudaGraphNode_t* node) {
  return cudaStreamUpdateCaptureDependencies(stream, node, nullptr, 1, cudaStreamSetCaptureDependencies);
}
#else
cudaError_t captureInfo(cudaStream_t stream, cudaGraph_t* graph, const cudaGraphNode_t** dependencies, std::size_t* count) {
  cudaStreamCaptureStatus status;
  return cudaStreamGetCaptureInfo_v3(stream, &status, nullptr, graph, dependencies, nullptr, count);
}
cudaError_t addNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies, std::size_t count,
                    cudaGraphNodeParams* params) {
  return cudaGraphAddNode(node, graph, dependencies, count, params);
}
cudaError_t continueAfter(cudaStream_t stream, cudaGraphNode_t* node) {
  return cudaStreamUpdateCaptureDependencies(stream, node, 1, cudaStreamSetCaptureDependencies);
}
#endif

}  // namespace

void CudaResidentGraph::capture(const ResidentGraphArgs& args, Kept& kept, const char* operation) {
  const std::string where = std::string(operation) + " (capturing the chunk's graph)";
  const char* op = where.c_str();
  const std::int64_t steps = kept.steps;
  if (stream_ == nullptr) cudaCheck(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), op);
  if (bodyStream_ == nullptr) cudaCheck(cudaStreamCreateWithFlags(&bodyStream_, cudaStreamNonBlocking), op);
  kept.chunkLaunches = kept.stepLaunches = kept.rebuildLaunches = 0;
  cudaGraph_t graph = nullptr;
  cudaCheck(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), op);
  // A failure mid-capture must end it, or the stream stays unusable.
  const auto abandon = [&](cudaError_t status) {
    if (status == cudaSuccess) return;
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream_, &partial);
    if (partial != nullptr) cudaGraphDestroy(partial);
    cudaCheck(status, op);
  };
  {
    const device::CaptureScope scope(stream_, &kept.chunkLaunches);
    abandon(kernel::residentReset(args.d_status));
    for (int k = 0; k < 3; ++k) abandon(device::copyOnDevice(args.d_snapshot[k], args.d_fields[k], args.fieldBytes));
  }
  for (std::int64_t step = 0; step < steps; ++step) {
    // Only the first step's tallies are kept: every step captures the same operations.
    std::uint64_t stepTally = 0;
    std::uint64_t rebuildTally = 0;
    cudaGraph_t captured = nullptr;
    const cudaGraphNode_t* dependencies = nullptr;
    std::size_t count = 0;
    abandon(captureInfo(stream_, &captured, &dependencies, &count));
    cudaGraphConditionalHandle rebuild;
    abandon(cudaGraphConditionalHandleCreate(&rebuild, captured, 0, cudaGraphCondAssignDefault));
    {
      const device::CaptureScope scope(stream_, &stepTally);
      abandon(kernel::residentKickDriftCheck(args.step, rebuild));
    }
    abandon(captureInfo(stream_, &captured, &dependencies, &count));
    cudaGraphNodeParams params{};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = rebuild;
    params.conditional.type = cudaGraphCondTypeIf;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
    abandon(addNode(&node, captured, dependencies, count, &params));
    abandon(continueAfter(stream_, &node));
    cudaGraph_t body = params.conditional.phGraph_out[0];
    abandon(cudaStreamBeginCaptureToGraph(bodyStream_, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
    {
      const device::CaptureScope scope(bodyStream_, &rebuildTally);
      cudaError_t status = kernel::binAtoms(args.bins);
      if (status == cudaSuccess) status = kernel::prepareSlots(args.prepare);
      if (status == cudaSuccess) status = kernel::searchNeighbors(args.search);
      if (status == cudaSuccess) status = kernel::residentRebuilt(args.step.systems, args.d_status);
      cudaGraph_t ended = nullptr;
      const cudaError_t end = cudaStreamEndCapture(bodyStream_, &ended);
      abandon(status != cudaSuccess ? status : end);
    }
    {
      const device::CaptureScope scope(stream_, &stepTally);
      abandon(kernel::pairForces(args.forces));
    }
    if (step == 0) {
      kept.stepLaunches = stepTally;
      kept.rebuildLaunches = rebuildTally;
    }
  }
  cudaCheck(cudaStreamEndCapture(stream_, &graph), op);
  // Same length, new pointers or sizes: the same topology, so updating the executable in place spares the
  // instantiation; CUDA refuses an update it cannot make (a conditional node's handle, say), and then the
  // graph is instantiated anew.
  if (kept.exec != nullptr) {
    cudaGraphExecUpdateResultInfo info{};
    if (cudaGraphExecUpdate(kept.exec, graph, &info) == cudaSuccess) {
      cudaGraphDestroy(graph);
      return;
    }
    cudaGetLastError();
    cudaGraphExecDestroy(kept.exec);
    kept.exec = nullptr;
  }
  const cudaError_t made = cudaGraphInstantiate(&kept.exec, graph, 0);
  cudaGraphDestroy(graph);
  if (made != cudaSuccess) kept.exec = nullptr;
  cudaCheck(made, op);
}
#else
void CudaResidentGraph::capture(const ResidentGraphArgs&, Kept&, const char* operation) {
  cudaCheck(cudaErrorNotSupported, operation);
}
#endif

}  // namespace hookmd
