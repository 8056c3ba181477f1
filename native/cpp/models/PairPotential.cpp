#include "models/PairPotential.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "math/PairGeometry.h"
#include "models/Messages.h"
#include "models/OverlapCheck.h"

namespace hookmd {

namespace {
constexpr int kMaxAtomicNumber = 118;
constexpr std::int64_t kAtomsPerTask = 4096;
}  // namespace

std::string PairPotential::label(const PairKey& key) {
  if (key.z1 == 0 && key.z2 == 0) return "default";
  return elementSymbol(key.z1) + "-" + elementSymbol(key.z2);
}

PairPotential::PairPotential(const char* name, const std::vector<PairKey>& keys, double switchOn,
                             std::optional<double> skin)
    : name_(name) {
  const std::string model(name);
  if (keys.empty()) fail("INVALID_PAIR", model + ": no pair parameters were given");
  std::vector<int> species;
  for (const PairKey& key : keys) {
    const std::string where = model + ": pairs['" + label(key) + "']";
    if (key.z1 == 0 || key.z2 == 0) {
      if (key.z1 != key.z2 || keys.size() != 1) {
        fail("INVALID_PAIR", model + ": the default parameters (species 0) apply to every pair and cannot be mixed with a pair table");
      }
      wildcard_ = true;
    } else if (key.z1 < 1 || key.z1 > kMaxAtomicNumber || key.z2 < 1 || key.z2 > kMaxAtomicNumber) {
      fail("INVALID_PAIR", where + ": species must be atomic numbers 1..118");
    }
    if (!std::isfinite(key.cutoff)) fail("INVALID_PARAMETER", where + ".cutoff must be finite, got " + formatNumber(key.cutoff));
    if (!(key.cutoff > 0.0)) fail("INVALID_CUTOFF", where + ".cutoff must be > 0, got " + formatNumber(key.cutoff));
    maxCutoff_ = std::max(maxCutoff_, key.cutoff);
    species.push_back(key.z1);
    species.push_back(key.z2);
  }
  std::sort(species.begin(), species.end());
  species.erase(std::unique(species.begin(), species.end()), species.end());
  zOfType_ = species;
  numTypes_ = static_cast<int>(species.size());
  typeOfZ_.assign(kMaxAtomicNumber + 1, -1);
  for (int t = 0; t < numTypes_; ++t) typeOfZ_[species[t]] = t;
  defined_.assign(tableSize(), 0);
  for (const PairKey& key : keys) {
    if (defined_[slot(key, false)]) {
      fail("DUPLICATE_PAIR", model + ": pairs['" + label(key) + "'] is given twice (pairs are unordered)");
    }
    defined_[slot(key, false)] = defined_[slot(key, true)] = 1;
  }

  if (switchOn != 0.0) {
    if (!std::isfinite(switchOn)) fail("INVALID_PARAMETER", model + ": switchOn must be finite, got " + formatNumber(switchOn));
    switches_.resize(tableSize());
    for (const PairKey& key : keys) {
      if (!(switchOn > 0.0 && switchOn < key.cutoff)) {
        fail("INVALID_SWITCH", model + ": switchOn must lie in (0, cutoff) for every pair, got " + formatNumber(switchOn) +
                                   " with pairs['" + label(key) + "'].cutoff = " + formatNumber(key.cutoff));
      }
      switches_[slot(key, false)] = switches_[slot(key, true)] = makeSwitchParams(switchOn, key.cutoff);
    }
  }
  if (skin) setSkin(*skin);
}

std::size_t PairPotential::slot(const PairKey& key, bool swapped) const {
  if (wildcard_) return 0;
  const int a = typeOfZ_[key.z1];
  const int b = typeOfZ_[key.z2];
  return swapped ? static_cast<std::size_t>(b) * numTypes_ + a : static_cast<std::size_t>(a) * numTypes_ + b;
}

void PairPotential::setSkin(double skin) {
  if (!std::isfinite(skin)) fail("INVALID_PARAMETER", std::string(name_) + ": skin must be finite, got " + formatNumber(skin));
  if (skin < 0.0) fail("INVALID_SKIN", std::string(name_) + ": skin must be >= 0, got " + formatNumber(skin));
  skin_ = skin;
}

void PairPotential::checkLayout(const BatchStorage& storage) const {
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int64_t systems = storage.numSystems();
  bool ok = ptr[0] == 0 && ptr[systems] == storage.numAtoms();
  for (std::int64_t s = 0; ok && s < systems; ++s) ok = ptr[s + 1] >= ptr[s];
  if (!ok) fail("INVALID_BATCH", std::string(name_) + ": the batch's ptr offsets do not partition its atoms");
}

void PairPotential::assignTypes(const BatchStorage& storage) {
  if (wildcard_) return;
  const std::int64_t systems = storage.numSystems();
  const std::int32_t* z = storage.i32(Field::AtomicNumbers);
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  types_.resize(static_cast<std::size_t>(storage.numAtoms()));
  // First missing pair of each system (z1 * 1000 + z2, 0 if none), so the reported one never depends on
  // which thread found it.
  std::vector<std::int32_t> missing(static_cast<std::size_t>(systems), 0);
  ThreadPool::global().parallelFor(0, systems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t s = lo; s < hi; ++s) {
      bool present[kMaxAtomicNumber + 1] = {};
      for (std::int32_t i = ptr[s]; i < ptr[s + 1]; ++i) {
        const int type = z[i] >= 0 && z[i] <= kMaxAtomicNumber ? typeOfZ_[z[i]] : -1;
        if (type < 0) {
          missing[s] = z[i] * 1000 + z[i];
          break;
        }
        types_[i] = static_cast<std::uint8_t>(type);
        present[type] = true;
      }
      for (int a = 0; a < numTypes_ && missing[s] == 0; ++a) {
        for (int b = a; b < numTypes_ && missing[s] == 0; ++b) {
          if (present[a] && present[b] && !defined_[static_cast<std::size_t>(a) * numTypes_ + b]) {
            missing[s] = zOfType_[a] * 1000 + zOfType_[b];
          }
        }
      }
    }
  });
  for (std::int64_t s = 0; s < systems; ++s) {
    if (missing[s] == 0) continue;
    const PairKey key{missing[s] / 1000, missing[s] % 1000, 0.0};
    fail("MISSING_PAIR", std::string(name_) + ": no parameters for the species pair " + label(key) + " (Z " +
                             std::to_string(key.z1) + "-" + std::to_string(key.z2) + ") in system " + std::to_string(s) +
                             "; add pairs['" + label(key) + "'] (no mixing rule is applied)");
  }
}

