#include "cpu/CpuPairForceKernel.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/CpuPairLoop.h"
#include "cpu/SystemSchedule.h"
#include "math/PairEvaluators.h"
#include "neighbor/OverlapCheck.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

void CpuPairForceKernel::execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                                 std::vector<double>& virial) {
  BatchStorage& storage = arraysFor(backend, Kernel::PairForces, request.reads(), request.writes());
  neighbors_.bind(storage, cutoff_, skin);
  if (request.stress) virial.assign(9 * static_cast<std::size_t>(storage.numSystems()), 0.0);
  const ForcePass pass{storage, request, types.types->empty() ? nullptr : types.types->data(), virial};
  const int threads = ThreadPool::global().threads();
  if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
  scheduleSystems(
      storage, request.systems, [&](std::int64_t s, int thread) { computeSystem(s, pass, workspaces_[thread]); },
      [&](std::int64_t s) { computeLargeSystem(s, pass); });
  // Overlapping atoms: only a non-finite energy pays for the search (docs/models.md).
  checkOverlaps(model_, backend, storage, request.systems, neighbors_);
}

void CpuPairForceKernel::computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  BatchStorage& storage = pass.storage;
  const ComputeRequest& request = pass.request;
  const double* x = updateListPositions(neighbors_, s, storage, workspace.scratch, workspace.wrapped);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  double* f = request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * static_cast<std::int64_t>(list.atomCount), 0.0);
  const ChunkTask base{&list, nullptr, x, f,
                       pass.types == nullptr ? nullptr : pass.types + begin, request.stress};
  SystemSums sums;
  for (const NeighborChunk& chunk : list.chunks) {
    ChunkTask task = base;
    task.cover(chunk);
    evaluateChunk(task, sums);
  }
  finishSystem(storage, s, sums, request.stress, pass.virial);
}

void CpuPairForceKernel::computeLargeSystem(std::int64_t s, const ForcePass& pass) {
  BatchStorage& storage = pass.storage;
  const ComputeRequest& request = pass.request;
  ThreadPool& pool = ThreadPool::global();
  const double* x = updateListPositions(neighbors_, s, storage, workspaces_[0].scratch, workspaces_[0].wrapped);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  const std::int64_t count = list.atomCount;
  const ChunkGroups groups = groupChunks(list, pool.threads());

  // Group g > 0 accumulates into its own buffer; group 0 writes the output directly.
  double* out = request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  std::vector<SystemSums> sums(static_cast<std::size_t>(groups.count()));
  pool.parallelFor(0, groups.count(), 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t g = lo; g < hi; ++g) {
      double* f = out;
      if (out != nullptr && g > 0) {
        Workspace& workspace = workspaces_[g];
        if (workspace.forceCapacity < 3 * static_cast<std::size_t>(count)) {
          workspace.forces.reset(new double[3 * static_cast<std::size_t>(count)]);
          workspace.forceCapacity = 3 * static_cast<std::size_t>(count);
        }
        f = workspace.forces.get();
      }
      if (f != nullptr) zeroGroupRange(groups, static_cast<int>(g), f, 3);
      ChunkTask task{&list, nullptr, x, f, pass.types == nullptr ? nullptr : pass.types + begin, request.stress};
      forEachGroupPiece(list, groups, static_cast<int>(g), [&](std::size_t c, std::int32_t slotBegin, std::int32_t slotEnd) {
        task.cover(list.chunks[c], slotBegin, slotEnd);
        evaluateChunk(task, sums[g]);
      });
    }
  });
  if (out != nullptr) addGroupBuffers(groups, count, out, 3, [&](int g) { return workspaces_[g].forces.get(); });
  SystemSums total;
  for (const SystemSums& part : sums) total.add(part);
  finishSystem(storage, s, total, request.stress, pass.virial);
}

std::unique_ptr<PairForceKernel> createCpuPairForceKernel(const PairForceSpec& spec) {
  return visitPairEvaluator(spec.evaluator, [&](auto kind) -> std::unique_ptr<PairForceKernel> {
    return std::make_unique<CpuPairForceKernelOf<typename decltype(kind)::Eval>>(spec);
  });
}

}  // namespace hookmd
