// Every stream operation and every host wait of the CUDA backend goes through these wrappers, which count
// what really happened (docs/cuda.md, "The device ledger"). The backend also charges each operation's
// declared cost (core/DeviceCosts.h) to the batch's ledger; test/backends/ledger-contract.test.ts runs the
// budget scenarios on a GPU and requires the real counts to equal the declared ones. Host-compiler safe.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/DeviceLedger.h"

namespace hookmd::device {

/** The real counts since the last reset, over the whole process (a contract test runs one batch at a time). */
DeviceStats actualStats();
void resetActualStats();

/**
 * Records `count` stream operations issued by a launcher: kernels, or one library call (a cub scan or sort).
 * Inside a CaptureScope they go to the scope's tally instead: a captured operation runs when its graph does.
 */
void countLaunches(std::uint64_t count = 1);

/** The stream the wrappers issue on: the default stream, or the one a CaptureScope is capturing. */
cudaStream_t currentStream();

/**
 * While alive (on this thread), the wrappers issue on `stream`, which is being captured into a CUDA graph,
 * and count the operations into `*tally`; the graph's launch then counts them (launchGraph).
 */
class CaptureScope {
 public:
  CaptureScope(cudaStream_t stream, std::uint64_t* tally);
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

 private:
  cudaStream_t previousStream_;
  std::uint64_t* previousTally_;
};

/** cudaGraphLaunch on the default stream: one graph launch, and the `launches` stream operations it runs. */
cudaError_t launchGraph(cudaGraphExec_t graph, std::uint64_t launches);

/** cudaMemsetAsync on the default stream, counted as one launch. */
cudaError_t memsetAsync(void* target, int value, std::size_t bytes);
/** A device → device cudaMemcpyAsync, counted as one launch. */
cudaError_t copyOnDevice(void* target, const void* source, std::size_t bytes);
/** A blocking copy of control data device → host: one wait, `bytes` control bytes. */
cudaError_t controlToHost(void* target, const void* source, std::size_t bytes);
/** A blocking copy of control data host → device: one wait (pageable memory waits for the stream), `bytes` control bytes. */
cudaError_t controlToDevice(void* target, const void* source, std::size_t bytes);
/** A blocking copy of batch-field data in either direction: one wait (the bytes are counted by transferStats()). */
cudaError_t fieldCopy(void* target, const void* source, std::size_t bytes, cudaMemcpyKind kind);
/** cudaDeviceSynchronize: one wait. */
cudaError_t synchronize();

}  // namespace hookmd::device
