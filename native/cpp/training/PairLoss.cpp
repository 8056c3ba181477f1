#include "training/PairLoss.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/Error.h"
#include "core/Messages.h"
#include "platform/DeviceOperations.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {
constexpr int kMaxAtomicNumber = 118;

std::string labelOf(const PairRow& row) {
  if (row.z1 == 0 && row.z2 == 0) return "default";
  return elementSymbol(row.z1) + "-" + elementSymbol(row.z2);
}
}  // namespace

PairLoss::PairLoss(PairEvaluator evaluator, const char* name, int paramsPerPair, const std::vector<PairRow>& rows, bool shift,
                   double switchOn)
    : evaluator_(evaluator), name_(name), paramsPerPair_(paramsPerPair), rows_(rows), shift_(shift) {
  const std::string owner = std::string(name) + " loss";
  if (rows.empty()) fail("INVALID_PAIR", owner + ": no parameter rows were given");
  if (shift && switchOn != 0.0) fail("INVALID_PARAMETER", owner + ": shift and switchOn are exclusive");
  std::vector<int> species;
  for (const PairRow& row : rows) {
    const std::string where = owner + ": pairs['" + labelOf(row) + "']";
    if (row.z1 == 0 || row.z2 == 0) {
      if (row.z1 != row.z2 || rows.size() != 1) fail("INVALID_PAIR", owner + ": the default row (species 0) cannot be mixed with a pair table");
      wildcard_ = true;
    } else if (row.z1 < 1 || row.z1 > kMaxAtomicNumber || row.z2 < 1 || row.z2 > kMaxAtomicNumber) {
      fail("INVALID_PAIR", where + ": species must be atomic numbers 1..118");
    }
    if (!(std::isfinite(row.cutoff) && row.cutoff > 0.0)) fail("INVALID_CUTOFF", where + ".cutoff must be finite and > 0, got " + formatNumber(row.cutoff));
    if (switchOn != 0.0 && !(switchOn > 0.0 && switchOn < row.cutoff)) {
      fail("INVALID_SWITCH", where + ": switchOn must lie in (0, cutoff), got " + formatNumber(switchOn));
    }
    maxCutoff_ = std::max(maxCutoff_, row.cutoff);
    species.push_back(row.z1);
    species.push_back(row.z2);
  }
  std::sort(species.begin(), species.end());
  species.erase(std::unique(species.begin(), species.end()), species.end());
  zOfType_ = species;
  numTypes_ = static_cast<int>(species.size());
  typeOfZ_.assign(kMaxAtomicNumber + 1, -1);
  for (int t = 0; t < numTypes_; ++t) typeOfZ_[species[t]] = t;
  rowOfSlot_.assign(static_cast<std::size_t>(numTypes_) * numTypes_, -1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int a = wildcard_ ? 0 : typeOfZ_[rows[r].z1];
    const int b = wildcard_ ? 0 : typeOfZ_[rows[r].z2];
    if (rowOfSlot_[a * numTypes_ + b] >= 0) fail("DUPLICATE_PAIR", owner + ": pairs['" + labelOf(rows[r]) + "'] is given twice");
    rowOfSlot_[a * numTypes_ + b] = rowOfSlot_[b * numTypes_ + a] = static_cast<int>(r);
  }
  if (switchOn != 0.0) {
    switches_.resize(rowOfSlot_.size());
    for (std::size_t slot = 0; slot < rowOfSlot_.size(); ++slot) {
      if (rowOfSlot_[slot] >= 0) switches_[slot] = makeSwitchParams(switchOn, rows[rowOfSlot_[slot]].cutoff);
    }
  }
}

void PairLoss::bind(Backend& backend, const ReferenceArrays& refs) {
  const BatchStorage& storage =
      arraysFor(backend, Kernel::PairLoss, {Field::Positions, Field::Cell, Field::Pbc, Field::AtomicNumbers, Field::Ptr});
  TrainingData::requirePartition(storage, (std::string(name_) + " loss").c_str());
  auto data = std::make_unique<TrainingData>(storage, refs, maxCutoff_, name_);
  std::vector<std::uint8_t> types;
  assignTypes(*data, types);
  // The kernel keeps pointers to the set and its types; moving them below keeps their heap blocks in place.
  const PairLossSpec spec = specFor(*data, types);
  kernel_ = createKernel<operation::PairLoss>(backend, spec);
  data_ = std::move(data);
  types_ = std::move(types);
  forwarded_ = false;
}

PairLossSpec PairLoss::specFor(const TrainingData& data, const std::vector<std::uint8_t>& types) const {
  PairLossSpec spec{evaluator_, name_, paramsPerPair_, {}, shift_, numTypes_, rowOfSlot_, switches_, &data, types.data()};
  for (const PairRow& row : rows_) spec.rowCutoffs.push_back(row.cutoff);
  return spec;
}

PairLossBatch PairLoss::batch() const {
  return PairLossBatch{systems_.data(), offsets_.data(), static_cast<std::int64_t>(systems_.size())};
}

