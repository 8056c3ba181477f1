#include "training/NetworkLoss.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "math/DescriptorNetworkGradient.h"
#include "core/Messages.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {
constexpr const char* kOwner = "MLIAP network loss";
constexpr int kMaxTwojmax = 16;
constexpr int kMaxNodes = 4096;

[[noreturn]] void invalid(const std::string& message) { fail("INVALID_POTENTIAL", std::string(kOwner) + ": " + message); }
}  // namespace

NetworkLoss::NetworkLoss(const NetworkLossDefinition& d) : elements_(d.elements), nodes_(d.nodes), activations_(d.activations) {
  const int ne = static_cast<int>(d.elements.size());
  const SnapDescriptorSettings& s = d.descriptor;
  if (ne < 1 || ne > 255) invalid("expected 1 to 255 elements");
  for (int z : d.elements) {
    if (z < 1 || z > 118) invalid("elements must be atomic numbers 1..118");
  }
  if (s.twojmax < 0 || s.twojmax > kMaxTwojmax) invalid("twojmax must be a whole number from 0 to " + std::to_string(kMaxTwojmax));
  if (!(d.rcutfac > 0.0) || !std::isfinite(d.rcutfac)) invalid("rcutfac must be > 0, got " + formatNumber(d.rcutfac));
  if (!(s.rfac0 > 0.0 && s.rfac0 <= 1.0)) invalid("rfac0 must be in (0, 1], got " + formatNumber(s.rfac0));
  if (!(s.rmin0 >= 0.0) || !std::isfinite(s.rmin0)) invalid("rmin0 must be >= 0, got " + formatNumber(s.rmin0));
  if (static_cast<int>(d.radius.size()) != ne || static_cast<int>(d.weight.size()) != ne) invalid("expected a radius and a weight per element");
  for (int e = 0; e < ne; ++e) {
    if (!(d.radius[e] > 0.0) || !std::isfinite(d.radius[e])) invalid("radius " + std::to_string(e) + " must be > 0");
    if (!std::isfinite(d.weight[e])) invalid("weight " + std::to_string(e) + " must be finite");
    if (!(s.rmin0 < d.rcutfac * 2.0 * d.radius[e])) invalid("rmin0 must be below every pair cutoff");
  }
  if (nodes_.empty() || nodes_.size() != activations_.size()) invalid("every layer needs a node count and an activation");
  for (std::size_t l = 0; l < nodes_.size(); ++l) {
    if (nodes_[l] < 1 || nodes_[l] > kMaxNodes) invalid("layer " + std::to_string(l) + " must have 1 to " + std::to_string(kMaxNodes) + " nodes");
    if (activations_[l] < 0 || activations_[l] > static_cast<int>(NetworkActivation::Relu)) invalid("layer " + std::to_string(l) + " has an unknown activation");
  }
  if (nodes_.back() != 1) invalid("the last layer must have one node (the energy)");
  spec_.tables = std::make_shared<SnapTables>(s, ne);
  spec_.radius = d.radius;
  spec_.weight = d.weight;
  spec_.rcutfac = d.rcutfac;
  const SnapLayout& L = spec_.tables->layout();
  n_ = L.numB * L.numElements * L.numElements * L.numElements;
  int inputs = n_;
  for (int nodes : nodes_) {
    perElement_ += static_cast<std::size_t>(nodes) * (inputs + 1);
    inputs = nodes;
  }
  shape_ = DescriptorNetworkShape{n_, static_cast<int>(nodes_.size()), nodes_.data(), activations_.data(), *std::max_element(nodes_.begin(), nodes_.end())};
  blocks_.assign((2 * static_cast<std::size_t>(n_) + perElement_) * ne, 0.0);
}

