// A small persistent thread pool. parallelFor cuts [begin, end) into chunks and deals them out in one
// contiguous block per thread; the calling thread works too. Each thread takes its own block's chunks from
// the front and, once its block is done, the others' from the back. So on a quiet machine every loop of a
// step hands a thread the same items, the atoms whose cache lines its core already holds (claiming chunks
// from one shared counter cost the 2-thread in.lj run about a tenth more CPU time), and a thread that falls
// behind still gets helped.
//
// An MD step makes several parallelFor calls a few hundred microseconds apart, and waking a sleeping thread
// costs tens of microseconds in a VM, so idle workers and a waiting caller spin briefly before they sleep.
// The spin adapts: it lasts at most twice what the waiter's last wait took, not at all after a wait longer
// than the spin could bridge, and it yields its core once it notices it lost it, so that a pool sharing its
// CPUs with other busy processes does not burn the time its own late thread needs. A worker joins a job
// only while some of its chunks are unclaimed, and the caller waits only for the workers that joined: one
// that lost its core and wakes late never holds the step up. Publishing a job, joining it and finishing it
// take no lock unless some thread sleeps: a contended mutex puts its loser to sleep, which costs a wake-up
// in the middle of a step.
//
// Results stay independent of the thread count as long as every chunk writes only its own outputs (per
// system, or per-thread buffers reduced in a fixed order).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
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

  /** One thread's unclaimed chunks [next, end), packed as next | end << 32, on a cache line of its own. */
  struct alignas(64) Block {
    std::atomic<std::uint64_t> range{0};
  };

  void start(int threads, ThreadLimit limit, std::string detail);
  void stop();
  /** `seen`: the last job serial this worker must not run (the pool's serial when it started). */
  void workerLoop(int index, std::uint64_t seen);
  void runChunks(int threadIndex);
  /** Claims a chunk of thread `block`'s block: from the front for its own thread, from the back for others. */
  bool claim(int block, bool front, std::int64_t& chunk);
  /**
   * Waits until `ready()`: spins for `spinBudget`, then sleeps on `condition`, counted in `sleepers` so that
   * whoever makes `ready()` true knows to wake it (notify). Sets `spinBudget` for the next wait from this one.
   */
  template <class Ready>
  void waitUntil(const Ready& ready, std::condition_variable& condition, std::atomic<int>& sleepers, Clock::duration& spinBudget);
  /** Wakes the threads sleeping on `condition` after the state they wait for changed; free when none sleeps. */
  void notify(std::condition_variable& condition, const std::atomic<int>& sleepers);
  /** Spins until `ready()` or `budget` has passed; true when ready. */
  template <class Ready>
  bool spinUntil(const Ready& ready, Clock::duration budget) const;

  std::vector<std::thread> workers_;
  /** False when the pool has more threads than the CPUs it may use: a spinning thread would hold one a working thread needs. */
  bool spin_ = true;
  ThreadLimit limit_ = ThreadLimit::Cores;
  std::string limitDetail_;
  /** Guards only the sleeping side of the condition variables. */
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<int> sleepingWorkers_{0};
  std::atomic<int> sleepingCaller_{0};
  std::atomic<std::uint64_t> jobSerial_{0};
  /** Workers that joined the current job and have not finished their chunks. */
  std::atomic<int> activeWorkers_{0};
  /** Whether chunks of the current job may still be unclaimed, so that a worker waking now joins it. */
  std::atomic<bool> jobOpen_{false};
  std::atomic<bool> stopping_{false};
  /** How long the caller spins before it sleeps when it next waits for the workers. */
  Clock::duration callerSpin_{0};

  // The job: written by the caller before it opens the job, read by the workers that joined it.
  const RangeFn* job_ = nullptr;
  std::int64_t jobBegin_ = 0;
  std::int64_t jobEnd_ = 0;
  std::int64_t jobGrain_ = 1;
  std::unique_ptr<Block[]> blocks_;
  std::exception_ptr firstError_;
  std::mutex errorMutex_;
  std::mutex submitMutex_;
};

}  // namespace hookmd