void PairLoss::assignTypes(const TrainingData& data, std::vector<std::uint8_t>& types) const {
  const std::vector<std::int32_t>& z = data.atomicNumbers();
  types.assign(z.size(), 0);
  if (wildcard_) return;
  for (std::int64_t s = 0; s < data.numSystems(); ++s) {
    const TrainingSystem& system = data.system(s);
    std::vector<bool> present(static_cast<std::size_t>(numTypes_), false);
    for (std::int32_t i = system.atomBegin; i < system.atomBegin + system.atomCount; ++i) {
      const int type = z[i] >= 0 && z[i] <= kMaxAtomicNumber ? typeOfZ_[z[i]] : -1;
      if (type < 0) {
        fail("MISSING_PAIR", std::string(name_) + " loss: no parameters for species " + elementSymbol(z[i]) + " (system " +
                                 std::to_string(s) + "); add its pairs to the model");
      }
      types[i] = static_cast<std::uint8_t>(type);
      present[type] = true;
    }
    for (int a = 0; a < numTypes_; ++a) {
      for (int b = a; b < numTypes_; ++b) {
        if (present[a] && present[b] && rowOfSlot_[a * numTypes_ + b] < 0) {
          fail("MISSING_PAIR", std::string(name_) + " loss: no parameters for the species pair " + elementSymbol(zOfType_[a]) + "-" +
                                   elementSymbol(zOfType_[b]) + " in system " + std::to_string(s));
        }
      }
    }
  }
}

void PairLoss::forward(const double* theta, const std::int32_t* systems, std::int64_t count) {
  const std::string owner = std::string(name_) + " loss";
  if (!data_) fail("NOT_BOUND", owner + ": forward() before bind()");
  for (std::int64_t k = 0; k < count; ++k) {
    if (systems[k] < 0 || systems[k] >= data_->numSystems()) {
      fail("INVALID_ARGUMENT", owner + ": system index " + std::to_string(systems[k]) + " is outside [0, " +
                                   std::to_string(data_->numSystems()) + ")");
    }
  }
  for (std::size_t p = 0; p < numParams(); ++p) {
    if (!(std::isfinite(theta[p]) && theta[p] > 0.0)) {
      fail("INVALID_PARAMETER", owner + ": parameter " + std::to_string(p % paramsPerPair_) + " of pairs['" +
                                    labelOf(rows_[p / paramsPerPair_]) + "'] must be finite and > 0, got " + formatNumber(theta[p]));
    }
  }
  forwarded_ = false;
  kernel_->setParameters(theta);
  systems_.assign(systems, systems + count);
  offsets_.resize(static_cast<std::size_t>(count) + 1);
  offsets_[0] = 0;
  for (std::int64_t k = 0; k < count; ++k) offsets_[k + 1] = offsets_[k] + 3 * static_cast<std::int64_t>(data_->system(systems[k]).atomCount);
  energy_.assign(static_cast<std::size_t>(count), 0.0);
  forces_.resize(static_cast<std::size_t>(offsets_[count]));
  virial_.assign(6 * static_cast<std::size_t>(count), 0.0);
  stress_.assign(9 * static_cast<std::size_t>(count), 0.0);
  kernel_->forward(batch(), energy_.data(), forces_.data(), virial_.data());
  for (std::int64_t k = 0; k < count; ++k) {
    const double volume = data_->system(systems_[k]).volume;
    if (volume == 0.0) continue;
    const double* v = virial_.data() + 6 * k;
    const double w[9] = {v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2]};
    // σ = −W/V, written as 0 − w so that a zero virial gives +0 (as the potentials do).
    for (int c = 0; c < 9; ++c) stress_[9 * k + c] = (0.0 - w[c]) / volume;
  }
  forwarded_ = true;
}

LossStats PairLoss::loss(const LossWeights& weights, double* gradient) {
  const std::string owner = std::string(name_) + " loss";
  if (!forwarded_) fail("NOT_FORWARDED", owner + ": loss() needs a forward() first");
  LossResiduals::checkWeights(owner.c_str(), weights);
  const LossStats stats = residuals_.compute(*data_, BatchPredictions{systems_, offsets_, energy_, forces_, stress_}, weights);
  if (gradient == nullptr) return stats;

  const std::int64_t count = static_cast<std::int64_t>(systems_.size());
  const std::size_t params = numParams();
  // Slots start on their own cache lines: neighbouring systems run on different threads, and every pair
  // adds into its system's slot.
  const std::size_t stride = (params + 7) / 8 * 8;
  slotGradients_.assign(static_cast<std::size_t>(count) * stride + 8, 0.0);
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(slotGradients_.data()) % 64 / sizeof(double);
  double* slots = slotGradients_.data() + (misalignment == 0 ? 0 : 8 - misalignment);
  const std::vector<LossSlopes>& slopes = residuals_.slopes(*data_, systems_, stats, weights);
  coefficients_.assign(static_cast<std::size_t>(count), PairLossCoefficients{});
  for (std::int64_t k = 0; k < count; ++k) {
    const TrainingSystem& system = data_->system(systems_[k]);
    PairLossCoefficients& c = coefficients_[k];
    c.energy = slopes[k].energy;
    c.forces = slopes[k].forces;
    // ∂σ/∂W = −1/V.
    if (system.hasStress) c.stress = -slopes[k].stress / system.volume;
  }
  kernel_->backward(batch(), coefficients_.data(), residuals_.deltaForces().data(), residuals_.deltaStress().data(), slots, stride);
  std::fill(gradient, gradient + params, 0.0);
  for (std::int64_t k = 0; k < count; ++k) {
    const double* part = slots + static_cast<std::size_t>(k) * stride;
    for (std::size_t p = 0; p < params; ++p) gradient[p] += part[p];
  }
  return stats;
}

}  // namespace hookmd
