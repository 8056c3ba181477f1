#include "models/SnapPotential.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "cpu/CpuManyBodyForceKernel.h"
#include "cpu/So3Centre.h"
#include "math/DescriptorNetwork.h"
#include "core/Messages.h"

namespace hookmd {

namespace {

// A bispectrum of 2J = 16 already holds 285 components per triple and Z blocks of ~10⁵ entries.
constexpr int kMaxTwojmax = 16;

/** β₀ + β·B + ½ Bᵀ α B per element, α's upper triangle row by row after the linear coefficients. */
class SnapRegression final : public SnapEnergyModel {
 public:
  SnapRegression(std::vector<double> coefficients, int numDescriptors, bool quadratic)
      : coefficients_(std::move(coefficients)), n_(numDescriptors), quadratic_(quadratic),
        stride_(1 + n_ + (quadratic ? n_ * (n_ + 1) / 2 : 0)) {}

  double energy(int element, const double* b, double* beta) const override {
    const double* c = coefficients_.data() + static_cast<std::size_t>(element) * stride_;
    double e = c[0];
    for (int k = 0; k < n_; ++k) {
      beta[k] = c[1 + k];
      e += c[1 + k] * b[k];
    }
    if (!quadratic_) return e;
    const double* alpha = c + 1 + n_;
    for (int k = 0; k < n_; ++k) {
      e += 0.5 * alpha[0] * b[k] * b[k];
      beta[k] += alpha[0] * b[k];
      for (int l = k + 1; l < n_; ++l) {
        const double a = alpha[l - k];
        e += a * b[k] * b[l];
        beta[k] += a * b[l];
        beta[l] += a * b[k];
      }
      alpha += n_ - k;
    }
    return e;
  }

 private:
  std::vector<double> coefficients_;
  int n_;
  bool quadratic_;
  int stride_;
};

/** The network of an ML-IAP `nn` model over each element's parameters. */
class SnapNetwork final : public SnapEnergyModel {
 public:
  SnapNetwork(std::vector<double> parameters, int numDescriptors, std::vector<int> nodes, std::vector<int> activations)
      : parameters_(std::move(parameters)), nodes_(std::move(nodes)), activations_(std::move(activations)) {
    shape_.numDescriptors = numDescriptors;
    shape_.numLayers = static_cast<int>(nodes_.size());
    shape_.nodes = nodes_.data();
    shape_.activations = activations_.data();
    shape_.widest = *std::max_element(nodes_.begin(), nodes_.end());
    stride_ = static_cast<std::size_t>(parametersPerElement(numDescriptors, nodes_));
  }

  static int parametersPerElement(int numDescriptors, const std::vector<int>& nodes) {
    int count = 2 * numDescriptors;
    int inputs = numDescriptors;
    for (int n : nodes) {
      count += n * (inputs + 1);
      inputs = n;
    }
    return count;
  }

  double energy(int element, const double* b, double* beta) const override {
    // Scratch per call: energy() runs on every thread at once.
    thread_local std::vector<double> scratch;
    const std::size_t rows = static_cast<std::size_t>(shape_.widest);
    if (scratch.size() < (2 * nodes_.size() + 2) * rows) scratch.resize((2 * nodes_.size() + 2) * rows);
    double* values = scratch.data();
    double* slopes = values + nodes_.size() * rows;
    double* back = slopes + nodes_.size() * rows;
    return descriptorNetwork(shape_, parameters_.data() + element * stride_, b, beta, values, slopes, back);
  }

 private:
  std::vector<double> parameters_;
  std::vector<int> nodes_, activations_;
  DescriptorNetworkShape shape_{};
  std::size_t stride_ = 0;
};

void requireFinite(const std::string& name, const std::vector<double>& values, const char* what) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) fail("INVALID_POTENTIAL", name + ": " + what + " " + std::to_string(k) + " is " + formatNumber(values[k]));
  }
}

int descriptorsOf(const SnapDefinition& d) {
  if (d.so3) return so3Descriptors(d.so3->nmax, d.so3->lmax);
  const int ne = static_cast<int>(d.elements.size());
  const int triples = d.descriptor.chemFlag ? ne * ne * ne : 1;
  return SnapTables::componentsPerTriple(d.descriptor.twojmax) * triples;
}

