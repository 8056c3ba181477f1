#include "cpu/CpuManyBodyForceKernel.h"

#include <algorithm>
#include <cmath>

#include "core/ThreadPool.h"
#include "math/StillingerWeberEval.h"
#include "math/TersoffEval.h"
#include "neighbor/OverlapCheck.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {

/** Per-neighbour scratch of a row style's centre routine (math/TersoffEval.h, math/StillingerWeberEval.h). */
struct RowScratch final : ManyBodyCentre::Work {
  std::vector<double> values;
  std::vector<unsigned char> flags;
  std::size_t capacity = 0;
  static constexpr int kArrays = 7;
  double* array(int a) { return values.data() + static_cast<std::size_t>(a) * capacity; }
  void reserve(std::size_t count) override {
    if (count <= capacity) return;
    capacity = std::max(count, 2 * capacity);
    values.assign(static_cast<std::size_t>(kArrays) * capacity, 0.0);
    flags.assign(capacity, 0);
  }
};

using RowCentreFn = void (*)(const unsigned char* rows, int numTypes, int ti, const ManyBodyNeighbors& nb, RowScratch& scratch,
                             double& energy, double* fx, double* fy, double* fz);

template <TersoffStyle S, bool kOne>
void tersoffStyleCentre(const unsigned char* rows, int nt, int ti, const ManyBodyNeighbors& nb, RowScratch& c, double& energy,
                        double* fx, double* fy, double* fz) {
  TersoffScratch s{c.array(0), c.array(1), c.array(2), c.array(3), c.array(4), c.array(5), c.array(6)};
  tersoffCentre<S, kOne>(reinterpret_cast<const TersoffParams*>(rows), nt, ti, nb, s, energy, fx, fy, fz);
}

template <bool kOne>
void stillingerWeberStyleCentre(const unsigned char* rows, int nt, int ti, const ManyBodyNeighbors& nb, RowScratch& c, double& energy,
                                double* fx, double* fy, double* fz) {
  const StillingerWeberScratch s{c.array(0), c.array(1), c.flags.data()};
  stillingerWeberCentre<kOne>(reinterpret_cast<const StillingerWeberParams*>(rows), nt, ti, nb, s, energy, fx, fy, fz);
}

/** Each style's centre routine, for one species and for several. */
template <ManyBodyStyle S, bool kOne>
constexpr RowCentreFn centreOf() {
  if constexpr (S == ManyBodyStyle::Tersoff) return &tersoffStyleCentre<TersoffStyle::Tersoff, kOne>;
  if constexpr (S == ManyBodyStyle::TersoffMod) return &tersoffStyleCentre<TersoffStyle::Mod, kOne>;
  if constexpr (S == ManyBodyStyle::TersoffZbl) return &tersoffStyleCentre<TersoffStyle::Zbl, kOne>;
  if constexpr (S == ManyBodyStyle::StillingerWeber) return &stillingerWeberStyleCentre<kOne>;
}

RowCentreFn centreFor(ManyBodyStyle style, bool one) {
  switch (style) {
#define HOOKMD_STYLE_CENTRE(name, lammps, length) \
  case ManyBodyStyle::name:                     \
    return one ? centreOf<ManyBodyStyle::name, true>() : centreOf<ManyBodyStyle::name, false>();
    HOOKMD_MANY_BODY_STYLES(HOOKMD_STYLE_CENTRE)
#undef HOOKMD_STYLE_CENTRE
  }
  return nullptr;
}

/** A row style's centre routine over its parameter rows. */
class RowStyleCentre final : public ManyBodyCentre {
 public:
  explicit RowStyleCentre(const ManyBodyForceSpec& spec)
      : rows_(spec.rows), numTypes_(spec.numTypes), centre_(centreFor(spec.style, spec.numTypes == 1)) {}
  std::unique_ptr<Work> makeWork() const override { return std::make_unique<RowScratch>(); }
  void centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const override {
    centre_(rows_.data(), numTypes_, ti, nb, static_cast<RowScratch&>(work), energy, fx, fy, fz);
  }

 private:
  std::vector<unsigned char> rows_;
  int numTypes_;
  RowCentreFn centre_;
};

}  // namespace

