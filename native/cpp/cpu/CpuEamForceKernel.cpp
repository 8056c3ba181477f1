#include "cpu/CpuEamForceKernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/CpuFeatures.h"
#include "core/Simd.h"
#include "core/ThreadPool.h"
#include "cpu/OwnerSums.h"
#include "cpu/EamRadial.h"
#include "cpu/SystemSchedule.h"
#include "math/EamEval.h"
#include "neighbor/OverlapCheck.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {

/** Everything the pair loops read besides the chunk, gathered once per call. */
struct Tables {
  const EamGrid& grid;
  const EamPairRows& rows;
};

// kOne: a one-element potential, where both atoms of a pair read the same tables (no type lookups, and one
// density or density derivative per pair instead of two). Radial: the body of the radial stage
// (cpu/EamRadial.h); each loop is compiled once per body, for its instruction set.
template <class Radial, bool kOne>
HOOKMD_ALWAYS_INLINE void densityLoopWith(const CpuEamForceKernel::Chunk& task, const Tables& t, double* rho) {
  NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const EntryDecoder decoder(*task.list);
  std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  const std::uint8_t* types = task.types;
  const double cutoffSq = t.grid.cutoffSq;
  const std::size_t block = t.rows.densityBlock();
  constexpr int kStride = eamDensityRowStride(kOne);
  EamPairTile tile;
  for (std::int32_t slot = task.slotBegin; slot < task.slotEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    const double* rowsOfI = t.rows.density(kOne ? 0 : types[i], 0);
    const std::uint32_t begin = chunk.start[slot - chunk.ownerBegin];
    const std::uint32_t end = chunk.start[slot - chunk.ownerBegin + 1];
    // Pairs inside the cutoff move to the front, in their order (a partition that swaps each pair with the
    // first one outside; the order of those outside changes, which nothing reads). The force pass then
    // reads only [begin, inside), and the inside pairs, the ones that count, are summed in the same order
    // by every pass and every compute at the same positions.
    std::uint32_t inside = begin;
    double rhoI = 0.0;
    for (std::uint32_t e = begin; e < end;) {
      int n = 0;
      for (; e < end && n < kEamTile; ++e) {
        const std::uint32_t packed = entries[e];
        double d[3];
        decoder.offset(packed, x, xi, d);
        const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        const bool within = r2 < cutoffSq;
        // Unconditional, so no branch to mispredict: swapping two pairs outside keeps the partition.
        entries[e] = entries[inside];
        entries[inside] = packed;
        inside += within;
        tile.r2[n] = r2;
        tile.j[n] = decoder.neighbor(packed);
        n += within;
      }
      Radial::template run<false>(t.grid, tile, n);
      for (int k = 0; k < n; ++k) {
        const std::int32_t j = tile.j[k];
        const double* row = rowsOfI + (kOne ? 0 : types[j] * block) + tile.m[k] * kStride;
        const double onI = eamCubic(row, tile.p[k]);
        rhoI += onI;
        rho[j] += kOne ? onI : eamCubic(row + 4, tile.p[k]);
      }
    }
    task.insideEnd[slot] = inside;
    rho[i] += rhoI;
  }
}

