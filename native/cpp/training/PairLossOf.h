// PairLossOf<Grad>: the per-system kernels of PairLoss for one pair term. Grad (math/*ParamGrad.h) names
// the header-only evaluator that gives the pair energy and force (the same code the potentials run) and
// adds their parameter derivatives. The energy shift and the XPLOR switch act on every pair term alike:
//   shift:  e − e(r_c)  ⇒  ∂e/∂θ − ∂e(r_c)/∂θ, g unchanged;
//   switch: S·e, S·g − 2e·dS/du (u = r²)  ⇒  S·∂e/∂θ and S·∂g/∂θ − 2·dS/du·∂e/∂θ.
#pragma once

#include <algorithm>
#include <vector>

#include "math/SmoothSwitch.h"
#include "cpu/CpuPairLoop.h"
#include "training/PairLoss.h"
#include "training/PairVisit.h"

namespace hookmd {

template <class Grad>
class PairLossOf final : public PairLoss {
 public:
  using Eval = typename Grad::Eval;
  using Params = typename Eval::Params;
  static constexpr int kParams = Grad::kParams;

  PairLossOf(const char* name, const std::vector<PairRow>& rows, bool shift, double switchOn)
      : PairLoss(name, kParams, rows, shift, switchOn) {}

 protected:
  void setParameters(const double* theta) override {
    theta_.assign(theta, theta + numParams());
    table_.assign(rowOfSlot().size(), Params{});
    for (std::size_t slot = 0; slot < rowOfSlot().size(); ++slot) {
      const int row = rowOfSlot()[slot];
      if (row >= 0) table_[slot] = Grad::params(theta + row * kParams, rows()[row].cutoff, shifted());
    }
    shiftGradient_.assign(numParams(), 0.0);
    if (!shifted()) return;
    for (std::size_t row = 0; row < rows().size(); ++row) {
      const double cutoff = rows()[row].cutoff;
      double unused[kParams];
      Grad::gradient(theta + row * kParams, cutoff * cutoff, shiftGradient_.data() + row * kParams, unused);
    }
  }

  // The forward pass is the potentials' own pair loop (cpu/CpuPairLoop.h), so predictions are what the
  // model computes.
  void forwardSystem(std::int64_t s, double& energy, double* forces, double* virial6) const override {
    const TrainingSystem& system = data().system(s);
    std::fill(forces, forces + 3 * static_cast<std::int64_t>(system.atomCount), 0.0);
    const ChunkTask base{&system.list, nullptr, data().positions(s), forces, types() + system.atomBegin, true};
    const bool single = numTypes() == 1;
    const SwitchParams* switched = switches().empty() ? nullptr : switches().data();
    PairSums sums;
    for (const NeighborChunk& chunk : system.list.chunks) {
      ChunkTask task = base;
      task.chunk = &chunk;
      if (switched != nullptr) {
        if (single) pairLoop<Eval, true, true, true, true>(task, table_.data(), switched, 1, sums);
        else pairLoop<Eval, true, true, true, false>(task, table_.data(), switched, numTypes(), sums);
      } else {
        if (single) pairLoop<Eval, true, true, false, true>(task, table_.data(), nullptr, 1, sums);
        else pairLoop<Eval, true, true, false, false>(task, table_.data(), nullptr, numTypes(), sums);
      }
    }
    energy = sums.energy;
    std::copy(sums.virial, sums.virial + 6, virial6);
  }

  void backwardSystem(std::int64_t s, const Coefficients& c, double* gradient) const override {
    const bool single = numTypes() == 1;
    if (switches().empty()) {
      if (single) backward<false, true>(s, c, gradient);
      else backward<false, false>(s, c, gradient);
    } else {
      if (single) backward<true, true>(s, c, gradient);
      else backward<true, false>(s, c, gradient);
    }
  }

 private:
  // Compiled per switch / single-species combination, as the potentials' loop is, so that the pair loop
  // carries no branches on options.
  template <bool kSwitch, bool kSingle>
  void backward(std::int64_t s, const Coefficients& c, double* gradient) const {
    const TrainingSystem& system = data().system(s);
    const std::uint8_t* type = types() + system.atomBegin;
    const int n = numTypes();
    const SwitchParams* switched = kSwitch ? switches().data() : nullptr;
    const bool shift = shifted();
    // Single-species sums stay in registers; tables add straight into their rows.
    double single[kParams] = {};
    forEachPair(system.list, data().positions(s), [&](std::int32_t i, std::int32_t j, const double* d, double r2) {
      const std::size_t slot = kSingle ? 0 : static_cast<std::size_t>(type[i]) * n + type[j];
      if (r2 >= table_[slot].cutoffSq) return;
      const int row = kSingle ? 0 : rowOfSlot()[slot];
      double dEnergy[kParams];
      double dFOverR[kParams];
      Grad::gradient(theta_.data() + row * kParams, r2, dEnergy, dFOverR);
      if (shift) {
        for (int q = 0; q < kParams; ++q) dEnergy[q] -= shiftGradient_[row * kParams + q];
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
        const double* fi = c.deltaForces + 3 * i;
        const double* fj = c.deltaForces + 3 * j;
        byFOverR += c.forces * ((fj[0] - fi[0]) * d[0] + (fj[1] - fi[1]) * d[1] + (fj[2] - fi[2]) * d[2]);
      }
      if (c.stress != 0.0) {
        const double* t = c.deltaStress;
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

  std::vector<double> theta_;
  std::vector<Params> table_;
  std::vector<double> shiftGradient_;
};

}  // namespace hookmd
