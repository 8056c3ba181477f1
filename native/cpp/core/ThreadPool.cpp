#include "core/ThreadPool.h"

#include <algorithm>
#include <cstdlib>

namespace hookmd {

namespace {
thread_local bool insideParallelRegion = false;

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
  // New workers (after setThreads) have seen every job so far: starting them at 0 made each run a stale
  // job and decrement busyWorkers_ for a job it never took, so a later parallelFor could wait forever.
  const std::uint64_t seen = jobSerial_;
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
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || jobSerial_ != seen; });
      if (stopping_) return;
      seen = jobSerial_;
    }
    runChunks(index);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busyWorkers_ == 0) done_.notify_one();
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
    busyWorkers_ = static_cast<int>(workers_.size());
    ++jobSerial_;
  }
  wake_.notify_all();
  runChunks(0);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busyWorkers_ == 0; });
    job_ = nullptr;
  }
  if (firstError_) std::rethrow_exception(firstError_);
}

}  // namespace hookmd
