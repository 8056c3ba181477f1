#include "cpu/SnapCentre.h"

#include <algorithm>

namespace hookmd {

namespace {

/** One thread's arrays: the neighbours inside their cutoffs, each one's u, and the centre's U, Z, B, β, Y. */
struct SnapWork final : ManyBodyCentre::Work {
  explicit SnapWork(const SnapLayout& layout) : L(layout) {
    const std::size_t ne = static_cast<std::size_t>(L.numElements);
    totr.resize(ne * L.uSize);
    toti.resize(ne * L.uSize);
    yr.resize(ne * L.uSize);
    yi.resize(ne * L.uSize);
    zr.resize(ne * ne * L.zSize);
    zi.resize(ne * ne * L.zSize);
    b.resize(ne * ne * ne * L.numB);
    beta.resize(b.size());
    barr.resize(static_cast<std::size_t>(L.uSize));
    bari.resize(barr.size());
  }
  void reserve(std::size_t count) override {
    if (count <= inside.size()) return;
    inside.resize(count);
    ur.resize(count * L.uSize);
    ui.resize(count * L.uSize);
  }
  const SnapLayout& L;
  /** Indices into the centre's neighbours of those inside their pair cutoff. */
  std::vector<int> inside;
  std::vector<double> ur, ui, totr, toti, zr, zi, b, beta, yr, yi, barr, bari;
};

}  // namespace

SnapCentre::SnapCentre(SnapCentreSpec spec) : spec_(std::move(spec)), numTypes_(static_cast<int>(spec_.radius.size())) {
  for (int a = 0; a < numTypes_; ++a) {
    for (int c = 0; c < numTypes_; ++c) {
      const double cut = spec_.rcutfac * (spec_.radius[a] + spec_.radius[c]);
      cut_.push_back(cut);
      cutSq_.push_back(cut * cut);
    }
  }
}

std::unique_ptr<ManyBodyCentre::Work> SnapCentre::makeWork() const { return std::make_unique<SnapWork>(spec_.tables->layout()); }

void SnapCentre::centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const {
  auto& w = static_cast<SnapWork&>(work);
  const SnapLayout& L = w.L;
  const bool chem = L.numElements > 1;
  const int n = L.uSize;
  snapClearTotals(L, chem ? ti : 0, w.totr.data(), w.toti.data());
  int count = 0;
  for (int m = 0; m < nb.count; ++m) {
    const int pair = ti * numTypes_ + nb.type[m];
    const double r = nb.r[m];
    if (!(r * r < cutSq_[pair]) || !(r * r > 1e-20)) continue;
    w.inside[count] = m;
    double* ur = w.ur.data() + static_cast<std::size_t>(count) * n;
    double* ui = w.ui.data() + static_cast<std::size_t>(count) * n;
    double ar, ai, br, bi, z0, r0inv;
    snapCayleyKlein(L, nb.dx[m], nb.dy[m], nb.dz[m], r, cut_[pair], ar, ai, br, bi, z0, r0inv);
    snapNeighbourU(L, ar, ai, br, bi, ur, ui);
    double fc, dfc;
    snapSwitch(L, r, cut_[pair], fc, dfc);
    const int element = chem ? nb.type[m] : 0;
    snapAddU(L, spec_.weight[nb.type[m]] * fc, ur, ui, w.totr.data() + element * n, w.toti.data() + element * n);
    ++count;
  }
  snapZ(L, w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data());
  snapB(L, chem ? ti : 0, w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data(), w.b.data());
  energy += spec_.model->energy(ti, w.b.data(), w.beta.data());
  snapY(L, w.zr.data(), w.zi.data(), w.beta.data(), w.yr.data(), w.yi.data());
  for (int k = 0; k < count; ++k) {
    const int m = w.inside[k];
    const int pair = ti * numTypes_ + nb.type[m];
    const int element = chem ? nb.type[m] : 0;
    double dedr[3];
    snapNeighbourGradient(L, nb.dx[m], nb.dy[m], nb.dz[m], nb.r[m], cut_[pair], spec_.weight[nb.type[m]],
                          w.ur.data() + static_cast<std::size_t>(k) * n, w.ui.data() + static_cast<std::size_t>(k) * n,
                          w.yr.data() + element * n, w.yi.data() + element * n, w.barr.data(), w.bari.data(), dedr);
    fx[m] -= dedr[0];
    fy[m] -= dedr[1];
    fz[m] -= dedr[2];
  }
  if (spec_.zbl.empty()) return;
  // Each pair is seen from both of its atoms: half of its ZBL energy and force from each.
  for (int m = 0; m < nb.count; ++m) {
    const ZblParams& p = spec_.zbl[ti * numTypes_ + nb.type[m]];
    const double r = nb.r[m];
    if (!(r * r < p.outerSq)) continue;
    double e, de;
    zblEvaluate(p, r, e, de);
    energy += 0.5 * e;
    fx[m] -= 0.5 * de * nb.ux[m];
    fy[m] -= 0.5 * de * nb.uy[m];
    fz[m] -= 0.5 * de * nb.uz[m];
  }
}

}  // namespace hookmd
