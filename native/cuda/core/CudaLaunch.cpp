#include "cuda/core/CudaLaunch.h"

#include <atomic>

namespace hookmd::device {

namespace {
struct Counters {
  std::atomic<std::uint64_t> launches{0};
  std::atomic<std::uint64_t> graphLaunches{0};
  std::atomic<std::uint64_t> hostSyncs{0};
  std::atomic<std::uint64_t> controlToHostBytes{0};
  std::atomic<std::uint64_t> controlToDeviceBytes{0};
};

Counters& counters() {
  static Counters instance;
  return instance;
}

/** The capture in progress on this thread (CaptureScope): its stream and tally; none outside one. */
thread_local cudaStream_t captureStream = nullptr;
thread_local std::uint64_t* captureTally = nullptr;
}  // namespace

DeviceStats actualStats() {
  const Counters& c = counters();
  DeviceStats stats;
  stats.launches = c.launches;
  stats.graphLaunches = c.graphLaunches;
  stats.hostSyncs = c.hostSyncs;
  stats.controlToHostBytes = c.controlToHostBytes;
  stats.controlToDeviceBytes = c.controlToDeviceBytes;
  return stats;
}

void resetActualStats() {
  Counters& c = counters();
  c.launches = 0;
  c.graphLaunches = 0;
  c.hostSyncs = 0;
  c.controlToHostBytes = 0;
  c.controlToDeviceBytes = 0;
}

void countLaunches(std::uint64_t count) {
  if (captureTally != nullptr) *captureTally += count;
  else counters().launches += count;
}

cudaStream_t currentStream() { return captureStream; }

CaptureScope::CaptureScope(cudaStream_t stream, std::uint64_t* tally) : previousStream_(captureStream), previousTally_(captureTally) {
  captureStream = stream;
  captureTally = tally;
}

CaptureScope::~CaptureScope() {
  captureStream = previousStream_;
  captureTally = previousTally_;
}

cudaError_t launchGraph(cudaGraphExec_t graph, std::uint64_t launches) {
  ++counters().graphLaunches;
  counters().launches += launches;
  return cudaGraphLaunch(graph, nullptr);
}

cudaError_t memsetAsync(void* target, int value, std::size_t bytes) {
  countLaunches();
  return cudaMemsetAsync(target, value, bytes, captureStream);
}

cudaError_t copyOnDevice(void* target, const void* source, std::size_t bytes) {
  countLaunches();
  return cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, captureStream);
}

cudaError_t controlToHost(void* target, const void* source, std::size_t bytes) {
  ++counters().hostSyncs;
  counters().controlToHostBytes += bytes;
  return cudaMemcpy(target, source, bytes, cudaMemcpyDeviceToHost);
}

cudaError_t controlToDevice(void* target, const void* source, std::size_t bytes) {
  ++counters().hostSyncs;
  counters().controlToDeviceBytes += bytes;
  return cudaMemcpy(target, source, bytes, cudaMemcpyHostToDevice);
}

cudaError_t fieldCopy(void* target, const void* source, std::size_t bytes, cudaMemcpyKind kind) {
  ++counters().hostSyncs;
  return cudaMemcpy(target, source, bytes, kind);
}

cudaError_t synchronize() {
  ++counters().hostSyncs;
  return cudaDeviceSynchronize();
}

}  // namespace hookmd::device
