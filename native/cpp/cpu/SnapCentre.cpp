#include "cpu/SnapCentre.h"

#include <algorithm>

#include "core/CpuFeatures.h"

namespace hookmd {

namespace {

// Centres per SIMD group: four doubles are one AVX2 register, two SSE2 ones.
constexpr int kLanes = 4;

/** One thread's arrays: per lane the neighbours inside their cutoffs and each one's u; the lanes' U, Z, B, β, Y. */
struct SnapWork final : ManyBodyCentre::Work {
  explicit SnapWork(const SnapLayout& layout) : L(layout) {
    const std::size_t ne = static_cast<std::size_t>(L.numElements);
    totr.resize(ne * L.uSize * kLanes);
    toti.resize(totr.size());
    yr.resize(totr.size());
    yi.resize(totr.size());
    zr.resize(ne * ne * L.zSize * kLanes);
    zi.resize(zr.size());
    perLane = ne * ne * ne * L.numB;
    b.resize(perLane * kLanes);
    beta.assign(perLane * kLanes, 0.0);
    laneYr.resize(ne * L.uSize);
    laneYi.resize(laneYr.size());
    barr.resize(static_cast<std::size_t>(L.uSize));
    bari.resize(barr.size());
  }
  void reserve(std::size_t count) override {
    if (count <= capacity) return;
    capacity = count;
    for (int l = 0; l < kLanes; ++l) {
      inside[l].resize(count);
      ur[l].resize(count * L.uSize);
      ui[l].resize(count * L.uSize);
    }
  }
  const SnapLayout& L;
  std::size_t capacity = 0;
  std::size_t perLane = 0;
  /** Per lane, the indices into its centre's neighbours of those inside their pair cutoff, and their u. */
  std::vector<int> inside[kLanes];
  std::vector<double> ur[kLanes], ui[kLanes];
  int insideCount[kLanes] = {};
  std::vector<double> totr, toti, zr, zi, b, beta, yr, yi, laneYr, laneYi, barr, bari;
};

// Z and Y of four lanes, the bulk of a centre's work, compiled for AVX2 too; -ffp-contract=off keeps every
// body's bits the same.
void zLanes(const SnapLayout& L, const double* ur, const double* ui, double* zr, double* zi) { snapZ<kLanes>(L, ur, ui, zr, zi); }
void yLanes(const SnapLayout& L, const double* zr, const double* zi, const double* const* betas, double* yr, double* yi) {
  snapY<kLanes>(L, zr, zi, betas, yr, yi);
}
#if HOOKMD_X86_SIMD
HOOKMD_TARGET_AVX2 void zLanesAvx2(const SnapLayout& L, const double* ur, const double* ui, double* zr, double* zi) {
  snapZ<kLanes>(L, ur, ui, zr, zi);
}
HOOKMD_TARGET_AVX2 void yLanesAvx2(const SnapLayout& L, const double* zr, const double* zi, const double* const* betas, double* yr, double* yi) {
  snapY<kLanes>(L, zr, zi, betas, yr, yi);
}
#endif

/** Z and Y of K lanes, through the widest body this CPU runs. */
template <int K>
void laneZ(const SnapLayout& L, const double* ur, const double* ui, double* zr, double* zi) {
  if constexpr (K == kLanes) {
#if HOOKMD_X86_SIMD
    if (simdLevel() != SimdLevel::Baseline) return zLanesAvx2(L, ur, ui, zr, zi);
#endif
    return zLanes(L, ur, ui, zr, zi);
  }
  snapZ<K>(L, ur, ui, zr, zi);
}
template <int K>
void laneY(const SnapLayout& L, const double* zr, const double* zi, const double* const* betas, double* yr, double* yi) {
  if constexpr (K == kLanes) {
#if HOOKMD_X86_SIMD
    if (simdLevel() != SimdLevel::Baseline) return yLanesAvx2(L, zr, zi, betas, yr, yi);
#endif
    return yLanes(L, zr, zi, betas, yr, yi);
  }
  snapY<K>(L, zr, zi, betas, yr, yi);
}

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
  run<1>(1, &ti, &nb, work, energy, &fx, &fy, &fz);
}

int SnapCentre::lanes() const { return kLanes; }

void SnapCentre::centres(int count, const int* types, const ManyBodyNeighbors* nbs, Work& work, double& energy, double* const* fx,
                         double* const* fy, double* const* fz) const {
  if (count == 1) {
    run<1>(1, types, nbs, work, energy, fx, fy, fz);
  } else {
    run<kLanes>(count, types, nbs, work, energy, fx, fy, fz);
  }
}

template <int K>
void SnapCentre::run(int count, const int* types, const ManyBodyNeighbors* nbs, Work& work, double& energy, double* const* fx,
                     double* const* fy, double* const* fz) const {
  auto& w = static_cast<SnapWork&>(work);
  const SnapLayout& L = w.L;
  const bool chem = L.numElements > 1;
  const int n = L.uSize;
  // A lane without a centre (count < K) runs on the self term alone; its results are not read.
  int centreElements[K];
  for (int l = 0; l < K; ++l) centreElements[l] = l < count && chem ? types[l] : 0;
  snapClearTotals<K>(L, centreElements, w.totr.data(), w.toti.data());
  for (int l = 0; l < count; ++l) {
    const ManyBodyNeighbors& nb = nbs[l];
    const int ti = types[l];
    int inside = 0;
    for (int m = 0; m < nb.count; ++m) {
      const int pair = ti * numTypes_ + nb.type[m];
      const double r = nb.r[m];
      if (!(r * r < cutSq_[pair]) || !(r * r > 1e-20)) continue;
      w.inside[l][inside] = m;
      double* ur = w.ur[l].data() + static_cast<std::size_t>(inside) * n;
      double* ui = w.ui[l].data() + static_cast<std::size_t>(inside) * n;
      double ar, ai, br, bi, z0, r0inv;
      snapCayleyKlein(L, nb.dx[m], nb.dy[m], nb.dz[m], r, cut_[pair], ar, ai, br, bi, z0, r0inv);
      snapNeighbourU(L, ar, ai, br, bi, ur, ui);
      double fc, dfc;
      snapSwitch(L, r, cut_[pair], fc, dfc);
      const int element = chem ? nb.type[m] : 0;
      snapAddU<K>(L, l, spec_.weight[nb.type[m]] * fc, ur, ui, w.totr.data() + element * n * K, w.toti.data() + element * n * K);
      ++inside;
    }
    w.insideCount[l] = inside;
  }
  laneZ<K>(L, w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data());
  const double* betas[K];
  for (int l = 0; l < K; ++l) {
    double* b = w.b.data() + l * w.perLane;
    double* beta = w.beta.data() + l * w.perLane;
    betas[l] = beta;
    if (l >= count) continue;
    snapB<K>(L, l, centreElements[l], w.totr.data(), w.toti.data(), w.zr.data(), w.zi.data(), b);
    energy += spec_.model->energy(types[l], b, beta);
  }
  laneY<K>(L, w.zr.data(), w.zi.data(), betas, w.yr.data(), w.yi.data());
  for (int l = 0; l < count; ++l) {
    const ManyBodyNeighbors& nb = nbs[l];
    const int ti = types[l];
    for (std::size_t k = 0; k < w.laneYr.size(); ++k) {
      w.laneYr[k] = w.yr[k * K + l];
      w.laneYi[k] = w.yi[k * K + l];
    }
    for (int k = 0; k < w.insideCount[l]; ++k) {
      const int m = w.inside[l][k];
      const int pair = ti * numTypes_ + nb.type[m];
      const int element = chem ? nb.type[m] : 0;
      double dedr[3];
      snapNeighbourGradient(L, nb.dx[m], nb.dy[m], nb.dz[m], nb.r[m], cut_[pair], spec_.weight[nb.type[m]],
                            w.ur[l].data() + static_cast<std::size_t>(k) * n, w.ui[l].data() + static_cast<std::size_t>(k) * n,
                            w.laneYr.data() + element * n, w.laneYi.data() + element * n, w.barr.data(), w.bari.data(), dedr);
      fx[l][m] -= dedr[0];
      fy[l][m] -= dedr[1];
      fz[l][m] -= dedr[2];
    }
    if (!spec_.zbl.empty()) zblHalfPairs(spec_.zbl.data() + ti * numTypes_, nb, energy, fx[l], fy[l], fz[l]);
  }
}

}  // namespace hookmd
