// CpuPairLossKernelOf<Grad>: the CPU pair-loss kernel for one pair term. Grad (math/*ParamGrad.h) names the
// header-only evaluator that gives the pair energy and force (the same code the potentials run) and adds
// their parameter derivatives. The energy shift and the XPLOR switch act on every pair term alike:
//   shift:  e − e(r_c)  ⇒  ∂e/∂θ − ∂e(r_c)/∂θ, g unchanged;
//   switch: S·e, S·g − 2e·dS/du (u = r²)  ⇒  S·∂e/∂θ and S·∂g/∂θ − 2·dS/du·∂e/∂θ.
#include "cpu/CpuPairLossKernel.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/CpuPairLoop.h"
#include "math/PairEvaluators.h"
#include "math/SmoothSwitch.h"
#include "kernels/PairLossTables.h"
#include "neighbor/PairVisit.h"

namespace hookmd {

namespace {

/** Listed system k's coefficients, with pointers to its residuals. */
struct SystemResiduals {
  PairLossCoefficients c;
  const double* deltaForces;  // ΔF of the system's atoms (3 per atom)
  const double* deltaStress;  // Δσ (9)
};

template <class Grad>
class CpuPairLossKernelOf final : public PairLossKernel {
 public:
  using Eval = typename Grad::Eval;
  static constexpr int kParams = Grad::kParams;

  explicit CpuPairLossKernelOf(const PairLossSpec& spec) : spec_(spec) {}

  void setParameters(const double* theta) override {
    theta_.assign(theta, theta + spec_.rowCutoffs.size() * kParams);
    tables_.update(spec_, theta);
  }

  void forward(const PairLossBatch& batch, double* energy, double* forces, double* virial) override {
    ThreadPool::global().parallelFor(0, batch.count, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t k = lo; k < hi; ++k) forwardSystem(batch.systems[k], energy[k], forces + batch.offsets[k], virial + 6 * k);
    });
  }