template <class Radial, bool kForces, bool kVirial, bool kOne>
HOOKMD_ALWAYS_INLINE void forceLoopWith(const CpuEamForceKernel::Chunk& task, const Tables& t, const double* fp,
                                        double* f, SystemSums& sums) {
  const NeighborChunk& chunk = *task.chunk;
  const std::int32_t* owners = task.list->owners.data();
  const EntryDecoder decoder(*task.list);
  const std::uint32_t* entries = chunk.entries.data();
  const double* x = task.x;
  const std::uint8_t* types = task.types;
  const std::size_t block = t.rows.forceBlock();
  constexpr int kStride = eamForceRowStride(kOne);
  EamPairTile tile;
  OwnerSums<kForces, kVirial, false> owner;
  for (std::int32_t slot = task.slotBegin; slot < task.slotEnd; ++slot) {
    const std::int32_t i = owners[slot];
    const double xi[3] = {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    const double fpI = fp[i];
    const double* rowsOfI = t.rows.force(kOne ? 0 : types[i], 0);
    const std::uint32_t end = task.insideEnd[slot];
    for (std::uint32_t e = chunk.start[slot - chunk.ownerBegin]; e < end;) {
      const int n = static_cast<int>(std::min<std::uint32_t>(kEamTile, end - e));
      for (int k = 0; k < n; ++k, ++e) {
        const std::uint32_t packed = entries[e];
        double d[3];
        decoder.offset(packed, x, xi, d);
        tile.dx[k] = d[0];
        tile.dy[k] = d[1];
        tile.dz[k] = d[2];
        tile.r2[k] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        tile.j[k] = decoder.neighbor(packed);
      }
      Radial::template run<true>(t.grid, tile, n);
      for (int k = 0; k < n; ++k) {
        const std::int32_t j = tile.j[k];
        const double* row = rowsOfI + (kOne ? 0 : types[j] * block) + tile.m[k] * kStride;
        double fOverR;
        double pairEnergy;
        eamPairForce<kOne>(row, tile.p[k], tile.recip[k], fpI, fp[j], fOverR, pairEnergy);
        const double d[3] = {tile.dx[k], tile.dy[k], tile.dz[k]};
        owner.add(nullptr, 0, tile.r2[k], d, fOverR, pairEnergy, kForces ? f + 3 * j : nullptr);
      }
    }
    owner.finishOwner(kForces ? f + 3 * i : nullptr);
  }
  owner.addTo(sums);
}

using DensityLoop = void (*)(const CpuEamForceKernel::Chunk&, const Tables&, double*);
using ForceLoop = void (*)(const CpuEamForceKernel::Chunk&, const Tables&, const double*, double*, SystemSums&);

/** The loops of one radial body, compiled for its instruction set (the wrappers below add the target). */
template <class Radial>
struct EamLoops {
  template <bool kOne>
  static void density(const CpuEamForceKernel::Chunk& task, const Tables& t, double* rho) {
    densityLoopWith<Radial, kOne>(task, t, rho);
  }
  template <std::size_t kCode>
  static void force(const CpuEamForceKernel::Chunk& task, const Tables& t, const double* fp, double* f, SystemSums& sums) {
    forceLoopWith<Radial, (kCode & 4) != 0, (kCode & 2) != 0, (kCode & 1) != 0>(task, t, fp, f, sums);
  }
};

#if HOOKMD_X86_SIMD
template <class Radial>
struct Avx2Loops {
  template <bool kOne>
  HOOKMD_TARGET_AVX2 static void density(const CpuEamForceKernel::Chunk& task, const Tables& t, double* rho) {
    densityLoopWith<Radial, kOne>(task, t, rho);
  }
  template <std::size_t kCode>
  HOOKMD_TARGET_AVX2 static void force(const CpuEamForceKernel::Chunk& task, const Tables& t, const double* fp, double* f,
                                       SystemSums& sums) {
    forceLoopWith<Radial, (kCode & 4) != 0, (kCode & 2) != 0, (kCode & 1) != 0>(task, t, fp, f, sums);
  }
};

template <class Radial>
struct Avx512Loops {
  template <bool kOne>
  HOOKMD_TARGET_AVX512 static void density(const CpuEamForceKernel::Chunk& task, const Tables& t, double* rho) {
    densityLoopWith<Radial, kOne>(task, t, rho);
  }
  template <std::size_t kCode>
  HOOKMD_TARGET_AVX512 static void force(const CpuEamForceKernel::Chunk& task, const Tables& t, const double* fp,
                                         double* f, SystemSums& sums) {
    forceLoopWith<Radial, (kCode & 4) != 0, (kCode & 2) != 0, (kCode & 1) != 0>(task, t, fp, f, sums);
  }
};
#endif

/** One instruction set's loops: density by one element, force by forces·4 + virial·2 + one element. */
struct LoopSet {
  std::array<DensityLoop, 2> density;
  std::array<ForceLoop, 8> force;
};

template <class Loops, std::size_t... kCodes>
constexpr LoopSet loopSet(std::index_sequence<kCodes...>) {
  return LoopSet{{{&Loops::template density<false>, &Loops::template density<true>}}, {{&Loops::template force<kCodes>...}}};
}

/** The loops for the SIMD level this process runs at (the same bits at every level). */
const LoopSet& loopsForCpu() {
  static const LoopSet scalar = loopSet<EamLoops<ScalarRadial>>(std::make_index_sequence<8>());
#if HOOKMD_X86_SIMD
  static const LoopSet avx2 = loopSet<Avx2Loops<Avx2Radial>>(std::make_index_sequence<8>());
  static const LoopSet avx512 = loopSet<Avx512Loops<Avx512Radial>>(std::make_index_sequence<8>());
  switch (simdLevel()) {
    case SimdLevel::Avx512: return avx512;
    case SimdLevel::Avx2: return avx2;
    case SimdLevel::Baseline: break;
  }
#endif
  return scalar;
}

}  // namespace

