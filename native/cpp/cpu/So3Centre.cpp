#include "cpu/So3Centre.h"

#include <algorithm>

namespace hookmd {

namespace {

/** One thread's arrays: per neighbour inside its cutoff its weighted radial terms and harmonics; the centre's c, p, β, A. */
struct So3Work final : ManyBodyCentre::Work {
  explicit So3Work(const So3Layout& layout)
      : L(layout), radialCount(L.nmax * (L.lmax + 1)), harmonicCount(so3HarmonicCount(L.lmax)) {
    const std::size_t nc = static_cast<std::size_t>(L.nmax) * harmonicCount;
    c.resize(nc);
    a.resize(nc);
    p.resize(so3Descriptors(L.nmax, L.lmax));
    beta.resize(p.size());
    radial.resize(radialCount);
    dradial.resize(radialCount);
    bessel.resize(2 * (L.lmax + 2));
    legendre.resize(3 * (L.lmax + 1));
    along.resize(harmonicCount);
    across.resize(harmonicCount);
  }
  void reserve(std::size_t count) override {
    if (count <= capacity) return;
    capacity = count;
    inside.resize(count);
    rf.resize(count * radialCount);
    drf.resize(count * radialCount);
    y.resize(count * harmonicCount);
    gx.resize(y.size());
    gy.resize(y.size());
    gz.resize(y.size());
  }
  const So3Layout& L;
  const int radialCount, harmonicCount;
  std::size_t capacity = 0;
  /** The indices into the centre's neighbours of those inside their pair cutoff. */
  std::vector<int> inside;
  /** Per inside neighbour: w f_c R_nl, its r-derivative w (f_c R_nl)′, Y_lm and r ∇Y_lm. */
  std::vector<double> rf, drf, y, gx, gy, gz;
  std::vector<double> c, a, p, beta, radial, dradial, bessel, legendre, along, across;
};

}  // namespace

So3Centre::So3Centre(So3CentreSpec spec) : spec_(std::move(spec)), numTypes_(static_cast<int>(spec_.radius.size())) {
  for (int a = 0; a < numTypes_; ++a) {
    for (int b = 0; b < numTypes_; ++b) {
      const double cut = std::min(spec_.rcutfac * (spec_.radius[a] + spec_.radius[b]), spec_.rcutfac);
      cutSq_.push_back(cut * cut);
    }
  }
}

std::unique_ptr<ManyBodyCentre::Work> So3Centre::makeWork() const { return std::make_unique<So3Work>(spec_.tables->layout()); }

void So3Centre::centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const {
  auto& w = static_cast<So3Work&>(work);
  const So3Layout& L = w.L;
  const int nl = L.lmax + 1, nr = w.radialCount, nh = w.harmonicCount;
  std::fill(w.c.begin(), w.c.end(), 0.0);
  int inside = 0;
  for (int m = 0; m < nb.count; ++m) {
    const double r = nb.r[m];
    // LAMMPS skips neighbours closer than 1e-8 Å (their direction is undefined).
    if (!(r * r < cutSq_[ti * numTypes_ + nb.type[m]]) || !(r >= 1e-8)) continue;
    w.inside[inside] = m;
    so3Radial(L, r, w.radial.data(), w.dradial.data(), w.bessel.data());
    double fc, dfc;
    so3Switch(r, L.rcut, fc, dfc);
    const double weight = spec_.weight[nb.type[m]];
    double* rf = w.rf.data() + static_cast<std::size_t>(inside) * nr;
    double* drf = w.drf.data() + static_cast<std::size_t>(inside) * nr;
    for (int k = 0; k < nr; ++k) {
      rf[k] = weight * fc * w.radial[k];
      drf[k] = weight * (dfc * w.radial[k] + fc * w.dradial[k]);
    }
    const std::size_t at = static_cast<std::size_t>(inside) * nh;
    double* y = w.y.data() + at;
    so3Harmonics(L.lmax, nb.ux[m], nb.uy[m], nb.uz[m], y, w.gx.data() + at, w.gy.data() + at, w.gz.data() + at, w.legendre.data());
    for (int n = 0; n < L.nmax; ++n) {
      for (int l = 0; l < nl; ++l) {
        const double radial = rf[n * nl + l];
        for (int h = l * l; h < (l + 1) * (l + 1); ++h) w.c[n * nh + h] += radial * y[h];
      }
    }
    ++inside;
  }
  so3Spectrum(L, w.c.data(), w.p.data());
  energy += spec_.model->energy(ti, w.p.data(), w.beta.data());
  so3Adjoint(L, w.c.data(), w.beta.data(), w.a.data());
  for (int k = 0; k < inside; ++k) {
    const int m = w.inside[k];
    const double* rf = w.rf.data() + static_cast<std::size_t>(k) * nr;
    const double* drf = w.drf.data() + static_cast<std::size_t>(k) * nr;
    const std::size_t at = static_cast<std::size_t>(k) * nh;
    // dE/dd = Σ_lm [Σ_n A_nlm (w f_c R_nl)′] Y_lm d̂ + [Σ_n A_nlm w f_c R_nl] ∇Y_lm.
    std::fill(w.along.begin(), w.along.end(), 0.0);
    std::fill(w.across.begin(), w.across.end(), 0.0);
    for (int n = 0; n < L.nmax; ++n) {
      for (int l = 0; l < nl; ++l) {
        for (int h = l * l; h < (l + 1) * (l + 1); ++h) {
          w.along[h] += w.a[n * nh + h] * drf[n * nl + l];
          w.across[h] += w.a[n * nh + h] * rf[n * nl + l];
        }
      }
    }
    double radialPart = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
    for (int h = 0; h < nh; ++h) {
      radialPart += w.along[h] * w.y[at + h];
      gx += w.across[h] * w.gx[at + h];
      gy += w.across[h] * w.gy[at + h];
      gz += w.across[h] * w.gz[at + h];
    }
    const double inv = 1.0 / nb.r[m];
    fx[m] -= radialPart * nb.ux[m] + gx * inv;
    fy[m] -= radialPart * nb.uy[m] + gy * inv;
    fz[m] -= radialPart * nb.uz[m] + gz * inv;
  }
  if (!spec_.zbl.empty()) zblHalfPairs(spec_.zbl.data() + ti * numTypes_, nb, energy, fx, fy, fz);
}

}  // namespace hookmd
