#include "training/LossResiduals.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "core/Messages.h"

namespace hookmd {

namespace {
void addStats(LossStats& total, const LossStats& part) {
  total.energy += part.energy;
  total.forces += part.forces;
  total.stress += part.stress;
  total.energyAbs += part.energyAbs;
  total.energySq += part.energySq;
  total.energyCount += part.energyCount;
  total.forceAbs += part.forceAbs;
  total.forceSq += part.forceSq;
  total.forceCount += part.forceCount;
  total.stressAbs += part.stressAbs;
  total.stressSq += part.stressSq;
  total.stressCount += part.stressCount;
}
}  // namespace

void LossResiduals::checkWeights(const char* owner, const LossWeights& weights) {
  for (double w : {weights.energy, weights.forces, weights.stress}) {
    if (!(std::isfinite(w) && w >= 0.0)) fail("INVALID_ARGUMENT", std::string(owner) + ": loss weights must be finite and >= 0, got " + formatNumber(w));
  }
}

LossStats LossResiduals::compute(const TrainingData& data, const BatchPredictions& p, const LossWeights& weights) {
  const std::int64_t count = static_cast<std::int64_t>(p.systems.size());
  energyResidual_.assign(static_cast<std::size_t>(count), 0.0);
  deltaForces_.assign(p.forces.size(), 0.0);
  deltaStress_.assign(p.stress.size(), 0.0);
  slotStats_.assign(static_cast<std::size_t>(count), LossStats{});
  ThreadPool::global().parallelFor(0, count, 1, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t k = lo; k < hi; ++k) {
      const TrainingSystem& system = data.system(p.systems[k]);
      LossStats& part = slotStats_[k];
      if (system.hasEnergy) {
        const double difference = p.energy[k] - system.refEnergy;
        const double perAtom = difference / std::max<std::int32_t>(system.atomCount, 1);
        energyResidual_[k] = weights.perAtomEnergy ? perAtom : difference;
        part.energy = energyResidual_[k] * energyResidual_[k];
        part.energyAbs = std::fabs(perAtom);
        part.energySq = perAtom * perAtom;
        part.energyCount = 1;
      }
      // Sums in locals, stored once: neighbouring slots share cache lines across threads.
      if (system.hasForces) {
        const double* reference = data.refForces(p.systems[k]);
        const std::int64_t begin = p.offsets[k];
        const std::int64_t length = p.offsets[k + 1] - begin;
        double absolute = 0.0;
        double squared = 0.0;
        for (std::int64_t c = 0; c < length; ++c) {
          const double delta = p.forces[begin + c] - reference[c];
          deltaForces_[begin + c] = delta;
          absolute += std::fabs(delta);
          squared += delta * delta;
        }
        part.forceAbs = absolute;
        part.forceSq = part.forces = squared;
        part.forceCount = length;
      }
      if (system.hasStress) {
        double absolute = 0.0;
        double squared = 0.0;
        for (int c = 0; c < 9; ++c) {
          const double delta = p.stress[9 * k + c] - system.refStress[c];
          deltaStress_[9 * k + c] = delta;
          absolute += std::fabs(delta);
          squared += delta * delta;
        }
        part.stressAbs = absolute;
        part.stressSq = part.stress = squared;
        part.stressCount = 9;
      }
    }
  });
  LossStats total;
  for (const LossStats& part : slotStats_) addStats(total, part);
  // Until here energy/forces/stress held sums of squares; turn them into the weighted mean terms.
  total.energy = total.energyCount > 0 ? weights.energy * total.energy / static_cast<double>(total.energyCount) : 0.0;
  total.forces = total.forceCount > 0 ? weights.forces * total.forces / static_cast<double>(total.forceCount) : 0.0;
  total.stress = total.stressCount > 0 ? weights.stress * total.stress / static_cast<double>(total.stressCount) : 0.0;
  total.total = total.energy + total.forces + total.stress;
  return total;
}

const std::vector<LossSlopes>& LossResiduals::slopes(const TrainingData& data, const std::vector<std::int32_t>& systems, const LossStats& stats,
                                                     const LossWeights& weights) {
  const double energyScale = stats.energyCount > 0 ? 2.0 * weights.energy / static_cast<double>(stats.energyCount) : 0.0;
  const double forceScale = stats.forceCount > 0 ? 2.0 * weights.forces / static_cast<double>(stats.forceCount) : 0.0;
  const double stressScale = stats.stressCount > 0 ? 2.0 * weights.stress / static_cast<double>(stats.stressCount) : 0.0;
  slopes_.assign(systems.size(), LossSlopes{});
  for (std::size_t k = 0; k < systems.size(); ++k) {
    const TrainingSystem& system = data.system(systems[k]);
    LossSlopes& c = slopes_[k];
    if (system.hasEnergy) {
      const double atoms = weights.perAtomEnergy ? std::max<std::int32_t>(system.atomCount, 1) : 1.0;
      c.energy = energyScale * energyResidual_[k] / atoms;
    }
    if (system.hasForces) c.forces = forceScale;
    if (system.hasStress) c.stress = stressScale;
  }
  return slopes_;
}

}  // namespace hookmd
