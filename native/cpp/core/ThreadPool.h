// A small persistent thread pool. parallelFor hands out [lo, hi) chunks through an atomic counter; the
// calling thread works too. An MD step makes several parallelFor calls a few hundred microseconds apart,
// and waking a sleeping thread costs tens of microseconds in a VM, so idle workers and a waiting caller
// spin briefly before they sleep. Results stay independent of the thread count as long as every chunk writes
// only its own outputs (per system, or per-thread buffers reduced in a fixed order).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hookmd {

class ThreadPool {
 public:
  /** fn(lo, hi, threadIndex): threadIndex is in [0, threads()). */
  using RangeFn = std::function<void(std::int64_t, std::int64_t, int)>;

  /** The process-wide pool, sized by HOOKMD_THREADS or, by default, every core. */
  static ThreadPool& global();

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const noexcept { return static_cast<int>(workers_.size()) + 1; }
  /** Resizes the pool; n < 1 means every core. */
  void setThreads(int n);

  /**
   * Runs fn over [begin, end) in chunks of at most `grain` items. Nested calls (from inside a chunk) and
   * single-chunk ranges run inline on the calling thread. Rethrows the first exception a chunk threw.
   */
  void parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, const RangeFn& fn);

  static int hardwareThreads();

 private:
  void start(int threads);
  void stop();
  /** `seen`: the last job serial this worker must not run (the pool's serial when it started). */
  void workerLoop(int index, std::uint64_t seen);
  void runChunks(int threadIndex);
  /**
   * Spins up to kSpinTime until `ready()`; the caller's condition-variable wait follows either way, with
   * `ready()` as its predicate. Does not spin when the pool has more threads than the machine has cores:
   * a spinning thread would then hold a core a working one needs.
   */
  template <class Ready>
  void spinUntil(const Ready& ready) const;

  std::vector<std::thread> workers_;
  bool spin_ = true;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Written under mutex_ (so condition-variable waits miss nothing) and read without it while spinning.
  std::atomic<std::uint64_t> jobSerial_{0};
  std::atomic<int> busyWorkers_{0};
  bool stopping_ = false;

  const RangeFn* job_ = nullptr;
  std::int64_t jobBegin_ = 0;
  std::int64_t jobEnd_ = 0;
  std::int64_t jobGrain_ = 1;
  std::atomic<std::int64_t> nextChunk_{0};
  std::exception_ptr firstError_;
  std::mutex errorMutex_;
  std::mutex submitMutex_;
};

}  // namespace hookmd