void NetworkLoss::bind(Backend& backend, const ReferenceArrays& refs) {
  const BatchStorage& storage =
      arraysFor(backend, Kernel::PairLoss, {Field::Positions, Field::Cell, Field::Pbc, Field::AtomicNumbers, Field::Ptr});
  TrainingData::requirePartition(storage, kOwner);
  const double cutoff = spec_.rcutfac * 2.0 * *std::max_element(spec_.radius.begin(), spec_.radius.end());
  auto data = std::make_unique<TrainingData>(storage, refs, cutoff, kOwner);
  std::vector<std::uint8_t> types(static_cast<std::size_t>(data->numAtoms()));
  const std::vector<std::int32_t>& z = data->atomicNumbers();
  for (std::size_t i = 0; i < z.size(); ++i) {
    const auto found = std::find(elements_.begin(), elements_.end(), z[i]);
    if (found == elements_.end()) fail("MISSING_SPECIES", std::string(kOwner) + ": the descriptor has no element " + elementSymbol(z[i]));
    types[i] = static_cast<std::uint8_t>(found - elements_.begin());
  }
  auto descriptors = std::make_unique<SnapDescriptorSet>(*data, types, spec_);
  data_ = std::move(data);
  descriptors_ = std::move(descriptors);
  types_ = std::move(types);
  forwarded_ = false;
}

void NetworkLoss::setScales(const double* scales) {
  const std::size_t n = static_cast<std::size_t>(n_);
  const std::size_t stride = 2 * n + perElement_;
  for (std::size_t e = 0; e < elements_.size(); ++e) {
    for (std::size_t k = 0; k < 2 * n; ++k) {
      const double value = scales[e * 2 * n + k];
      if (!std::isfinite(value) || (k >= n && value == 0.0)) {
        fail("INVALID_ARGUMENT", std::string(kOwner) + ": scale" + (k < n ? "0" : "1") + " of descriptor " + std::to_string(k % n) +
                                     " must be finite" + (k < n ? "" : " and not 0") + ", got " + formatNumber(value));
      }
    }
    std::copy(scales + e * 2 * n, scales + (e + 1) * 2 * n, blocks_.begin() + e * stride);
  }
  scaled_ = true;
  forwarded_ = false;
}