void CpuManyBodyForceKernel::CentreScratch::reserve(std::size_t count) {
  work->reserve(count);
  for (Slot& slot : slots) {
    slot.neighbors.reserve(count);
    if (slot.fx.size() >= count) continue;
    slot.fx.resize(count);
    slot.fy.resize(count);
    slot.fz.resize(count);
  }
}

CpuManyBodyForceKernel::CpuManyBodyForceKernel(const ManyBodyForceSpec& spec)
    : CpuManyBodyForceKernel(spec.model, spec.cutoff, std::make_shared<RowStyleCentre>(spec), Kernel::ManyBodyForces) {}

CpuManyBodyForceKernel::CpuManyBodyForceKernel(const char* model, double cutoff, std::shared_ptr<const ManyBodyCentre> centre,
                                               Kernel kernel)
    : model_(model), kernel_(kernel), cutoffSq_(cutoff * cutoff), centre_(std::move(centre)) {}

CpuManyBodyForceKernel::CentreCounts CpuManyBodyForceKernel::centreCounts() const {
  CentreCounts total;
  for (const Workspace& workspace : workspaces_) {
    total.longest = std::max(total.longest, workspace.centre.counts.longest);
    total.entries += workspace.centre.counts.entries;
  }
  return total;
}

void CpuManyBodyForceKernel::execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
                                     std::vector<double>& virial) {
  BatchStorage& storage = arraysFor(backend, kernel_, request.reads(), request.writes());
  neighbors_.bind(storage, std::sqrt(cutoffSq_), skin);
  if (request.stress) virial.assign(9 * static_cast<std::size_t>(storage.numSystems()), 0.0);
  const ForcePass pass{storage, request, types.types->data(), virial};
  const int threads = ThreadPool::global().threads();
  if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
  for (Workspace& workspace : workspaces_) {
    workspace.centre.counts = CentreCounts();
    if (workspace.centre.work) continue;
    workspace.centre.work = centre_->makeWork();
    workspace.centre.slots.resize(static_cast<std::size_t>(centre_->lanes()));
  }
  full_.resize(static_cast<std::size_t>(storage.numSystems()));
  scheduleSystems(
      storage, request.systems, [&](std::int64_t s, int thread) { computeSystem(s, pass, workspaces_[thread]); },
      [&](std::int64_t s) { computeLargeSystem(s, pass); });
  checkOverlaps(model_, backend, storage, request.systems, neighbors_);
}

CpuManyBodyForceKernel::SystemView CpuManyBodyForceKernel::prepareSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  const double* x = updateListPositions(neighbors_, s, pass.storage, workspace.scratch, workspace.wrapped);
  const SystemNeighborList& list = neighbors_.list(s);
  FullNeighbors& full = full_[s];
  full.update(list);
  return SystemView{&full, x, pass.types + list.atomBegin};
}

