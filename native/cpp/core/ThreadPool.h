// A small persistent thread pool. parallelFor hands out [lo, hi) chunks through an atomic counter; the
// calling thread works too. An MD step makes several parallelFor calls a few hundred microseconds apart,
// and waking a sleeping thread costs tens of microseconds in a VM, so idle workers and a waiting caller
// spin briefly before they sleep. The spin adapts: it lasts at most twice what the waiter's last wait took,
// not at all after a wait longer than the spin could bridge, and it yields its core once it notices it lost
// it, so that a pool sharing its CPUs with other busy processes does not burn the time its own late thread
// needs. A worker joins a job only while some of its chunks are unclaimed, and the caller waits only for
// the workers that joined: one that lost its core and wakes late never holds the step up. Results stay
// independent of the thread count as long as every chunk writes only its own outputs (per system, or
// per-thread buffers reduced in a fixed order).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/ThreadBudget.h"

namespace hookmd {

class ThreadPool {
 public:
  /** fn(lo, hi, threadIndex): threadIndex is in [0, threads()). */
  using RangeFn = std::function<void(std::int64_t, std::int64_t, int)>;

  /** The process-wide pool, sized by systemThreadBudget(): HOOKMD_THREADS, else the CPUs this process may use. */
  static ThreadPool& global();

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const noexcept { return static_cast<int>(workers_.size()) + 1; }
  /** Resizes the pool; n < 1 means the default of systemThreadBudget(). */
  void setThreads(int n);
  /** Which limit set the current size (Explicit after setThreads(n ≥ 1)), and what it said. */
  ThreadLimit limit() const noexcept { return limit_; }
  const std::string& limitDetail() const noexcept { return limitDetail_; }

  /**
   * Runs fn over [begin, end) in chunks of at most `grain` items. Nested calls (from inside a chunk) and
   * single-chunk ranges run inline on the calling thread. Rethrows the first exception a chunk threw.
   */
  void parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, const RangeFn& fn);

 private:
  using Clock = std::chrono::steady_clock;

  void start(int threads, ThreadLimit limit, std::string detail);
  void stop();
  /** `seen`: the last job serial this worker must not run (the pool's serial when it started). */
  void workerLoop(int index, std::uint64_t seen);
  void runChunks(int threadIndex);
  /**
   * Waits until `ready()`: spins for spinBudget(lastWait), then sleeps on `condition` (under mutex_,
   * with `ready()` as the predicate). Records in `lastWait` how long the wait took.
   */
  template <class Ready>
  void waitUntil(const Ready& ready, std::condition_variable& condition, Clock::duration& lastWait);
  /** Spins until `ready()` or `budget` has passed; true when ready. */
  template <class Ready>
  bool spinUntil(const Ready& ready, Clock::duration budget) const;
  Clock::duration spinBudget(Clock::duration lastWait) const;

  std::vector<std::thread> workers_;
  /** False when the pool has more threads than the CPUs it may use: a spinning thread would hold one a working thread needs. */
  bool spin_ = true;
  ThreadLimit limit_ = ThreadLimit::Cores;
  std::string limitDetail_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Written under mutex_ (so condition-variable waits miss nothing) and read without it while spinning.
  std::atomic<std::uint64_t> jobSerial_{0};
  /** Workers that joined the current job and have not finished their chunks. */
  std::atomic<int> activeWorkers_{0};
  /** Whether chunks of the current job may still be unclaimed, so that a worker waking now joins it. */
  bool jobOpen_ = false;
  std::atomic<bool> stopping_{false};
  /** How long the caller last waited for the workers. */
  Clock::duration callerWait_{0};

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