void NetworkLoss::forward(const double* theta, const std::int32_t* systems, std::int64_t count) {
  if (!data_) fail("NOT_BOUND", std::string(kOwner) + ": forward() before bind()");
  if (!scaled_) fail("NOT_BOUND", std::string(kOwner) + ": forward() before setScales()");
  for (std::int64_t k = 0; k < count; ++k) {
    if (systems[k] < 0 || systems[k] >= data_->numSystems()) {
      fail("INVALID_ARGUMENT", std::string(kOwner) + ": system index " + std::to_string(systems[k]) + " is outside [0, " +
                                   std::to_string(data_->numSystems()) + ")");
    }
  }
  for (std::size_t p = 0; p < numParams(); ++p) {
    if (!std::isfinite(theta[p])) fail("INVALID_PARAMETER", std::string(kOwner) + ": parameter " + std::to_string(p) + " is " + formatNumber(theta[p]));
  }
  forwarded_ = false;
  const std::size_t n = static_cast<std::size_t>(n_);
  const std::size_t stride = 2 * n + perElement_;
  for (std::size_t e = 0; e < elements_.size(); ++e) std::copy(theta + e * perElement_, theta + (e + 1) * perElement_, blocks_.begin() + e * stride + 2 * n);
  systems_.assign(systems, systems + count);
  offsets_.assign(static_cast<std::size_t>(count) + 1, 0);
  atomOffsets_.assign(static_cast<std::size_t>(count) + 1, 0);
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int32_t atoms = data_->system(systems[k]).atomCount;
    atomOffsets_[k + 1] = atomOffsets_[k] + atoms;
    offsets_[k + 1] = 3 * atomOffsets_[k + 1];
  }
  const std::size_t atoms = static_cast<std::size_t>(atomOffsets_[count]);
  const std::size_t rows = static_cast<std::size_t>(shape_.numLayers) * shape_.widest;
  energy_.assign(static_cast<std::size_t>(count), 0.0);
  forces_.assign(3 * atoms, 0.0);
  virial_.assign(6 * static_cast<std::size_t>(count), 0.0);
  stress_.assign(9 * static_cast<std::size_t>(count), 0.0);
  beta_.resize(atoms * n);
  values_.resize(atoms * rows);
  slopes_.resize(atoms * rows);
  ThreadPool& pool = ThreadPool::global();
  std::vector<std::vector<double>> back(static_cast<std::size_t>(pool.threads()), std::vector<double>(2 * static_cast<std::size_t>(shape_.widest)));
  pool.parallelFor(0, count, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    for (std::int64_t k = lo; k < hi; ++k) {
      const TrainingSystem& system = data_->system(systems_[k]);
      double* f = forces_.data() + offsets_[k];
      double* w = virial_.data() + 6 * k;
      double energy = 0.0;
      for (std::int32_t a = 0; a < system.atomCount; ++a) {
        const std::int64_t j = system.atomBegin + a;
        const std::size_t slot = static_cast<std::size_t>(atomOffsets_[k] + a);
        double* beta = beta_.data() + slot * n;
        energy += descriptorNetwork(shape_, blocks_.data() + types_[j] * stride, descriptors_->descriptors(j), beta, values_.data() + slot * rows,
                                    slopes_.data() + slot * rows, back[thread].data());
        for (std::int64_t e = descriptors_->entryBegin(j); e < descriptors_->entryBegin(j + 1); ++e) {
          const double* d = descriptors_->entryDerivatives(e);
          double* fi = f + 3 * static_cast<std::int64_t>(descriptors_->entryAtom(e) - system.atomBegin);
          double fx = 0.0, fy = 0.0, fz = 0.0;
          for (std::size_t c = 0; c < n; ++c) {
            fx += beta[c] * d[3 * c];
            fy += beta[c] * d[3 * c + 1];
            fz += beta[c] * d[3 * c + 2];
          }
          fi[0] -= fx;
          fi[1] -= fy;
          fi[2] -= fz;
        }
        const double* v = descriptors_->virialDerivatives(j);
        for (std::size_t c = 0; c < n; ++c) {
          for (int q = 0; q < 6; ++q) w[q] -= beta[c] * v[6 * c + q];
        }
      }
      energy_[k] = energy;
      if (system.volume == 0.0) continue;
      const double full[9] = {w[0], w[3], w[4], w[3], w[1], w[5], w[4], w[5], w[2]};
      // σ = −W/V, written as 0 − w so that a zero virial gives +0 (as the potentials do).
      for (int c = 0; c < 9; ++c) stress_[9 * k + c] = (0.0 - full[c]) / system.volume;
    }
  });
  forwarded_ = true;
}

