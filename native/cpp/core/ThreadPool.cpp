#include "core/ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace hookmd {

namespace {
thread_local bool insideParallelRegion = false;

// Long enough to bridge the gaps between the parallel loops of one step, short enough that a pool left
// idle goes to sleep at once on the scale of a user's program.
constexpr std::chrono::microseconds kSpinTime{200};

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

int threadsFromEnvironment() {
  const char* value = std::getenv("HOOKMD_THREADS");
  if (value == nullptr) return ThreadPool::hardwareThreads();
  const int n = std::atoi(value);
  return n >= 1 ? n : ThreadPool::hardwareThreads();
}
}  // namespace

int ThreadPool::hardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

ThreadPool& ThreadPool::global() {
  static ThreadPool pool(threadsFromEnvironment());
  return pool;
}

ThreadPool::ThreadPool(int threads) { start(threads < 1 ? hardwareThreads() : threads); }

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::setThreads(int n) {
  std::lock_guard<std::mutex> submit(submitMutex_);
  stop();
  start(n < 1 ? hardwareThreads() : n);
}

void ThreadPool::start(int threads) {
  stopping_ = false;
  spin_ = threads <= hardwareThreads();
  // New workers (after setThreads) have seen every job so far: starting them at 0 made each run a stale
  // job and decrement busyWorkers_ for a job it never took, so a later parallelFor could wait forever.
  const std::uint64_t seen = jobSerial_.load();
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i, seen] { workerLoop(i, seen); });
}

void ThreadPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
  workers_.clear();
}

template <class Ready>
void ThreadPool::spinUntil(const Ready& ready) const {
  if (!spin_) return;
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      if (ready()) return;
      cpuRelax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return;
  }
}

void ThreadPool::runChunks(int threadIndex) {
  insideParallelRegion = true;
  for (;;) {
    const std::int64_t lo = jobBegin_ + nextChunk_.fetch_add(1) * jobGrain_;
    if (lo >= jobEnd_) break;
    const std::int64_t hi = std::min(lo + jobGrain_, jobEnd_);
    try {
      (*job_)(lo, hi, threadIndex);
    } catch (...) {
      std::lock_guard<std::mutex> lock(errorMutex_);
      if (!firstError_) firstError_ = std::current_exception();
    }
  }
  insideParallelRegion = false;
}

void ThreadPool::workerLoop(int index, std::uint64_t seen) {
  for (;;) {
    spinUntil([&] { return jobSerial_.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || jobSerial_.load() != seen; });
      if (stopping_) return;
      seen = jobSerial_.load();
    }
    runChunks(index);
    if (busyWorkers_.fetch_sub(1) == 1) {
      // Under the mutex, so a caller between its check and its wait cannot miss the notification.
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, const RangeFn& fn) {
  if (end <= begin) return;
  grain = std::max<std::int64_t>(grain, 1);
  if (insideParallelRegion || workers_.empty() || end - begin <= grain) {
    fn(begin, end, 0);
    return;
  }
  std::lock_guard<std::mutex> submit(submitMutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &fn;
    jobBegin_ = begin;
    jobEnd_ = end;
    jobGrain_ = grain;
    nextChunk_.store(0);
    firstError_ = nullptr;
    busyWorkers_.store(static_cast<int>(workers_.size()));
    jobSerial_.fetch_add(1);
  }
  wake_.notify_all();
  runChunks(0);
  spinUntil([&] { return busyWorkers_.load(std::memory_order_acquire) == 0; });
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busyWorkers_.load() == 0; });
    job_ = nullptr;
  }
  if (firstError_) std::rethrow_exception(firstError_);
}

}  // namespace hookmd
