#include "cpu/CpuPairForceKernel.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/CpuPairLoop.h"
#include "math/LennardJonesEval.h"
#include "math/MorseEval.h"
#include "math/PairGeometry.h"
#include "neighbor/OverlapCheck.h"

namespace hookmd {

namespace {
constexpr std::int64_t kAtomsPerTask = 4096;
}  // namespace

const double* CpuPairForceKernel::localPositions(std::int64_t s, const BatchStorage& storage, Workspace& workspace) const {
  const SystemNeighborList& list = neighbors_.list(s);
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  if (list.wrap.empty()) return x;
  workspace.wrapped.resize(3 * static_cast<std::size_t>(list.atomCount));
  wrappedPositions(list, x, workspace.wrapped.data());
  return workspace.wrapped.data();
}

void CpuPairForceKernel::execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                                 std::vector<double>& virial) {
  const FieldSet writes = FieldSet{Field::Energy}.with(Field::Forces, request.forces).with(Field::Stress, request.stress);
  FieldSet reads{Field::Positions, Field::Cell, Field::Pbc, Field::Ptr};
  // Systems left out keep their results, so a partial compute must start from the current outputs.
  if (request.systems != nullptr) reads = reads | writes;
  BatchStorage& storage = backend.arraysFor(Kernel::PairForces, reads, writes);
  neighbors_.bind(storage, cutoff_, skin);
  const std::int64_t systems = storage.numSystems();
  if (request.stress) virial.assign(9 * static_cast<std::size_t>(systems), 0.0);
  const Pass pass{storage, request, types.types->empty() ? nullptr : types.types->data(), virial};

  ThreadPool& pool = ThreadPool::global();
  const int threads = pool.threads();
  if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int64_t share = storage.numAtoms() / threads;
  auto large = [&](std::int64_t s) {
    const std::int64_t count = ptr[s + 1] - ptr[s];
    return threads > 1 && count >= kParallelAtoms && count > share;
  };
  auto wanted = [&](std::int64_t s) { return request.systems == nullptr || request.systems[s] != 0; };
  pool.parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    for (std::int64_t s = lo; s < hi; ++s) {
      if (wanted(s) && !large(s)) computeSystem(s, pass, workspaces_[thread]);
    }
  });
  for (std::int64_t s = 0; s < systems; ++s) {
    if (wanted(s) && large(s)) computeLargeSystem(s, pass);
  }
  // Overlapping atoms: only a non-finite energy pays for the search (docs/models.md).
  const double* energy = storage.f64(Field::Energy);
  for (std::int64_t s = 0; s < systems; ++s) {
    if (wanted(s) && !std::isfinite(energy[s])) checkOverlap(model_, s, backend, storage, neighbors_.list(s));
  }
}

void CpuPairForceKernel::computeSystem(std::int64_t s, const Pass& pass, Workspace& workspace) {
  BatchStorage& storage = pass.storage;
  const ComputeRequest& request = pass.request;
  neighbors_.update(s, storage, workspace.scratch);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  double* f = request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * static_cast<std::int64_t>(list.atomCount), 0.0);
  const ChunkTask base{&list, nullptr, localPositions(s, storage, workspace), f,
                       pass.types == nullptr ? nullptr : pass.types + begin, request.stress};
  PairSums sums;
  for (const NeighborChunk& chunk : list.chunks) {
    ChunkTask task = base;
    task.chunk = &chunk;
    evaluateChunk(task, sums);
  }
  finishSystem(s, pass, sums);
}