CpuEamForceKernel::CpuEamForceKernel(const EamForceSpec& spec)
    : model_(spec.model), tables_(spec.tables), grid_(spec.tables->grid()), numTypes_(spec.tables->numElements()),
      rows_(*spec.tables) {
  const std::size_t rhoTable = static_cast<std::size_t>(grid_.nrho + 1) * kEamSplineStride;
  for (int a = 0; a < numTypes_; ++a) frhoOffset_.push_back(a * rhoTable);
}

void CpuEamForceKernel::density(const Chunk& task, double* rho) const {
  loopsForCpu().density[numTypes_ == 1 ? 1 : 0](task, Tables{grid_, rows_}, rho);
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
  loopsForCpu().force[(f != nullptr ? 4 : 0) | (virial ? 2 : 0) | (numTypes_ == 1 ? 1 : 0)](chunk, Tables{grid_, rows_}, fp, f, sums);
}

void CpuEamForceKernel::execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                                std::vector<double>& virial) {
  BatchStorage& storage = arraysFor(backend, Kernel::EamForces, request.reads(), request.writes());
  neighbors_.bind(storage, std::sqrt(grid_.cutoffSq), skin);
  if (request.stress) virial.assign(9 * static_cast<std::size_t>(storage.numSystems()), 0.0);
  insideEnd_.resize(static_cast<std::size_t>(storage.numSystems()));
  const ForcePass pass{storage, request, types.types->data(), virial};

  const int threads = ThreadPool::global().threads();
  if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
  scheduleSystems(
      storage, request.systems, [&](std::int64_t s, int thread) { computeSystem(s, pass, workspaces_[thread]); },
      [&](std::int64_t s) { computeLargeSystem(s, pass); });
  checkOverlaps(model_, backend, storage, request.systems, neighbors_);
}

CpuEamForceKernel::Chunk CpuEamForceKernel::systemChunk(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  const double* x = updateListPositions(neighbors_, s, pass.storage, workspace.scratch, workspace.wrapped);
  SystemNeighborList& list = neighbors_.list(s);
  std::vector<std::uint32_t>& insideEnd = insideEnd_[s];
  insideEnd.resize(static_cast<std::size_t>(list.atomCount));
  return Chunk{&list, nullptr, x, pass.types + list.atomBegin, insideEnd.data()};
}

void CpuEamForceKernel::computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  BatchStorage& storage = pass.storage;
  const Chunk base = systemChunk(s, pass, workspace);
  std::vector<NeighborChunk>& chunks = neighbors_.list(s).chunks;
  const std::int64_t begin = base.list->atomBegin;
  const std::int64_t count = base.list->atomCount;

  workspace.rho.assign(static_cast<std::size_t>(count), 0.0);
  workspace.fp.resize(static_cast<std::size_t>(count));
  for (NeighborChunk& chunk : chunks) {
    Chunk task = base;
    task.cover(chunk);
    density(task, workspace.rho.data());
  }
  SystemSums sums;
  sums.energy = embed(base.types, workspace.rho.data(), workspace.fp.data(), 0, count);

  double* f = pass.request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * count, 0.0);
  for (NeighborChunk& chunk : chunks) {
    Chunk task = base;
    task.cover(chunk);
    forces(task, workspace.fp.data(), f, pass.request.stress, sums);
  }
  finishSystem(storage, s, sums, pass.request.stress, pass.virial);
}

