#include "core/ThreadPool.h"

#include <algorithm>

namespace hookmd {

namespace {
thread_local bool insideParallelRegion = false;

// The longest spin: long enough to bridge the gaps between the parallel loops of one step, short enough that
// a pool left idle goes to sleep at once on the scale of a user's program.
constexpr std::chrono::microseconds kSpinTime{200};
// The shortest spin after a short wait: waits vary from call to call, and sleeping costs a wake-up of tens of
// microseconds.
constexpr std::chrono::microseconds kMinSpin{20};
// A spin that found this much time passing between two of its checks (64 pauses, about a microsecond) was
// descheduled: some other thread wants this CPU, so the spin yields from then on.
constexpr std::chrono::microseconds kLostCore{50};

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
}  // namespace

ThreadPool& ThreadPool::global() {
  static ThreadPool pool(0);
  return pool;
}

ThreadPool::ThreadPool(int threads) {
  if (threads < 1) {
    const ThreadBudget& budget = systemThreadBudget();
    start(budget.threads, budget.limit, budget.detail);
  } else {
    start(threads, ThreadLimit::Explicit, "setThreads(" + std::to_string(threads) + ")");
  }
}

ThreadPool::~ThreadPool() { stop(); }

void ThreadPool::setThreads(int n) {
  std::lock_guard<std::mutex> submit(submitMutex_);
  stop();
  if (n < 1) {
    const ThreadBudget& budget = systemThreadBudget();
    start(budget.threads, budget.limit, budget.detail);
  } else {
    start(n, ThreadLimit::Explicit, "setThreads(" + std::to_string(n) + ")");
  }
}

void ThreadPool::start(int threads, ThreadLimit limit, std::string detail) {
  stopping_ = false;
  limit_ = limit;
  limitDetail_ = std::move(detail);
  spin_ = threads <= systemThreadBudget().cpus;
  callerWait_ = Clock::duration::zero();
  // New workers (after setThreads) have seen every job so far: a worker started at 0 would wake at once for
  // a job that is long over.
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

ThreadPool::Clock::duration ThreadPool::spinBudget(Clock::duration lastWait) const {
  // A wait the spin could not have bridged last time (a long serial stretch, or a thread that lost its CPU
  // to another process) is likely again: sleep at once. Otherwise spin up to twice the last wait.
  if (!spin_ || lastWait > kSpinTime) return Clock::duration::zero();
  return std::min<Clock::duration>(kSpinTime, std::max<Clock::duration>(kMinSpin, 2 * lastWait));
}

template <class Ready>
bool ThreadPool::spinUntil(const Ready& ready, Clock::duration budget) const {
  if (budget <= Clock::duration::zero()) return ready();
  const Clock::time_point begin = Clock::now();
  Clock::time_point last = begin;
  bool contended = false;
  for (;;) {
    for (int k = 0; k < 64; ++k) {
      if (ready()) return true;
      cpuRelax();
    }
    const Clock::time_point now = Clock::now();
    if (now - begin >= budget) return false;
    contended = contended || now - last > kLostCore;
    last = now;
    if (contended) std::this_thread::yield();
  }
}

template <class Ready>
void ThreadPool::waitUntil(const Ready& ready, std::condition_variable& condition, Clock::duration& lastWait) {
  const Clock::time_point begin = Clock::now();
  if (!spinUntil(ready, spinBudget(lastWait))) {
    std::unique_lock<std::mutex> lock(mutex_);
    condition.wait(lock, ready);
  }
  lastWait = Clock::now() - begin;
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
  Clock::duration lastWait = Clock::duration::zero();
  for (;;) {
    waitUntil([&] { return stopping_ || jobSerial_.load(std::memory_order_acquire) != seen; }, wake_, lastWait);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      seen = jobSerial_.load();
      // A worker that wakes after the caller has taken every chunk has nothing to do, and the caller does not
      // wait for it: under contention that late wake-up can come a whole time slice after the job began.
      if (!jobOpen_) continue;
      activeWorkers_.fetch_add(1);
    }
    runChunks(index);
    if (activeWorkers_.fetch_sub(1) == 1) {
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
    jobOpen_ = true;
    jobSerial_.fetch_add(1);
  }
  wake_.notify_all();
  runChunks(0);
  {
    // Every chunk is taken: the caller waits only for the workers that joined in time and still run one.
    std::lock_guard<std::mutex> lock(mutex_);
    jobOpen_ = false;
  }
  waitUntil([&] { return activeWorkers_.load(std::memory_order_acquire) == 0; }, done_, callerWait_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
  }
  if (firstError_) std::rethrow_exception(firstError_);
}

}  // namespace hookmd
