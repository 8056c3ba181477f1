#include "kernels/So3Tables.h"

#include <cmath>

namespace hookmd {

namespace {

constexpr double kPi = 3.14159265358979323846;

/**
 * The eigenvalues and eigenvectors (columns of v, row-major) of the symmetric n × n matrix a by cyclic Jacobi
 * rotations; a is destroyed. n ≤ kMaxSo3Radial, so the O(n³) sweeps cost nothing.
 */
void symmetricEigen(int n, std::vector<double>& a, std::vector<double>& values, std::vector<double>& v) {
  v.assign(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) v[i * n + i] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    }
    if (off == 0.0) break;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0.0) continue;
        // The rotation by θ with tan 2θ = 2 a_pq/(a_qq − a_pp) zeroes a_pq; t = tan θ, the smaller root.
        const double theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
        const double t = (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; ++k) {
          const double vkp = v[k * n + p], vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  values.resize(n);
  for (int i = 0; i < n; ++i) values[i] = a[i * n + i];
}

/** W = S^(−1/2) of the overlap S_ab = ∫₀^r_c r² φ_a φ_b dr of the normalised polynomials φ_a, a = 1 … nmax. */
std::vector<double> orthonormalisation(int nmax) {
  std::vector<double> s(static_cast<std::size_t>(nmax) * nmax);
  for (int a = 1; a <= nmax; ++a) {
    for (int b = 1; b <= nmax; ++b) {
      const double ta = (2.0 * a + 5) * (2.0 * a + 6) * (2.0 * a + 7), tb = (2.0 * b + 5) * (2.0 * b + 6) * (2.0 * b + 7);
      s[(a - 1) * nmax + b - 1] = std::sqrt(ta * tb) / ((5.0 + a + b) * (6.0 + a + b) * (7.0 + a + b));
    }
  }
  std::vector<double> values, v;
  symmetricEigen(nmax, s, values, v);
  std::vector<double> w(static_cast<std::size_t>(nmax) * nmax, 0.0);
  for (int i = 0; i < nmax; ++i) {
    for (int j = 0; j < nmax; ++j) {
      double sum = 0.0;
      for (int k = 0; k < nmax; ++k) sum += v[i * nmax + k] * v[j * nmax + k] / std::sqrt(values[k]);
      w[i * nmax + j] = sum;
    }
  }
  return w;
}

}  // namespace

So3Tables::So3Tables(const So3DescriptorSettings& settings, double rcut) {
  const int nmax = settings.nmax, lmax = settings.lmax;
  const int nodes = 10 * (nmax + lmax + 1);
  const std::vector<double> w = orthonormalisation(nmax);
  nodeX_.resize(nodes);
  nodeRho_.resize(nodes);
  radialWeights_.resize(static_cast<std::size_t>(nmax) * nodes);
  for (int q = 0; q < nodes; ++q) {
    const double t = std::cos((2 * q + 1) * kPi / (2.0 * nodes));
    const double x = rcut / 2.0 * (t + 1.0);
    nodeX_[q] = x;
    nodeRho_[q] = 2.0 * settings.alpha * x;
    // Gauss–Chebyshev: ∫₀^r_c f dx ≈ (r_c/2)(π/N) Σ_q √(1 − t_q²) f(x_q).
    const double weight = rcut / 2.0 * kPi / nodes * std::sqrt(1.0 - t * t) * x * x * std::exp(-settings.alpha * x * x);
    for (int n = 0; n < nmax; ++n) {
      double g = 0.0;
      for (int a = 1; a <= nmax; ++a) {
        const double phi = std::pow(rcut - x, a + 2) /
                           std::sqrt(2.0 * std::pow(rcut, 2 * a + 7) / ((2.0 * a + 5) * (2.0 * a + 6) * (2.0 * a + 7)));
        g += w[n * nmax + a - 1] * phi;
      }
      radialWeights_[static_cast<std::size_t>(n) * nodes + q] = weight * g;
    }
  }
  norm_.resize(lmax + 1);
  for (int l = 0; l <= lmax; ++l) norm_[l] = 2.0 * std::sqrt(2.0) * kPi / std::sqrt(2.0 * l + 1.0);
  layout_ = So3Layout{nmax, lmax, nodes, settings.alpha, rcut, nodeX_.data(), nodeRho_.data(), radialWeights_.data(), norm_.data()};
}

}  // namespace hookmd