void CpuPairForceKernel::computeLargeSystem(std::int64_t s, const Pass& pass) {
  BatchStorage& storage = pass.storage;
  const ComputeRequest& request = pass.request;
  ThreadPool& pool = ThreadPool::global();
  neighbors_.update(s, storage, workspaces_[0].scratch);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  const std::int64_t count = list.atomCount;
  const double* x = localPositions(s, storage, workspaces_[0]);

  // Contiguous runs of chunks with about equal pair counts, one per thread; fixed for a given list.
  const int groups = pool.threads();
  std::vector<std::size_t> firstChunk(static_cast<std::size_t>(groups) + 1, list.chunks.size());
  firstChunk[0] = 0;
  std::int64_t seen = 0;
  int group = 1;
  for (std::size_t c = 0; c < list.chunks.size() && group < groups; ++c) {
    while (group < groups && seen * groups >= list.pairs * group) firstChunk[group++] = c;
    seen += static_cast<std::int64_t>(list.chunks[c].entries.size());
  }
  // Group g > 0 accumulates into its own buffer over the atoms its chunks touch ([low, high), a slab of
  // the system when atoms are numbered roughly in space); group 0 writes the output directly.
  std::vector<std::int64_t> low(static_cast<std::size_t>(groups), count);
  std::vector<std::int64_t> high(static_cast<std::size_t>(groups), 0);
  for (int g = 0; g < groups; ++g) {
    for (std::size_t c = firstChunk[g]; c < firstChunk[g + 1]; ++c) {
      low[g] = std::min<std::int64_t>(low[g], list.chunks[c].atomLow);
      high[g] = std::max<std::int64_t>(high[g], list.chunks[c].atomHigh);
    }
    low[g] = std::min(low[g], high[g]);
  }

  double* out = request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  std::vector<PairSums> sums(static_cast<std::size_t>(groups));
  pool.parallelFor(0, groups, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t g = lo; g < hi; ++g) {
      double* f = out;
      if (out != nullptr && g > 0) {
        Workspace& workspace = workspaces_[g];
        if (workspace.forceCapacity < 3 * static_cast<std::size_t>(count)) {
          workspace.forces.reset(new double[3 * static_cast<std::size_t>(count)]);
          workspace.forceCapacity = 3 * static_cast<std::size_t>(count);
        }
        f = workspace.forces.get();
        std::fill(f + 3 * low[g], f + 3 * high[g], 0.0);
      } else if (out != nullptr) {
        std::fill(out, out + 3 * count, 0.0);
      }
      ChunkTask task{&list, nullptr, x, f, pass.types == nullptr ? nullptr : pass.types + begin, request.stress};
      for (std::size_t c = firstChunk[g]; c < firstChunk[g + 1]; ++c) {
        task.chunk = &list.chunks[c];
        evaluateChunk(task, sums[g]);
      }
    }
  });
  if (out != nullptr && groups > 1) {
    pool.parallelFor(0, count, kAtomsPerTask, [&](std::int64_t lo, std::int64_t hi, int) {
      for (int g = 1; g < groups; ++g) {
        const double* buffer = workspaces_[g].forces.get();
        const std::int64_t from = 3 * std::max(lo, low[g]);
        const std::int64_t to = 3 * std::min(hi, high[g]);
        for (std::int64_t k = from; k < to; ++k) out[k] += buffer[k];
      }
    });
  }
  PairSums total;
  for (const PairSums& part : sums) {
    total.energy += part.energy;
    for (int c = 0; c < 6; ++c) total.virial[c] += part.virial[c];
  }
  finishSystem(s, pass, total);
}

void CpuPairForceKernel::finishSystem(std::int64_t s, const Pass& pass, const PairSums& sums) {
  BatchStorage& storage = pass.storage;
  storage.f64(Field::Energy)[s] = sums.energy;
  if (!pass.request.stress) return;
  const double* v = sums.virial;
  const double w[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
  std::copy(w, w + 9, pass.virial.begin() + 9 * s);
  // σ = −W/V, as ASE's calculators report it whenever the cell has full rank, periodic or not. A cell of
  // zero volume (a cluster without a cell) has no stress: report zeros rather than infinities.
  const double* cell = storage.f64(Field::Cell) + 9 * s;
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::max(scale, std::fabs(cell[k]));
  const double volume = std::fabs(det3(cell));
  double* stress = storage.f64(Field::Stress) + 9 * s;
  const bool hasVolume = scale > 0.0 && volume > 1e-12 * scale * scale * scale;
  // 0 − w rather than −w: a zero virial gives +0, not −0.
  for (int k = 0; k < 9; ++k) stress[k] = hasVolume ? (0.0 - w[k]) / volume : 0.0;
}

std::unique_ptr<PairForceKernel> createCpuPairForceKernel(const PairForceSpec& spec) {
  switch (spec.evaluator) {
    case PairEvaluator::LennardJones: return std::make_unique<CpuPairForceKernelOf<LennardJonesEval>>(spec);
    case PairEvaluator::Morse: return std::make_unique<CpuPairForceKernelOf<MorseEval>>(spec);
  }
  fail("INVALID_ARGUMENT", std::string(spec.model) + ": unknown pair evaluator");
}

}  // namespace hookmd
