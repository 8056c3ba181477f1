#include "cpu/CpuEamForceKernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/ThreadPool.h"
#include "cpu/SystemSchedule.h"
#include "math/EamEval.h"
#include "math/PairGeometry.h"
#include "neighbor/OverlapCheck.h"

namespace hookmd {

namespace {

/** Everything the pair loops read besides the chunk, gathered once per call. */
struct Tables {
  const EamGrid& grid;
  const double* rhor;
  const double* z2r;
  const std::size_t* rhorOffset;
  const std::size_t* z2rOffset;
  int numTypes;
};

template <class Visit>
void forEachPair(const CpuEamForceKernel::Chunk& task, double cutoffSq, Visit&& visit) {
  const NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const double* shifts = task.list->shifts.data();
  const int bits = task.list->imageBits;
  const std::uint32_t mask = task.list->imageMask;
  const std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  for (std::int32_t slot = chunk.ownerBegin; slot < chunk.ownerEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
    for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end; ++e) {
      const std::uint32_t packed = entries[e];
      const std::int32_t j = static_cast<std::int32_t>(packed >> bits);
      const double* shift = shifts + 3 * (packed & mask);
      const double d[3] = {x[3 * j] + shift[0] - xi[0], x[3 * j + 1] + shift[1] - xi[1], x[3 * j + 2] + shift[2] - xi[2]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 < cutoffSq) visit(i, j, d, r2);
    }
  }
}

// kSingle: a one-element potential, where both atoms of a pair read the same tables (no type lookups, and
// one density or density derivative per pair instead of two).
template <bool kSingle>
void densityLoop(const CpuEamForceKernel::Chunk& task, const Tables& t, double* rho) {
  const std::uint8_t* types = task.types;
  forEachPair(task, t.grid.cutoffSq, [&](std::int32_t i, std::int32_t j, const double*, double r2) {
    int m;
    double p;
    eamRadialIndex(t.grid, std::sqrt(r2), m, p);
    if constexpr (kSingle) {
      const double density = eamDensity(t.rhor, m, p);
      rho[i] += density;
      rho[j] += density;
    } else {
      const int ti = types[i];
      const int tj = types[j];
      rho[i] += eamDensity(t.rhor + t.rhorOffset[ti * t.numTypes + tj], m, p);
      rho[j] += eamDensity(t.rhor + t.rhorOffset[tj * t.numTypes + ti], m, p);
    }
  });
}

template <bool kForces, bool kVirial, bool kSingle>
void forceLoop(const CpuEamForceKernel::Chunk& task, const Tables& t, const double* fp, double* f,
               SystemSums& sums) {
  const std::uint8_t* types = task.types;
  double energy = 0.0;
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  forEachPair(task, t.grid.cutoffSq, [&](std::int32_t i, std::int32_t j, const double* d, double r2) {
    const double r = std::sqrt(r2);
    int m;
    double p;
    eamRadialIndex(t.grid, r, m, p);
    double fOverR;
    double pairEnergy;
    if constexpr (kSingle) {
      eamPairForceOneElement(t.rhor, t.z2r, m, p, r, fp[i], fp[j], fOverR, pairEnergy);
    } else {
      const int ti = types[i];
      const int tj = types[j];
      eamPairForce(t.rhor + t.rhorOffset[ti * t.numTypes + tj], t.rhor + t.rhorOffset[tj * t.numTypes + ti],
                   t.z2r + t.z2rOffset[ti * t.numTypes + tj], m, p, r, fp[i], fp[j], fOverR, pairEnergy);
    }
    energy += pairEnergy;
    if constexpr (kForces) {
      const double fx = fOverR * d[0];
      const double fy = fOverR * d[1];
      const double fz = fOverR * d[2];
      f[3 * i] -= fx;
      f[3 * i + 1] -= fy;
      f[3 * i + 2] -= fz;
      f[3 * j] += fx;
      f[3 * j + 1] += fy;
      f[3 * j + 2] += fz;
    }
    if constexpr (kVirial) addPairVirial(virial, d, fOverR);
  });
  sums.energy += energy;
  for (int c = 0; c < 6; ++c) sums.virial[c] += virial[c];
}

using ForceLoop = void (*)(const CpuEamForceKernel::Chunk&, const Tables&, const double*, double*, SystemSums&);

template <std::size_t... kCodes>
constexpr std::array<ForceLoop, sizeof...(kCodes)> forceLoops(std::index_sequence<kCodes...>) {
  return {{&forceLoop<(kCodes & 4) != 0, (kCodes & 2) != 0, (kCodes & 1) != 0>...}};
}

/** Every forceLoop, indexed by forces·4 + virial·2 + single. */
constexpr std::array<ForceLoop, 8> kForceLoops = forceLoops(std::make_index_sequence<8>());

}  // namespace