const double* PairPotential::localPositions(std::int64_t s, const BatchStorage& storage, Workspace& workspace) const {
  const SystemNeighborList& list = neighbors_.list(s);
  const double* x = storage.f64(Field::Positions) + 3 * static_cast<std::int64_t>(list.atomBegin);
  if (list.wrap.empty()) return x;
  workspace.wrapped.resize(3 * static_cast<std::size_t>(list.atomCount));
  wrappedPositions(list, x, workspace.wrapped.data());
  return workspace.wrapped.data();
}

void PairPotential::compute(Backend& backend, const ComputeRequest& request) {
  if (!(skin_ >= 0.0)) {
    fail("SKIN_UNSET", std::string(name_) + ": the Verlet skin is not set; pass skin, or compute through the " +
                           "TypeScript model once so it takes the batch units' default");
  }
  const bool mirrored = std::strcmp(backend.name(), "cpu") != 0;
  if (mirrored) {
    for (Field field : {Field::Positions, Field::Cell, Field::Pbc, Field::AtomicNumbers, Field::Ptr}) backend.syncToHost(field);
  }
  BatchStorage& storage = backend.host();
  checkLayout(storage);
  assignTypes(storage);
  neighbors_.bind(storage, maxCutoff_, skin_);
  const std::int64_t systems = storage.numSystems();
  if (request.stress) virial_.assign(9 * static_cast<std::size_t>(systems), 0.0);

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
      if (wanted(s) && !large(s)) computeSystem(s, storage, request, workspaces_[thread]);
    }
  });
  for (std::int64_t s = 0; s < systems; ++s) {
    if (wanted(s) && large(s)) computeLargeSystem(s, storage, request);
  }

  if (mirrored) {
    backend.syncToDevice(Field::Energy);
    if (request.forces) backend.syncToDevice(Field::Forces);
    if (request.stress) backend.syncToDevice(Field::Stress);
  }

  // Overlapping atoms: only a non-finite energy pays for the search (issue 19 item 8).
  for (std::int64_t s = 0; s < systems; ++s) {
    if (wanted(s) && !std::isfinite(storage.f64(Field::Energy)[s])) checkOverlap(name_, s, backend, neighbors_.list(s));
  }
}

void PairPotential::computeSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request,
                                  Workspace& workspace) {
  if (neighbors_.stale(s, storage)) neighbors_.build(s, storage, workspace.scratch);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t begin = list.atomBegin;
  double* f = request.forces ? storage.f64(Field::Forces) + 3 * begin : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * static_cast<std::int64_t>(list.atomCount), 0.0);
  const ChunkTask base{&list, nullptr, localPositions(s, storage, workspace), f,
                       wildcard_ ? nullptr : types_.data() + begin, request.stress};
  PairSums sums;
  for (const NeighborChunk& chunk : list.chunks) {
    ChunkTask task = base;
    task.chunk = &chunk;
    evaluateChunk(task, sums);
  }
  finishSystem(s, storage, request, sums);
}

void PairPotential::computeLargeSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request) {
  ThreadPool& pool = ThreadPool::global();
  if (neighbors_.stale(s, storage)) neighbors_.build(s, storage, workspaces_[0].scratch);
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
      ChunkTask task{&list, nullptr, x, f, wildcard_ ? nullptr : types_.data() + begin, request.stress};
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
  finishSystem(s, storage, request, total);
}

void PairPotential::finishSystem(std::int64_t s, BatchStorage& storage, const ComputeRequest& request,
                                 const PairSums& sums) {
  storage.f64(Field::Energy)[s] = sums.energy;
  if (!request.stress) return;
  const double* v = sums.virial;
  const double w[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
  std::copy(w, w + 9, virial_.begin() + 9 * s);
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

}  // namespace hookmd