void checkBispectrum(const std::string& model, const SnapDescriptorSettings& s, double smallestCutoff) {
  if (s.twojmax < 0 || s.twojmax > kMaxTwojmax) {
    fail("INVALID_POTENTIAL", model + ": twojmax must be a whole number from 0 to " + std::to_string(kMaxTwojmax) + ", got " +
                                  std::to_string(s.twojmax));
  }
  if (!(s.rfac0 > 0.0 && s.rfac0 <= 1.0)) fail("INVALID_POTENTIAL", model + ": rfac0 must be in (0, 1], got " + formatNumber(s.rfac0));
  if (!(s.rmin0 >= 0.0) || !std::isfinite(s.rmin0)) fail("INVALID_POTENTIAL", model + ": rmin0 must be >= 0, got " + formatNumber(s.rmin0));
  if (!(s.rmin0 < smallestCutoff)) {
    fail("INVALID_POTENTIAL", model + ": rmin0 " + formatNumber(s.rmin0) + " must be below every pair cutoff (the smallest is " +
                                  formatNumber(smallestCutoff) + ")");
  }
}

void checkSo3(const std::string& model, const So3DescriptorSettings& s, double rcut, const std::vector<double>& weights) {
  if (s.nmax < 1 || s.nmax > kMaxSo3Radial) fail("INVALID_POTENTIAL", model + ": so3 nmax must be from 1 to " + std::to_string(kMaxSo3Radial) + ", got " + std::to_string(s.nmax));
  if (s.lmax < 0 || s.lmax > kMaxSo3Angular) fail("INVALID_POTENTIAL", model + ": so3 lmax must be from 0 to " + std::to_string(kMaxSo3Angular) + ", got " + std::to_string(s.lmax));
  if (!(s.alpha > 0.0) || !std::isfinite(s.alpha)) fail("INVALID_POTENTIAL", model + ": so3 alpha must be > 0, got " + formatNumber(s.alpha));
  // The radial integrals take sinh and cosh of up to 2 α r_c²: past ~709 they overflow to inf · 0.
  if (!(2.0 * s.alpha * rcut * rcut <= 700.0)) {
    fail("INVALID_POTENTIAL", model + ": so3 alpha " + formatNumber(s.alpha) + " with rcutfac " + formatNumber(rcut) +
                                  " overflows the radial integrals (2 alpha rcutfac^2 must be <= 700)");
  }
  for (std::size_t e = 0; e < weights.size(); ++e) {
    if (std::trunc(weights[e]) != weights[e]) {
      fail("INVALID_POTENTIAL", model + ": so3 weight " + std::to_string(e) + " is " + formatNumber(weights[e]) +
                                    "; LAMMPS reads so3 weights as whole numbers (it would use " + formatNumber(std::trunc(weights[e])) + ")");
    }
  }
}

}  // namespace

int SnapPotential::coefficientsPerElement(const SnapDefinition& d) {
  const int n = descriptorsOf(d);
  if (!d.networkNodes.empty()) return SnapNetwork::parametersPerElement(n, d.networkNodes);
  return 1 + n + (d.quadratic ? n * (n + 1) / 2 : 0);
}