CpuEamForceKernel::CpuEamForceKernel(const EamForceSpec& spec)
    : model_(spec.model), tables_(spec.tables), grid_(spec.tables->grid()), numTypes_(spec.tables->numElements()) {
  const std::size_t rTable = static_cast<std::size_t>(grid_.nr + 1) * kEamSplineStride;
  const std::size_t rhoTable = static_cast<std::size_t>(grid_.nrho + 1) * kEamSplineStride;
  for (int a = 0; a < numTypes_; ++a) {
    frhoOffset_.push_back(a * rhoTable);
    for (int b = 0; b < numTypes_; ++b) {
      rhorOffset_.push_back(tables_->rhorTableOf(a, b) * rTable);
      z2rOffset_.push_back(tables_->z2rTableOf(a, b) * rTable);
    }
  }
}

void CpuEamForceKernel::density(const Chunk& task, double* rho) const {
  const Tables t{grid_, tables_->rhorSplines().data(), tables_->z2rSplines().data(), rhorOffset_.data(), z2rOffset_.data(), numTypes_};
  numTypes_ == 1 ? densityLoop<true>(task, t, rho) : densityLoop<false>(task, t, rho);
}

double CpuEamForceKernel::embed(const std::uint8_t* types, const double* rho, double* fp, std::int64_t begin,
                                std::int64_t end) const {
  const double* frho = tables_->frhoSplines().data();
  double energy = 0.0;
  for (std::int64_t i = begin; i < end; ++i) {
    double embedding;
    eamEmbedding(grid_, frho + frhoOffset_[types[i]], rho[i], embedding, fp[i]);
    energy += embedding;
  }
  return energy;
}

void CpuEamForceKernel::forces(const Chunk& chunk, const double* fp, double* f, bool virial, SystemSums& sums) const {
  const Tables t{grid_, tables_->rhorSplines().data(), tables_->z2rSplines().data(), rhorOffset_.data(), z2rOffset_.data(), numTypes_};
  kForceLoops[(f != nullptr ? 4 : 0) | (virial ? 2 : 0) | (numTypes_ == 1 ? 1 : 0)](chunk, t, fp, f, sums);
}

void CpuEamForceKernel::execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                                std::vector<double>& virial) {
  BatchStorage& storage = backend.arraysFor(Kernel::EamForces, request.reads(), request.writes());
  neighbors_.bind(storage, std::sqrt(grid_.cutoffSq), skin);
  if (request.stress) virial.assign(9 * static_cast<std::size_t>(storage.numSystems()), 0.0);
  const ForcePass pass{storage, request, types.types->data(), virial};

  const int threads = ThreadPool::global().threads();
  if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
  scheduleSystems(
      storage, request.systems, [&](std::int64_t s, int thread) { computeSystem(s, pass, workspaces_[thread]); },
      [&](std::int64_t s) { computeLargeSystem(s, pass); });
  checkOverlaps(model_, backend, storage, request.systems, neighbors_);
}

void CpuEamForceKernel::computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  BatchStorage& storage = pass.storage;
  neighbors_.update(s, storage, workspace.scratch);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  const std::int64_t count = list.atomCount;
  const std::uint8_t* types = pass.types + begin;
  const Chunk base{&list, nullptr, listPositions(list, storage, workspace.wrapped), types};

  workspace.rho.assign(static_cast<std::size_t>(count), 0.0);
  workspace.fp.resize(static_cast<std::size_t>(count));
  for (const NeighborChunk& chunk : list.chunks) {
    Chunk task = base;
    task.chunk = &chunk;
    density(task, workspace.rho.data());
  }
  SystemSums sums;
  sums.energy = embed(types, workspace.rho.data(), workspace.fp.data(), 0, count);

  double* f = pass.request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * count, 0.0);
  for (const NeighborChunk& chunk : list.chunks) {
    Chunk task = base;
    task.chunk = &chunk;
    forces(task, workspace.fp.data(), f, pass.request.stress, sums);
  }
  finishSystem(storage, s, sums, pass.request.stress, pass.virial);
}

