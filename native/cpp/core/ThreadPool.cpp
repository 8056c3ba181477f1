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
  callerSpin_ = Clock::duration::zero();
  blocks_.reset(new Block[static_cast<std::size_t>(threads)]);
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
void ThreadPool::waitUntil(const Ready& ready, std::condition_variable& condition, std::atomic<int>& sleepers, Clock::duration& spinBudget) {
  const Clock::time_point begin = Clock::now();
  if (!spinUntil(ready, spin_ ? spinBudget : Clock::duration::zero())) {
    std::unique_lock<std::mutex> lock(mutex_);
    // Counted before `ready()` is checked again: a notifier that changes the state after this sees the count
    // and takes the mutex, so it cannot slip between that check and the wait.
    sleepers.fetch_add(1);
    condition.wait(lock, ready);
    sleepers.fetch_sub(1);
  }
  const Clock::duration waited = Clock::now() - begin;
  // A wait no spin could have bridged (a long serial stretch, or a thread that lost its CPU to another
  // process) is likely again: sleep at once next time. Otherwise spin up to twice this wait. (Remembering
  // the longest of the recent waits instead kept more spins alive, which a busy process beside the pool
  // paid for: 2 threads then took 2-4% longer than 1.)
  if (waited > kSpinTime) {
    spinBudget = Clock::duration::zero();
  } else {
    spinBudget = std::min<Clock::duration>(kSpinTime, std::max<Clock::duration>(kMinSpin, 2 * waited));
  }
}

void ThreadPool::notify(std::condition_variable& condition, const std::atomic<int>& sleepers) {
  if (sleepers.load() == 0) return;
  // A sleeper between its count and its wait holds the mutex: taking it here orders this notification after
  // that wait began.
  { std::lock_guard<std::mutex> lock(mutex_); }
  condition.notify_all();
}

bool ThreadPool::claim(int block, bool front, std::int64_t& chunk) {
  std::atomic<std::uint64_t>& range = blocks_[block].range;
  std::uint64_t seen = range.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t next = seen & 0xffffffffu;
    const std::uint64_t end = seen >> 32;
    if (next >= end) return false;
    const std::uint64_t claimed = front ? seen + 1 : ((end - 1) << 32 | next);
    if (range.compare_exchange_weak(seen, claimed, std::memory_order_acq_rel, std::memory_order_relaxed)) {
      chunk = static_cast<std::int64_t>(front ? next : end - 1);
      return true;
    }
  }
}

void ThreadPool::runChunks(int threadIndex) {
  insideParallelRegion = true;
  const int blocks = threads();
  for (;;) {
    std::int64_t chunk = 0;
    bool found = claim(threadIndex, true, chunk);
    for (int k = 1; !found && k < blocks; ++k) found = claim((threadIndex + k) % blocks, false, chunk);
    if (!found) break;
    const std::int64_t lo = jobBegin_ + chunk * jobGrain_;
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
  Clock::duration spinBudget{0};
  for (;;) {
    waitUntil([&] { return stopping_.load() || jobSerial_.load() != seen; }, wake_, sleepingWorkers_, spinBudget);
    if (stopping_.load()) return;
    seen = jobSerial_.load();
    // Counted first, then the job checked: the caller closes the job first, then reads the count, so either it
    // waits for this worker or this worker sees the job closed (both sides sequentially consistent). A worker
    // that wakes after the caller has taken every chunk has nothing to do, and the caller does not wait for
    // it: under contention that late wake-up can come a whole time slice after the job began.
    activeWorkers_.fetch_add(1);
    if (jobOpen_.load()) runChunks(index);
    if (activeWorkers_.fetch_sub(1) == 1) notify(done_, sleepingCaller_);
  }
}

void ThreadPool::parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, const RangeFn& fn) {
  if (end <= begin) return;
  // Chunk numbers are packed into 32 bits (Block).
  grain = std::max<std::int64_t>({grain, 1, (end - begin) / 0x7fffffff + 1});
  if (insideParallelRegion || workers_.empty() || end - begin <= grain) {
    fn(begin, end, 0);
    return;
  }
  std::lock_guard<std::mutex> submit(submitMutex_);
  job_ = &fn;
  jobBegin_ = begin;
  jobEnd_ = end;
  jobGrain_ = grain;
  firstError_ = nullptr;
  const std::int64_t chunks = (end - begin + grain - 1) / grain;
  const int blocks = threads();
  for (int t = 0; t < blocks; ++t) {
    const auto first = static_cast<std::uint64_t>(chunks * t / blocks);
    const auto last = static_cast<std::uint64_t>(chunks * (t + 1) / blocks);
    blocks_[t].range.store(first | last << 32, std::memory_order_relaxed);
  }
  jobOpen_.store(true);
  jobSerial_.fetch_add(1);
  notify(wake_, sleepingWorkers_);
  runChunks(0);
  // Every chunk is taken: the caller waits only for the workers that joined in time and still run one.
  jobOpen_.store(false);
  waitUntil([&] { return activeWorkers_.load() == 0; }, done_, sleepingCaller_, callerSpin_);
  if (firstError_) std::rethrow_exception(firstError_);
}

}  // namespace hookmd