SnapPotential::SnapPotential(const char* name, const SnapDefinition& d, std::optional<double> skin)
    : name_(name), species_(name, d.elements) {
  const std::string model(name);
  const int ne = species_.numTypes();
  const SnapDescriptorSettings& s = d.descriptor;
  if (!(d.rcutfac > 0.0) || !std::isfinite(d.rcutfac)) fail("INVALID_POTENTIAL", model + ": rcutfac must be > 0, got " + formatNumber(d.rcutfac));
  if (static_cast<int>(d.radius.size()) != ne || static_cast<int>(d.weight.size()) != ne) {
    fail("INVALID_POTENTIAL", model + ": expected a radius and a weight for each of " + std::to_string(ne) + " elements");
  }
  requireFinite(model, d.radius, "radius");
  requireFinite(model, d.weight, "weight");
  for (int e = 0; e < ne; ++e) {
    if (!(d.radius[e] > 0.0)) fail("INVALID_POTENTIAL", model + ": radius " + std::to_string(e) + " must be > 0, got " + formatNumber(d.radius[e]));
  }
  const double maxRadius = *std::max_element(d.radius.begin(), d.radius.end());
  cutoff_ = d.rcutfac * 2.0 * maxRadius;
  if (d.so3) {
    checkSo3(model, *d.so3, d.rcutfac, d.weight);
    // Past rcutfac the so3 basis and its switch are zero, whatever the element radii allow.
    cutoff_ = std::min(cutoff_, d.rcutfac);
  } else {
    checkBispectrum(model, s, d.rcutfac * 2.0 * *std::min_element(d.radius.begin(), d.radius.end()));
  }
  const bool network = !d.networkNodes.empty();
  if (network) {
    if (d.networkActivations.size() != d.networkNodes.size()) fail("INVALID_POTENTIAL", model + ": every layer needs an activation");
    for (std::size_t l = 0; l < d.networkNodes.size(); ++l) {
      if (d.networkNodes[l] < 1 || d.networkNodes[l] > 4096) {
        fail("INVALID_POTENTIAL", model + ": layer " + std::to_string(l) + " must have 1 to 4096 nodes, got " + std::to_string(d.networkNodes[l]));
      }
      if (d.networkActivations[l] < 0 || d.networkActivations[l] > static_cast<int>(NetworkActivation::Relu)) {
        fail("INVALID_POTENTIAL", model + ": layer " + std::to_string(l) + " has an unknown activation");
      }
    }
    if (d.networkNodes.back() != 1) fail("INVALID_POTENTIAL", model + ": the last layer must have one node (the energy)");
    if (d.quadratic) fail("INVALID_POTENTIAL", model + ": a network model is not quadratic");
  }
  const int perElement = coefficientsPerElement(d);
  if (d.coefficients.size() != static_cast<std::size_t>(perElement) * ne) {
    const std::string settings = d.so3 ? "so3 nmax " + std::to_string(d.so3->nmax) + " lmax " + std::to_string(d.so3->lmax)
                                       : "twojmax " + std::to_string(s.twojmax) + (s.chemFlag ? ", chemflag" : "");
    fail("INVALID_POTENTIAL", model + ": expected " + std::to_string(perElement) + " coefficients per element for " + settings +
                                  (d.quadratic ? ", quadratic" : "") +
                                  (network ? ", this network" : "") +
                                  ", got " + std::to_string(d.coefficients.size()) + " for " + std::to_string(ne) + " elements");
  }
  requireFinite(model, d.coefficients, "coefficient");
  if (network) {
    const int n = descriptorsOf(d);
    for (int e = 0; e < ne; ++e) {
      for (int k = 0; k < n; ++k) {
        if (d.coefficients[static_cast<std::size_t>(e) * perElement + n + k] == 0.0) {
          fail("INVALID_POTENTIAL", model + ": element " + std::to_string(e) + ": scale1 of descriptor " + std::to_string(k) + " is 0 (it divides)");
        }
      }
    }
  }

  std::shared_ptr<const SnapEnergyModel> energyModel;
  if (network) {
    energyModel = std::make_shared<SnapNetwork>(d.coefficients, descriptorsOf(d), d.networkNodes, d.networkActivations);
  } else {
    energyModel = std::make_shared<SnapRegression>(d.coefficients, descriptorsOf(d), d.quadratic);
  }
  std::vector<ZblParams> zbl;
  if (!d.zblCharges.empty()) {
    if (d.zblCharges.size() != 2 * static_cast<std::size_t>(ne) * ne) {
      fail("INVALID_POTENTIAL", model + ": the ZBL core needs two charges for each of " + std::to_string(ne * ne) + " element pairs");
    }
    requireFinite(model, d.zblCharges, "ZBL charge");
    if (!(d.zblInner > 0.0 && d.zblInner < d.zblOuter) || !std::isfinite(d.zblOuter)) {
      fail("INVALID_POTENTIAL", model + ": the ZBL cutoffs must satisfy 0 < inner < outer, got " + formatNumber(d.zblInner) + " and " +
                                    formatNumber(d.zblOuter));
    }
    for (int p = 0; p < ne * ne; ++p) {
      const double zi = d.zblCharges[2 * p], zj = d.zblCharges[2 * p + 1];
      if (!(zi > 0.0 && zj > 0.0)) fail("INVALID_POTENTIAL", model + ": ZBL charges must be > 0");
      zbl.push_back(makeZblParams(zi, zj, d.zblInner, d.zblOuter));
    }
    cutoff_ = std::max(cutoff_, d.zblOuter);
  }
  if (d.so3) {
    So3CentreSpec spec{std::make_shared<So3Tables>(*d.so3, d.rcutfac), energyModel, d.radius, d.weight, d.rcutfac, std::move(zbl)};
    centre_ = std::make_shared<So3Centre>(std::move(spec));
  } else {
    SnapCentreSpec spec{std::make_shared<SnapTables>(s, ne), energyModel, d.radius, d.weight, d.rcutfac, std::move(zbl)};
    centre_ = std::make_shared<SnapCentre>(std::move(spec));
  }
  if (skin) setSkin(*skin);
}

void SnapPotential::setSkin(double skin) {
  checkSkin(name_, skin);
  skin_ = skin;
}

void SnapPotential::compute(Backend& backend, const ComputeRequest& request) {
  requireSkinSet(name_, skin_);
  checkPtrLayout(backend, name_, checkedPtr_);
  const AtomTypes types = species_.assign(backend);
  ManyBodyForceKernel& kernel =
      kernel_.forBackend(backend, [&] { return std::make_unique<CpuManyBodyForceKernel>(name_, cutoff_, centre_, Kernel::SnapForces); });
  kernel.execute(backend, request, types, skin_, virial_);
}

}  // namespace hookmd