void CpuManyBodyForceKernel::centres(const SystemView& system, std::int32_t begin, std::int32_t end, CentreScratch& scratch,
                                     double* f, bool virial, SystemSums& sums) const {
  scratch.reserve(static_cast<std::size_t>(std::max(system.full->maxCount(), 1)));
  const int lanes = static_cast<int>(scratch.slots.size());
  int types[kMaxCentreLanes];
  ManyBodyNeighbors views[kMaxCentreLanes];
  double *fx[kMaxCentreLanes], *fy[kMaxCentreLanes], *fz[kMaxCentreLanes];
  for (std::int32_t first = begin; first < end; first += lanes) {
    const int count = static_cast<int>(std::min<std::int32_t>(lanes, end - first));
    for (int c = 0; c < count; ++c) {
      CentreScratch::Slot& slot = scratch.slots[c];
      const std::int32_t i = first + c;
      const int n = system.full->gather(i, system.x, system.types, cutoffSq_, slot.neighbors);
      scratch.counts.longest = std::max<std::int64_t>(scratch.counts.longest, n);
      scratch.counts.entries += n;
      views[c] = slot.neighbors.view(n);
      types[c] = system.types[i];
      fx[c] = slot.fx.data();
      fy[c] = slot.fy.data();
      fz[c] = slot.fz.data();
      std::fill(fx[c], fx[c] + n, 0.0);
      std::fill(fy[c], fy[c] + n, 0.0);
      std::fill(fz[c], fz[c] + n, 0.0);
    }
    centre_->centres(count, types, views, *scratch.work, sums.energy, fx, fy, fz);
    for (int c = 0; c < count; ++c) {
      const ManyBodyNeighbors& nb = views[c];
      const CentreNeighbors& gathered = scratch.slots[c].neighbors;
      const std::int32_t i = first + c;
      double fix = 0.0, fiy = 0.0, fiz = 0.0;
      for (int m = 0; m < nb.count; ++m) {
        fix -= fx[c][m];
        fiy -= fy[c][m];
        fiz -= fz[c][m];
        if (f != nullptr) {
          double* fj = f + 3 * static_cast<std::int64_t>(gathered.atom[m]);
          fj[0] += fx[c][m];
          fj[1] += fy[c][m];
          fj[2] += fz[c][m];
        }
        if (virial) {
          sums.virial[0] += nb.dx[m] * fx[c][m];
          sums.virial[1] += nb.dy[m] * fy[c][m];
          sums.virial[2] += nb.dz[m] * fz[c][m];
          sums.virial[3] += nb.dx[m] * fy[c][m];
          sums.virial[4] += nb.dx[m] * fz[c][m];
          sums.virial[5] += nb.dy[m] * fz[c][m];
        }
      }
      if (f != nullptr) {
        f[3 * static_cast<std::int64_t>(i)] += fix;
        f[3 * static_cast<std::int64_t>(i) + 1] += fiy;
        f[3 * static_cast<std::int64_t>(i) + 2] += fiz;
      }
    }
  }
}

void CpuManyBodyForceKernel::computeSystem(std::int64_t s, const ForcePass& pass, Workspace& workspace) {
  BatchStorage& storage = pass.storage;
  const SystemView system = prepareSystem(s, pass, workspace);
  const SystemNeighborList& list = neighbors_.list(s);
  double* f = pass.request.forces ? storage.f64(Field::Forces) + 3 * static_cast<std::int64_t>(list.atomBegin) : nullptr;
  if (f != nullptr) std::fill(f, f + 3 * static_cast<std::int64_t>(list.atomCount), 0.0);
  SystemSums sums;
  centres(system, 0, list.atomCount, workspace.centre, f, pass.request.stress, sums);
  finishSystem(storage, s, sums, pass.request.stress, pass.virial);
}

void CpuManyBodyForceKernel::computeLargeSystem(std::int64_t s, const ForcePass& pass) {
  BatchStorage& storage = pass.storage;
  ThreadPool& pool = ThreadPool::global();
  Workspace& main = workspaces_[0];
  const SystemView system = prepareSystem(s, pass, main);
  const SystemNeighborList& list = neighbors_.list(s);
  const std::int64_t count = list.atomCount;
  const int groups = pool.threads();
  const bool forces = pass.request.forces;
  std::vector<SystemSums> sums(static_cast<std::size_t>(groups));
  pool.parallelFor(0, groups, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t g = lo; g < hi; ++g) {
      Workspace& workspace = workspaces_[g];
      if (forces) workspace.forces.assign(3 * static_cast<std::size_t>(count), 0.0);
      const auto begin = static_cast<std::int32_t>(count * g / groups);
      const auto end = static_cast<std::int32_t>(count * (g + 1) / groups);
      centres(system, begin, end, workspace.centre, forces ? workspace.forces.data() : nullptr, pass.request.stress, sums[g]);
    }
  });
  if (forces) {
    double* out = storage.f64(Field::Forces) + 3 * static_cast<std::int64_t>(list.atomBegin);
    const std::int64_t blocks = (count + kAtomsPerTask - 1) / kAtomsPerTask;
    pool.parallelFor(0, blocks, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t b = lo; b < hi; ++b) {
        const std::int64_t from = 3 * b * kAtomsPerTask;
        const std::int64_t to = 3 * std::min(count, (b + 1) * kAtomsPerTask);
        for (std::int64_t k = from; k < to; ++k) {
          double total = 0.0;
          for (int g = 0; g < groups; ++g) total += workspaces_[g].forces[k];
          out[k] = total;
        }
      }
    });
  }
  SystemSums total;
  for (const SystemSums& part : sums) total.add(part);
  finishSystem(storage, s, total, pass.request.stress, pass.virial);
}

}  // namespace hookmd
