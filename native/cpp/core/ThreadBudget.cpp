#include "core/ThreadBudget.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace hookmd {

namespace {

std::optional<std::string> readFirstLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  if (!file || !std::getline(file, line)) return std::nullopt;
  return line;
}

/** The cgroup path and its ancestors, deepest first: "/a/b" gives "/a/b", "/a", "". */
std::vector<std::string> selfAndAncestors(std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path.back() == '/') path.pop_back();
  for (;;) {
    out.push_back(path);
    const std::size_t slash = path.rfind('/');
    if (path.empty() || slash == std::string::npos) break;
    path.erase(slash);
  }
  return out;
}

/** cgroup v2 cpu.max: "max 100000" (no limit) or "<quota> <period>", both in microseconds. */
std::optional<double> parseCpuMax(const std::string& line) {
  std::istringstream in(line);
  std::string quota;
  double period = 0.0;
  if (!(in >> quota >> period) || quota == "max" || !(period > 0.0)) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(quota.c_str(), &end);
  if (end == quota.c_str() || !(value > 0.0)) return std::nullopt;
  return value / period;
}

void keepSmaller(std::optional<CgroupQuota>& best, double cpus, const std::string& source) {
  if (!best || cpus < best->cpus) best = CgroupQuota{cpus, source};
}

std::string describe(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

const char* threadLimitName(ThreadLimit limit) {
  switch (limit) {
    case ThreadLimit::Environment: return "HOOKMD_THREADS";
    case ThreadLimit::Explicit: return "setThreads";
    case ThreadLimit::Affinity: return "affinity";
    case ThreadLimit::CgroupQuota: return "cgroup";
    case ThreadLimit::Cores: break;
  }
  return "cores";
}

std::optional<CgroupQuota> readCgroupQuota(const std::string& root) {
  const std::string base = root.empty() || root.back() != '/' ? root : root.substr(0, root.size() - 1);
  std::ifstream membership(base + "/proc/self/cgroup");
  std::optional<CgroupQuota> best;
  std::string line;
  while (std::getline(membership, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::path", v1 lists its controllers ("4:cpu,cpuacct:/path").
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      // Every ancestor's quota applies too, up to the mount's root (in a container, the container's cgroup).
      for (const std::string& dir : selfAndAncestors(path)) {
        const std::string file = base + "/sys/fs/cgroup" + dir + "/cpu.max";
        if (const auto text = readFirstLine(file)) {
          if (const auto cpus = parseCpuMax(*text)) keepSmaller(best, *cpus, file + " " + *text);
        }
      }
      continue;
    }
    std::istringstream list(controllers);
    std::string controller;
    bool cpu = false;
    while (std::getline(list, controller, ',')) cpu = cpu || controller == "cpu";
    if (!cpu) continue;
    for (const char* mount : {"/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpuacct,cpu"}) {
      for (const std::string& dir : selfAndAncestors(path)) {
        const std::string prefix = base + mount + dir;
        const auto quota = readFirstLine(prefix + "/cpu.cfs_quota_us");
        const auto period = readFirstLine(prefix + "/cpu.cfs_period_us");
        if (!quota || !period) continue;
        const double q = std::strtod(quota->c_str(), nullptr);
        const double p = std::strtod(period->c_str(), nullptr);
        // −1 means no quota.
        if (q > 0.0 && p > 0.0) keepSmaller(best, q / p, prefix + "/cpu.cfs_quota_us " + *quota + " / " + *period);
      }
    }
  }
  return best;
}

int affinityCpus() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
#endif
  return 0;
}

ThreadBudget decideThreadBudget(const char* environment, int cores, int affinity, const std::optional<CgroupQuota>& quota) {
  ThreadBudget budget;
  cores = std::max(cores, 1);
  budget.cpus = cores;
  budget.limit = ThreadLimit::Cores;
  budget.detail = std::to_string(cores) + " cores";
  if (affinity > 0 && affinity < budget.cpus) {
    budget.cpus = affinity;
    budget.limit = ThreadLimit::Affinity;
    budget.detail = "affinity mask of " + std::to_string(affinity) + " CPUs";
  }
  if (quota) {
    const int cpus = std::max(1, static_cast<int>(std::ceil(quota->cpus - 1e-9)));
    if (cpus < budget.cpus) {
      budget.cpus = cpus;
      budget.limit = ThreadLimit::CgroupQuota;
      budget.detail = "cgroup quota of " + describe(quota->cpus) + " CPUs (" + quota->source + ")";
    }
  }
  budget.threads = budget.cpus;
  if (environment != nullptr) {
    char* end = nullptr;
    const long n = std::strtol(environment, &end, 10);
    if (end != environment && *end == '\0' && n >= 1 && n <= 1024) {
      budget.threads = static_cast<int>(n);
      budget.limit = ThreadLimit::Environment;
      budget.detail = std::string("HOOKMD_THREADS=") + environment;
    }
  }
  return budget;
}

const ThreadBudget& systemThreadBudget() {
  static const ThreadBudget budget = [] {
    const unsigned cores = std::thread::hardware_concurrency();
    return decideThreadBudget(std::getenv("HOOKMD_THREADS"), cores == 0 ? 1 : static_cast<int>(cores), affinityCpus(),
                              readCgroupQuota("/"));
  }();
  return budget;
}

}  // namespace hookmd
