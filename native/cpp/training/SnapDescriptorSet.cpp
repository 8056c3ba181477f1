#include "training/SnapDescriptorSet.h"

#include <algorithm>

#include "core/ThreadPool.h"
#include "cpu/FullNeighbors.h"

namespace hookmd {

namespace {

/** One system's descriptors, in its local numbering, before they are joined. */
struct SystemDescriptors {
  std::vector<double> b, d, v;
  std::vector<std::int64_t> entryBegin;
  std::vector<std::int32_t> entryAtom;
};

/** One thread's scratch: the gathered neighbours, per inside neighbour its u, the totals, Z, Y, and each atom's entry slot. */
struct DescriptorWork {
  explicit DescriptorWork(const SnapLayout& L) {
    const std::size_t ne = static_cast<std::size_t>(L.numElements);
    totr.resize(ne * L.uSize);
    toti.resize(totr.size());
    yr.resize(totr.size());
    yi.resize(totr.size());
    zr.resize(ne * ne * L.zSize);
    zi.resize(zr.size());
    barr.resize(static_cast<std::size_t>(L.uSize));
    bari.resize(barr.size());
  }
  CentreNeighbors neighbors;
  std::vector<int> inside;
  std::vector<double> ur, ui, totr, toti, zr, zi, yr, yi, barr, bari;
  std::vector<std::int32_t> slotOf;
};

void describeSystem(const TrainingData& data, std::int64_t s, const std::uint8_t* types, const SnapDescriptorSpec& spec,
                    const std::vector<double>& cut, DescriptorWork& w, SystemDescriptors& out) {
  const SnapLayout& L = spec.tables->layout();
  const int nt = static_cast<int>(spec.radius.size());
  const bool chem = L.numElements > 1;
  const int uSize = L.uSize;
  const int n = L.numB * L.numElements * L.numElements * L.numElements;
  const TrainingSystem& system = data.system(s);
  const std::int32_t atoms = system.atomCount;
  FullNeighbors full;
  full.update(system.list);
  w.neighbors.reserve(static_cast<std::size_t>(std::max(full.maxCount(), 1)));
  const std::size_t most = static_cast<std::size_t>(std::max(full.maxCount(), 1));
  if (w.inside.size() < most) {
    w.inside.resize(most);
    w.ur.resize(most * uSize);
    w.ui.resize(most * uSize);
  }
  w.slotOf.assign(static_cast<std::size_t>(atoms), -1);
  const double* x = data.positions(s);
  const double maxCut = *std::max_element(cut.begin(), cut.end());
  out.b.assign(static_cast<std::size_t>(atoms) * n, 0.0);
  out.v.assign(static_cast<std::size_t>(atoms) * 6 * n, 0.0);
  out.entryBegin.assign(1, 0);
  for (std::int32_t j = 0; j < atoms; ++j) {
    const int count = full.gather(j, x, types, maxCut * maxCut, w.neighbors);
    const ManyBodyNeighbors nb = w.neighbors.view(count);
    const int tj = types[j];
    const int centreElement = chem ? tj : 0;
    snapClearTotals<1>(L, &centreElement, w.totr.data(), w.toti.data());
    int inside = 0;
    for (int m = 0; m < count; ++m) {
      const double rcut = cut[tj * nt + nb.type[m]];
      const double r = nb.r[m];
      if (!(r * r < rcut * rcut) || !(r * r > 1e-20)) continue;
      w.inside[inside] = m;
      double* ur = w.ur.data() + static_cast<std::size_t>(inside) * uSize;
      double* ui = w.ui.data() + static_cast<std::size_t>(inside) * uSize;
      double ar, ai, br, bi, z0, r0inv;
      snapCayleyKlein(L, nb.dx[m], nb.dy[m], nb.dz[m], r, rcut, ar, ai, br, bi, z0, r0inv);
      snapNeighbourU(L, ar, ai, br, bi, ur, ui);
      double fc, dfc;
      snapSwitch(L, r, rcut, fc, dfc);
      const int element = chem ? nb.type[m] : 0;
      snapAddU<1>(L, 0, spec.weight[nb.type[m]] * fc, ur, ui, w.totr.data() + element * uSize, w.toti.data() + element * uSize);
      ++inside;
    }
    snapZ<1>(L, w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data());
    snapB<1>(L, 0, centreElement, w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data(), out.b.data() + static_cast<std::size_t>(j) * n);
    // Entry slots: j first, then each atom that a neighbour inside its cutoff is an image of.
    const std::size_t first = out.entryAtom.size();
    out.entryAtom.push_back(j);
    w.slotOf[j] = 0;
    for (int k = 0; k < inside; ++k) {
      const std::int32_t atom = w.neighbors.atom[w.inside[k]];
      if (w.slotOf[atom] >= 0) continue;
      w.slotOf[atom] = static_cast<std::int32_t>(out.entryAtom.size() - first);
      out.entryAtom.push_back(atom);
    }
    const std::size_t entries = out.entryAtom.size() - first;
    out.d.resize(out.entryAtom.size() * 3 * n, 0.0);
    double* d = out.d.data() + first * 3 * n;
    double* v = out.v.data() + static_cast<std::size_t>(j) * 6 * n;
    for (int c = 0; c < n; ++c) {
      snapYOfComponent(L, w.zr.data(), w.zi.data(), c, w.yr.data(), w.yi.data());
      for (int k = 0; k < inside; ++k) {
        const int m = w.inside[k];
        const int element = chem ? nb.type[m] : 0;
        double dbdr[3];
        snapNeighbourGradient(L, nb.dx[m], nb.dy[m], nb.dz[m], nb.r[m], cut[tj * nt + nb.type[m]], spec.weight[nb.type[m]],
                              w.ur.data() + static_cast<std::size_t>(k) * uSize, w.ui.data() + static_cast<std::size_t>(k) * uSize,
                              w.yr.data() + element * uSize, w.yi.data() + element * uSize, w.barr.data(), w.bari.data(), dbdr);
        double* own = d + 3 * c;
        double* other = d + (static_cast<std::size_t>(w.slotOf[w.neighbors.atom[m]]) * n + c) * 3;
        for (int a = 0; a < 3; ++a) {
          other[a] += dbdr[a];
          own[a] -= dbdr[a];
        }
        double* vc = v + 6 * c;
        vc[0] += nb.dx[m] * dbdr[0];
        vc[1] += nb.dy[m] * dbdr[1];
        vc[2] += nb.dz[m] * dbdr[2];
        vc[3] += nb.dx[m] * dbdr[1];
        vc[4] += nb.dx[m] * dbdr[2];
        vc[5] += nb.dy[m] * dbdr[2];
      }
    }
    for (std::size_t e = first; e < first + entries; ++e) w.slotOf[out.entryAtom[e]] = -1;
    out.entryBegin.push_back(static_cast<std::int64_t>(out.entryAtom.size()));
  }
}

}  // namespace

SnapDescriptorSet::SnapDescriptorSet(const TrainingData& data, const std::vector<std::uint8_t>& types, const SnapDescriptorSpec& spec) {
  const SnapLayout& L = spec.tables->layout();
  n_ = L.numB * L.numElements * L.numElements * L.numElements;
  const int nt = static_cast<int>(spec.radius.size());
  std::vector<double> cut;
  for (int a = 0; a < nt; ++a) {
    for (int c = 0; c < nt; ++c) cut.push_back(spec.rcutfac * (spec.radius[a] + spec.radius[c]));
  }
  const std::int64_t count = data.numSystems();
  std::vector<SystemDescriptors> parts(static_cast<std::size_t>(count));
  ThreadPool& pool = ThreadPool::global();
  std::vector<std::unique_ptr<DescriptorWork>> work(static_cast<std::size_t>(pool.threads()));
  pool.parallelFor(0, count, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    if (!work[thread]) work[thread] = std::make_unique<DescriptorWork>(L);
    for (std::int64_t s = lo; s < hi; ++s) {
      describeSystem(data, s, types.data() + data.system(s).atomBegin, spec, cut, *work[thread], parts[s]);
    }
  });
  // Joined in system order, atoms renumbered into the whole set.
  std::size_t entries = 0;
  for (const SystemDescriptors& part : parts) entries += part.entryAtom.size();
  b_.reserve(static_cast<std::size_t>(data.numAtoms()) * n_);
  v_.reserve(static_cast<std::size_t>(data.numAtoms()) * 6 * n_);
  d_.reserve(entries * 3 * n_);
  entryAtom_.reserve(entries);
  entryBegin_.reserve(static_cast<std::size_t>(data.numAtoms()) + 1);
  for (std::int64_t s = 0; s < count; ++s) {
    SystemDescriptors& part = parts[s];
    const std::int32_t begin = data.system(s).atomBegin;
    const std::int64_t base = static_cast<std::int64_t>(entryAtom_.size());
    b_.insert(b_.end(), part.b.begin(), part.b.end());
    v_.insert(v_.end(), part.v.begin(), part.v.end());
    d_.insert(d_.end(), part.d.begin(), part.d.end());
    for (std::int32_t atom : part.entryAtom) entryAtom_.push_back(begin + atom);
    for (std::size_t a = 0; a + 1 < part.entryBegin.size(); ++a) entryBegin_.push_back(base + part.entryBegin[a]);
    std::vector<double>().swap(part.b);
    std::vector<double>().swap(part.d);
    std::vector<double>().swap(part.v);
  }
  entryBegin_.push_back(static_cast<std::int64_t>(entryAtom_.size()));
}

}  // namespace hookmd