LossStats NetworkLoss::loss(const LossWeights& weights, double* gradient) {
  if (!forwarded_) fail("NOT_FORWARDED", std::string(kOwner) + ": loss() needs a forward() first");
  LossResiduals::checkWeights(kOwner, weights);
  const LossStats stats = residuals_.compute(*data_, BatchPredictions{systems_, offsets_, energy_, forces_, stress_}, weights);
  if (gradient == nullptr) return stats;
  const std::vector<LossSlopes>& slopes = residuals_.slopes(*data_, systems_, stats, weights);
  const std::int64_t count = static_cast<std::int64_t>(systems_.size());
  const std::size_t params = numParams();
  const std::size_t n = static_cast<std::size_t>(n_);
  const std::size_t stride = 2 * n + perElement_;
  const std::size_t rows = static_cast<std::size_t>(shape_.numLayers) * shape_.widest;
  // Slots start on their own cache lines: neighbouring systems run on different threads.
  const std::size_t slotStride = (params + 7) / 8 * 8;
  slotGradients_.assign(static_cast<std::size_t>(count) * slotStride + 8, 0.0);
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(slotGradients_.data()) % 64 / sizeof(double);
  double* slots = slotGradients_.data() + (misalignment == 0 ? 0 : 8 - misalignment);
  const std::vector<double>& deltaForces = residuals_.deltaForces();
  const std::vector<double>& deltaStress = residuals_.deltaStress();
  ThreadPool& pool = ThreadPool::global();
  std::vector<std::vector<double>> scratch(static_cast<std::size_t>(pool.threads()));
  pool.parallelFor(0, count, 1, [&](std::int64_t lo, std::int64_t hi, int thread) {
    std::vector<double>& work = scratch[thread];
    work.resize(n + rows + 4 * static_cast<std::size_t>(shape_.widest));
    double* u = work.data();
    double* tangent = u + n;
    double* adjoint = tangent + rows;
    for (std::int64_t k = lo; k < hi; ++k) {
      const TrainingSystem& system = data_->system(systems_[k]);
      const LossSlopes& slope = slopes[k];
      const double* deltaF = deltaForces.data() + offsets_[k];
      // ∂L/∂σ_ab · V_j,ab summed over a, b: the virial rows are symmetric, so an off-diagonal row counts twice.
      double stressWeight[6] = {0, 0, 0, 0, 0, 0};
      if (slope.stress != 0.0) {
        const double* ds = deltaStress.data() + 9 * k;
        const double scale = slope.stress / system.volume;
        stressWeight[0] = scale * ds[0];
        stressWeight[1] = scale * ds[4];
        stressWeight[2] = scale * ds[8];
        stressWeight[3] = scale * (ds[1] + ds[3]);
        stressWeight[4] = scale * (ds[2] + ds[6]);
        stressWeight[5] = scale * (ds[5] + ds[7]);
      }
      double* slotGradient = slots + static_cast<std::size_t>(k) * slotStride;
      for (std::int32_t a = 0; a < system.atomCount; ++a) {
        const std::int64_t j = system.atomBegin + a;
        const std::size_t atomSlot = static_cast<std::size_t>(atomOffsets_[k] + a);
        std::fill(u, u + n, 0.0);
        if (slope.forces != 0.0) {
          for (std::int64_t e = descriptors_->entryBegin(j); e < descriptors_->entryBegin(j + 1); ++e) {
            const double* d = descriptors_->entryDerivatives(e);
            const double* df = deltaF + 3 * static_cast<std::int64_t>(descriptors_->entryAtom(e) - system.atomBegin);
            const double gx = -slope.forces * df[0], gy = -slope.forces * df[1], gz = -slope.forces * df[2];
            for (std::size_t c = 0; c < n; ++c) u[c] += d[3 * c] * gx + d[3 * c + 1] * gy + d[3 * c + 2] * gz;
          }
        }
        if (slope.stress != 0.0) {
          const double* v = descriptors_->virialDerivatives(j);
          for (std::size_t c = 0; c < n; ++c) {
            double sum = 0.0;
            for (int q = 0; q < 6; ++q) sum += stressWeight[q] * v[6 * c + q];
            u[c] += sum;
          }
        }
        const int type = types_[j];
        descriptorNetworkParameterGradient(shape_, blocks_.data() + type * stride, descriptors_->descriptors(j), values_.data() + atomSlot * rows,
                                           slopes_.data() + atomSlot * rows, slope.energy, u, tangent, adjoint,
                                           slotGradient + static_cast<std::size_t>(type) * perElement_);
      }
    }
  });
  std::fill(gradient, gradient + params, 0.0);
  for (std::int64_t k = 0; k < count; ++k) {
    const double* part = slots + static_cast<std::size_t>(k) * slotStride;
    for (std::size_t p = 0; p < params; ++p) gradient[p] += part[p];
  }
  return stats;
}

std::vector<double> NetworkLoss::activations(int layer) const {
  const std::size_t atoms = systems_.empty() ? 0 : static_cast<std::size_t>(atomOffsets_.back());
  const std::size_t nodes = static_cast<std::size_t>(nodes_[layer]);
  const std::size_t rows = static_cast<std::size_t>(shape_.numLayers) * shape_.widest;
  std::vector<double> out(atoms * nodes);
  for (std::size_t a = 0; a < atoms; ++a) {
    const double* values = values_.data() + a * rows + static_cast<std::size_t>(layer) * shape_.widest;
    std::copy(values, values + nodes, out.begin() + a * nodes);
  }
  return out;
}

}  // namespace hookmd