  void backward(const PairLossBatch& batch, const PairLossCoefficients* coefficients, const double* deltaForces,
                const double* deltaStress, double* slots, std::size_t stride) override {
    ThreadPool::global().parallelFor(0, batch.count, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      for (std::int64_t k = lo; k < hi; ++k) {
        const SystemResiduals r{coefficients[k], deltaForces + batch.offsets[k], deltaStress + 9 * k};
        if (r.c.energy != 0.0 || r.c.forces != 0.0 || r.c.stress != 0.0) {
          backwardSystem(batch.systems[k], r, slots + static_cast<std::size_t>(k) * stride);
        }
      }
    });
  }

 private:
  const TrainingData& data() const { return *spec_.data; }
  int numTypes() const { return spec_.numTypes; }

  // The forward pass is the potentials' own pair loop (cpu/CpuPairLoop.h), so predictions are what the
  // model computes.
  void forwardSystem(std::int64_t s, double& energy, double* forces, double* virial6) const {
    const TrainingSystem& system = data().system(s);
    std::fill(forces, forces + 3 * static_cast<std::int64_t>(system.atomCount), 0.0);
    const ChunkTask base{&system.list, nullptr, data().positions(s), forces, spec_.types + system.atomBegin, true};
    const bool single = numTypes() == 1;
    const SwitchParams* switched = spec_.switches.empty() ? nullptr : spec_.switches.data();
    const auto* table = tables_.table.data();
    SystemSums sums;
    for (const NeighborChunk& chunk : system.list.chunks) {
      ChunkTask task = base;
      task.cover(chunk);
      if (switched != nullptr) {
        if (single) pairLoop<Eval, true, true, true, true>(task, table, switched, 1, sums);
        else pairLoop<Eval, true, true, true, false>(task, table, switched, numTypes(), sums);
      } else {
        if (single) pairLoop<Eval, true, true, false, true>(task, table, nullptr, 1, sums);
        else pairLoop<Eval, true, true, false, false>(task, table, nullptr, numTypes(), sums);
      }
    }
    energy = sums.energy;
    std::copy(sums.virial, sums.virial + 6, virial6);
  }

  void backwardSystem(std::int64_t s, const SystemResiduals& r, double* gradient) const {
    const bool single = numTypes() == 1;
    if (spec_.switches.empty()) {
      if (single) backward<false, true>(s, r, gradient);
      else backward<false, false>(s, r, gradient);
    } else {
      if (single) backward<true, true>(s, r, gradient);
      else backward<true, false>(s, r, gradient);
    }
  }

  // Compiled per switch / single-species combination, as the potentials' loop is, so that the pair loop
  // carries no branches on options.
  template <bool kSwitch, bool kSingle>
  void backward(std::int64_t s, const SystemResiduals& r, double* gradient) const {
    const TrainingSystem& system = data().system(s);
    const std::uint8_t* type = spec_.types + system.atomBegin;
    const int n = numTypes();
    const SwitchParams* switched = kSwitch ? spec_.switches.data() : nullptr;
    const bool shift = spec_.shift;
    const auto& table = tables_.table;
    const double* shiftGradient = tables_.shiftGradient.data();
    const PairLossCoefficients& c = r.c;
    // Single-species sums stay in registers; tables add straight into their rows.
    double single[kParams] = {};
    forEachPair(system.list, data().positions(s), [&](std::int32_t i, std::int32_t j, const double* d, double r2) {
      const std::size_t slot = kSingle ? 0 : static_cast<std::size_t>(type[i]) * n + type[j];
      if (r2 >= table[slot].cutoffSq) return;
      const int row = kSingle ? 0 : spec_.rowOfSlot[slot];
      double dEnergy[kParams];
      double dFOverR[kParams];
      Grad::gradient(theta_.data() + row * kParams, r2, dEnergy, dFOverR);
      if (shift) {
        for (int q = 0; q < kParams; ++q) dEnergy[q] -= shiftGradient[row * kParams + q];
      }
      if constexpr (kSwitch) {
        // applySwitch on (e, g) = (1, 0) yields (S, −2·dS/du).
        double value = 1.0;
        double slope = 0.0;
        applySwitch(switched[slot], r2, value, slope);
        for (int q = 0; q < kParams; ++q) {
          dFOverR[q] = value * dFOverR[q] + slope * dEnergy[q];
          dEnergy[q] *= value;
        }
      }
      // ∂L/∂g of this pair: the force residuals along d, and the stress residual projected on d⊗d.
      double byFOverR = 0.0;
      if (c.forces != 0.0) {
        const double* fi = r.deltaForces + 3 * i;
        const double* fj = r.deltaForces + 3 * j;
        byFOverR += c.forces * ((fj[0] - fi[0]) * d[0] + (fj[1] - fi[1]) * d[1] + (fj[2] - fi[2]) * d[2]);
      }
      if (c.stress != 0.0) {
        const double* t = r.deltaStress;
        double projected = 0.0;
        for (int a = 0; a < 3; ++a) projected += d[a] * (t[3 * a] * d[0] + t[3 * a + 1] * d[1] + t[3 * a + 2] * d[2]);
        byFOverR += c.stress * projected;
      }
      double* out = kSingle ? single : gradient + row * kParams;
      for (int q = 0; q < kParams; ++q) out[q] += c.energy * dEnergy[q] + byFOverR * dFOverR[q];
    });
    if constexpr (kSingle) {
      for (int q = 0; q < kParams; ++q) gradient[q] += single[q];
    }
  }

  const PairLossSpec spec_;
  std::vector<double> theta_;
  PairLossTables<Grad> tables_;
};

}  // namespace

std::unique_ptr<PairLossKernel> createCpuPairLossKernel(const PairLossSpec& spec) {
  return visitPairEvaluator(spec.evaluator, [&](auto kind) -> std::unique_ptr<PairLossKernel> {
    return std::make_unique<CpuPairLossKernelOf<typename decltype(kind)::ParamGrad>>(spec);
  });
}

}  // namespace hookmd