void CpuEamForceKernel::computeLargeSystem(std::int64_t s, const ForcePass& pass) {
  BatchStorage& storage = pass.storage;
  ThreadPool& pool = ThreadPool::global();
  Workspace& main = workspaces_[0];
  neighbors_.update(s, storage, main.scratch);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  const std::int64_t count = list.atomCount;
  const std::uint8_t* types = pass.types + begin;
  const Chunk base{&list, nullptr, listPositions(list, storage, main.wrapped), types};

  // Group 0 writes the system's arrays directly; the others accumulate into buffers of their own.
  const ChunkGroups chunkGroups = groupChunks(list, pool.threads());
  const int groups = chunkGroups.count();
  const std::vector<std::int64_t>& low = chunkGroups.low;
  const std::vector<std::int64_t>& high = chunkGroups.high;
  for (int g = 1; g < groups; ++g) {
    Workspace& workspace = workspaces_[g];
    if (workspace.groupCapacity < static_cast<std::size_t>(count)) {
      workspace.groupRho.reset(new double[static_cast<std::size_t>(count)]);
      workspace.groupForces.reset(new double[3 * static_cast<std::size_t>(count)]);
      workspace.groupCapacity = static_cast<std::size_t>(count);
    }
  }
  auto runGroups = [&](auto&& body) {
    pool.parallelFor(0, groups, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t g = lo; g < hi; ++g) {
        Chunk task = base;
        for (std::size_t c = chunkGroups.firstChunk[g]; c < chunkGroups.firstChunk[g + 1]; ++c) {
          task.chunk = &list.chunks[c];
          body(static_cast<int>(g), task);
        }
      }
    });
  };
  // Densities.
  main.rho.assign(static_cast<std::size_t>(count), 0.0);
  main.fp.resize(static_cast<std::size_t>(count));
  for (int g = 1; g < groups; ++g) std::fill(workspaces_[g].groupRho.get() + low[g], workspaces_[g].groupRho.get() + high[g], 0.0);
  runGroups([&](int g, const Chunk& task) { density(task, g == 0 ? main.rho.data() : workspaces_[g].groupRho.get()); });
  addGroupBuffers(chunkGroups, count, main.rho.data(), 1, [&](int g) { return workspaces_[g].groupRho.get(); });

  // Embedding, in fixed atom blocks so the energy sums in the same order for any thread count.
  const std::int64_t blocks = (count + kAtomsPerTask - 1) / kAtomsPerTask;
  std::vector<double> blockEnergy(static_cast<std::size_t>(blocks), 0.0);
  pool.parallelFor(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t b = lo; b < hi; ++b) {
      blockEnergy[b] = embed(types, main.rho.data(), main.fp.data(), b * kAtomsPerTask, std::min(count, (b + 1) * kAtomsPerTask));
    }
  });
  SystemSums total;
  for (double e : blockEnergy) total.energy += e;

  // Forces.
  double* out = pass.request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (out != nullptr) {
    std::fill(out, out + 3 * count, 0.0);
    for (int g = 1; g < groups; ++g) {
      std::fill(workspaces_[g].groupForces.get() + 3 * low[g], workspaces_[g].groupForces.get() + 3 * high[g], 0.0);
    }
  }
  std::vector<SystemSums> sums(static_cast<std::size_t>(groups));
  runGroups([&](int g, const Chunk& task) {
    double* f = out == nullptr ? nullptr : g == 0 ? out : workspaces_[g].groupForces.get();
    forces(task, main.fp.data(), f, pass.request.stress, sums[g]);
  });
  if (out != nullptr) addGroupBuffers(chunkGroups, count, out, 3, [&](int g) { return workspaces_[g].groupForces.get(); });
  for (const SystemSums& part : sums) total.add(part);
  finishSystem(storage, s, total, pass.request.stress, pass.virial);
}

}  // namespace hookmd
