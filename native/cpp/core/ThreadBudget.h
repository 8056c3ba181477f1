// How many threads the CPU pool may use by default, and which limit decided it. A process in a container or
// under taskset must not start one busy thread per core of the host: the threads would share the CPUs it
// may actually use, and every parallel loop would wait for the one that lost its core. The limits, tightest
// first: HOOKMD_THREADS (the user's word, taken as given), the CPU affinity mask (taskset, cpusets), the
// cgroup CPU quota (cgroup v2 cpu.max or v1 cpu.cfs_quota_us, rounded up to whole CPUs; docker --cpus), and
// the cores the machine reports.
#pragma once

#include <optional>
#include <string>

namespace hookmd {

/** Which limit set the thread count (backendInfo().threadLimit). */
enum class ThreadLimit { Environment, Explicit, Affinity, CgroupQuota, Cores };

/** "HOOKMD_THREADS", "setThreads", "affinity", "cgroup" or "cores". */
const char* threadLimitName(ThreadLimit limit);

struct ThreadBudget {
  int threads = 1;
  ThreadLimit limit = ThreadLimit::Cores;
  /** The CPUs this process may keep busy (the affinity, quota and core limits, never HOOKMD_THREADS). */
  int cpus = 1;
  /** What the deciding limit said, for people: "cgroup cpu.max 150000 100000 (1.5 CPUs)". */
  std::string detail;
};

/** A cgroup CPU quota: how many CPUs' worth of time per period, and the file that said so. */
struct CgroupQuota {
  double cpus;
  std::string source;
};

/**
 * The CPU quota of this process's cgroup and its ancestors (the smallest), read from `root`/proc/self/cgroup
 * and the cgroup file system under `root`/sys/fs/cgroup (v2, then v1). `root` is "/" on a live system; tests
 * pass a directory holding fake files. None when no quota applies or nothing can be read.
 */
std::optional<CgroupQuota> readCgroupQuota(const std::string& root);

/** CPUs in this process's affinity mask; 0 where the platform cannot say. */
int affinityCpus();

/**
 * The budget from its inputs: `environment` is HOOKMD_THREADS (null when unset; a value that is not a
 * positive integer is ignored, as the TypeScript loader has already refused it), `cores` the machine's.
 */
ThreadBudget decideThreadBudget(const char* environment, int cores, int affinity, const std::optional<CgroupQuota>& quota);

/** This process's budget: HOOKMD_THREADS, affinityCpus(), readCgroupQuota("/") and the cores, read once. */
const ThreadBudget& systemThreadBudget();

}  // namespace hookmd