void CpuEamForceKernel::computeLargeSystem(std::int64_t s, const ForcePass& pass) {
  BatchStorage& storage = pass.storage;
  ThreadPool& pool = ThreadPool::global();
  Workspace& main = workspaces_[0];
  const Chunk base = systemChunk(s, pass, main);
  const SystemNeighborList& list = *base.list;
  std::vector<NeighborChunk>& chunks = neighbors_.list(s).chunks;
  const std::int64_t begin = list.atomBegin;
  const std::int64_t count = list.atomCount;

  // Group 0 writes the system's arrays directly; the others accumulate into buffers of their own.
  const ChunkGroups chunkGroups = groupChunks(list, pool.threads());
  const int groups = chunkGroups.count();
  for (int g = 1; g < groups; ++g) {
    Workspace& workspace = workspaces_[g];
    if (workspace.groupCapacity < static_cast<std::size_t>(count)) {
      workspace.groupRho.reset(new double[static_cast<std::size_t>(count)]);
      workspace.groupForces.reset(new double[3 * static_cast<std::size_t>(count)]);
      workspace.groupCapacity = static_cast<std::size_t>(count);
    }
  }
  // prepare(g) zeroes group g's part of its output, then body(g, task) runs over each of its chunks.
  auto runGroups = [&](auto&& prepare, auto&& body) {
    pool.parallelFor(0, groups, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t g = lo; g < hi; ++g) {
        prepare(static_cast<int>(g));
        Chunk task = base;
        forEachGroupPiece(list, chunkGroups, static_cast<int>(g), [&](std::size_t c, std::int32_t slotBegin, std::int32_t slotEnd) {
          task.cover(chunks[c], slotBegin, slotEnd);
          body(static_cast<int>(g), task);
        });
      }
    });
  };
  // Densities.
  main.rho.resize(static_cast<std::size_t>(count));
  main.fp.resize(static_cast<std::size_t>(count));
  auto groupRho = [&](int g) { return g == 0 ? main.rho.data() : workspaces_[g].groupRho.get(); };
  runGroups([&](int g) { zeroGroupRange(chunkGroups, g, groupRho(g), 1); },
            [&](int g, const Chunk& task) { density(task, groupRho(g)); });
  addGroupBuffers(chunkGroups, count, main.rho.data(), 1, [&](int g) { return workspaces_[g].groupRho.get(); });

  // Embedding, in fixed atom blocks so the energy sums in the same order for any thread count.
  const std::int64_t blocks = (count + kAtomsPerTask - 1) / kAtomsPerTask;
  std::vector<double> blockEnergy(static_cast<std::size_t>(blocks), 0.0);
  pool.parallelFor(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t b = lo; b < hi; ++b) {
      blockEnergy[b] = embed(base.types, main.rho.data(), main.fp.data(), b * kAtomsPerTask, std::min(count, (b + 1) * kAtomsPerTask));
    }
  });
  SystemSums total;
  for (double e : blockEnergy) total.energy += e;

  // Forces.
  double* out = pass.request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  auto groupForces = [&](int g) { return out == nullptr ? nullptr : g == 0 ? out : workspaces_[g].groupForces.get(); };
  std::vector<SystemSums> sums(static_cast<std::size_t>(groups));
  runGroups(
      [&](int g) {
        if (out != nullptr) zeroGroupRange(chunkGroups, g, groupForces(g), 3);
      },
      [&](int g, const Chunk& task) { forces(task, main.fp.data(), groupForces(g), pass.request.stress, sums[g]); });
  if (out != nullptr) addGroupBuffers(chunkGroups, count, out, 3, [&](int g) { return workspaces_[g].groupForces.get(); });
  for (const SystemSums& part : sums) total.add(part);
  finishSystem(storage, s, total, pass.request.stress, pass.virial);
}

}  // namespace hookmd
