// Host side of the GPU force-matching loss. At bind it flattens the set's half lists into one row per atom
// that holds every pair twice (the atom's own entries first, then its partners'), and uploads the rows,
// the shift tables, the wrapped positions and the species once: positions never move during a fit. Each
// forward stages the mini-batch's chunk table and copies back the predictions; each backward stages the
// residuals and copies back one gradient slot per listed system, which PairLoss adds in mini-batch order,
// as it does the CPU's.
#include "cuda/training/CudaPairLoss.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "core/Error.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/training/CudaPairLoss.cuh"
#include "cuda/core/DeviceUpload.h"
#include "math/PairEvaluators.h"
#include "kernels/PairLossTables.h"
#include "neighbor/PairVisit.h"

namespace hookmd {

namespace {

// Buffers grow (BufferFit::Grow), so a loop over mini-batches of varying size reuses one block.
void reserve(DeviceBuffer& buffer, std::size_t bytes, const std::string& operation) {
  fitBuffer(buffer, bytes, BufferFit::Grow, operation.c_str());
}

template <typename T>
void stage(DeviceBuffer& buffer, const T* values, std::size_t count, const std::string& operation) {
  uploadBytes(buffer, values, count * sizeof(T), BufferFit::Grow, operation.c_str());
}

/** One thread per atom of a chunk: the smallest power of two ≥ 32 that covers the set's largest chunk. */
int threadsFor(std::int32_t largestSystem) {
  const std::int32_t atoms = std::min(largestSystem, kernel::kLossChunkAtoms);
  int threads = 32;
  while (threads < atoms && threads < kernel::kLossMaxThreads) threads *= 2;
  return threads;
}

template <class Grad>
class CudaPairLossOf final : public PairLossKernel {
 public:
  using Params = typename Grad::Eval::Params;
  static constexpr int kParams = Grad::kParams;

  explicit CudaPairLossOf(const PairLossSpec& spec)
      : spec_(spec),
        owner_(std::string(spec.model) + " loss"),
        numParams_(spec.rowCutoffs.size() * kParams) {
    const std::string operation = owner_ + ": bind";
    uploadSet(*spec.data, spec.types, operation);
    const std::vector<std::int32_t> rowOfSlot(spec.rowOfSlot.begin(), spec.rowOfSlot.end());
    stage(d_rowOfSlot_, rowOfSlot.data(), rowOfSlot.size(), operation);
    stage(d_switches_, spec.switches.data(), spec.switches.size(), operation);
  }

  void setParameters(const double* theta) override {
    const std::string operation = owner_ + ": parameters";
    tables_.update(spec_, theta);
    stage(d_table_, tables_.table.data(), tables_.table.size(), operation);
    stage(d_theta_, theta, numParams_, operation);
    if (spec_.shift) stage(d_shiftGradient_, tables_.shiftGradient.data(), tables_.shiftGradient.size(), operation);
  }

  void forward(const PairLossBatch& batch, double* energy, double* forces, double* virial) override {
    const std::string operation = owner_ + ": forward";
    const char* op = operation.c_str();
    stageChunks(batch, operation);
    const auto count = static_cast<std::size_t>(batch.count);
    const auto forceValues = static_cast<std::size_t>(batch.offsets[batch.count]);
    reserve(d_forces_, forceValues * sizeof(double), operation);
    reserve(d_chunkSums_, chunks_.size() * kSums * sizeof(double), operation);
    reserve(d_results_, count * kSums * sizeof(double), operation);
    const kernel::LossForwardArgs args{set(), params(), lossBatch(), d_forces_.as<double>(), d_chunkSums_.as<double>(),
                                       d_results_.as<double>()};
    cudaCheck(kernel::lossForward(args), op);
    // Blocking copies: a fault of the kernels surfaces here, named after this loss.
    downloadBytes(forces, d_forces_.data(), forceValues * sizeof(double), op);
    results_.resize(count * kSums);
    downloadBytes(results_.data(), d_results_.data(), results_.size() * sizeof(double), op);
    for (std::size_t k = 0; k < count; ++k) {
      energy[k] = results_[kSums * k];
      std::copy(results_.begin() + kSums * k + 1, results_.begin() + kSums * (k + 1), virial + 6 * k);
    }
  }

  // The batch is the last forward's, whose chunk table is still on the device.
  void backward(const PairLossBatch& batch, const PairLossCoefficients* coefficients, const double* deltaForces,
                const double* deltaStress, double* slots, std::size_t stride) override {
    const std::string operation = owner_ + ": backward";
    const char* op = operation.c_str();
    const auto count = static_cast<std::size_t>(batch.count);
    if (count == 0) return;
    coefficients_.resize(3 * count);
    for (std::size_t k = 0; k < count; ++k) {
      coefficients_[3 * k] = coefficients[k].energy;
      coefficients_[3 * k + 1] = coefficients[k].forces;
      coefficients_[3 * k + 2] = coefficients[k].stress;
    }
    stage(d_coefficients_, coefficients_.data(), coefficients_.size(), operation);
    stage(d_deltaForces_, deltaForces, static_cast<std::size_t>(batch.offsets[batch.count]), operation);
    stage(d_deltaStress_, deltaStress, 9 * count, operation);
    reserve(d_chunkGradients_, chunks_.size() * numParams_ * sizeof(double), operation);
    reserve(d_gradients_, count * numParams_ * sizeof(double), operation);
    const kernel::LossBackwardArgs args{set(),
                                        params(),
                                        lossBatch(),
                                        d_coefficients_.as<const double>(),
                                        d_deltaForces_.as<const double>(),
                                        d_deltaStress_.as<const double>(),
                                        d_chunkGradients_.as<double>(),
                                        d_gradients_.as<double>()};
    cudaCheck(kernel::lossBackward(args), op);
    gradients_.resize(count * numParams_);
    downloadBytes(gradients_.data(), d_gradients_.data(), gradients_.size() * sizeof(double), op);
    for (std::size_t k = 0; k < count; ++k) std::copy_n(gradients_.data() + k * numParams_, numParams_, slots + k * stride);
  }

 private:
  static constexpr int kSums = 7;

  /**
   * Atom a's row: the entries of the half list that a owns, in list order, then one entry for every pair
   * owned by a partner, packed the same way with the partner as the other atom.
   */
  void uploadSet(const TrainingData& data, const std::uint8_t* types, const std::string& operation) {
    const auto atoms = static_cast<std::size_t>(data.numAtoms());
    std::vector<kernel::LossSystem> systems(static_cast<std::size_t>(data.numSystems()));
    std::vector<double> positions(3 * atoms);
    std::vector<double> shifts;
    std::vector<std::int32_t> owned(atoms, 0);
    std::vector<std::int64_t> rowStart(atoms + 1, 0);
    std::int32_t largest = 0;
    for (std::int64_t s = 0; s < data.numSystems(); ++s) {
      const TrainingSystem& system = data.system(s);
      const SystemNeighborList& list = system.list;
      systems[s] = {system.atomBegin, static_cast<std::int64_t>(shifts.size() / 3), system.atomCount, list.imageBits, list.imageMask};
      shifts.insert(shifts.end(), list.shifts.begin(), list.shifts.end());
      std::copy(data.positions(s), data.positions(s) + 3 * static_cast<std::int64_t>(system.atomCount),
                positions.begin() + 3 * static_cast<std::int64_t>(system.atomBegin));
      largest = std::max(largest, system.atomCount);
      // rowStart[a + 1] counts a's entries for now; the scan below turns counts into offsets.
      std::int64_t* length = rowStart.data() + 1 + system.atomBegin;
      forEachEntry(list, [&](std::int32_t i, std::uint32_t packed) {
        ++owned[system.atomBegin + i];
        ++length[i];
        ++length[packed >> list.imageBits];
      });
    }
    for (std::size_t a = 0; a < atoms; ++a) rowStart[a + 1] += rowStart[a];
    std::vector<std::uint32_t> entries(static_cast<std::size_t>(rowStart[atoms]));
    std::vector<std::int64_t> ownCursor(rowStart.begin(), rowStart.end() - 1);
    std::vector<std::int64_t> partnerCursor(atoms);
    for (std::size_t a = 0; a < atoms; ++a) partnerCursor[a] = rowStart[a] + owned[a];
    for (std::int64_t s = 0; s < data.numSystems(); ++s) {
      const TrainingSystem& system = data.system(s);
      const SystemNeighborList& list = system.list;
      forEachEntry(list, [&](std::int32_t i, std::uint32_t packed) {
        const std::uint32_t j = packed >> list.imageBits;
        entries[ownCursor[system.atomBegin + i]++] = packed;
        entries[partnerCursor[system.atomBegin + j]++] = (static_cast<std::uint32_t>(i) << list.imageBits) | (packed & list.imageMask);
      });
    }
    stage(d_systems_, systems.data(), systems.size(), operation);
    stage(d_positions_, positions.data(), positions.size(), operation);
    stage(d_shifts_, shifts.data(), shifts.size(), operation);
    stage(d_rowStart_, rowStart.data(), rowStart.size(), operation);
    stage(d_rowOwned_, owned.data(), owned.size(), operation);
    stage(d_entries_, entries.data(), entries.size(), operation);
    if (spec_.numTypes > 1) stage(d_types_, types, atoms, operation);
    threads_ = threadsFor(largest);
  }

  /** Cuts every listed system into chunks of at most kLossChunkAtoms atoms and uploads the table. */
  void stageChunks(const PairLossBatch& batch, const std::string& operation) {
    chunks_.clear();
    chunkOffset_.assign(1, 0);
    for (std::int64_t k = 0; k < batch.count; ++k) {
      const std::int32_t atoms = spec_.data->system(batch.systems[k]).atomCount;
      for (std::int32_t begin = 0; begin < atoms; begin += kernel::kLossChunkAtoms) {
        chunks_.push_back({batch.offsets[k] / 3, static_cast<std::int32_t>(k), batch.systems[k], begin,
                           std::min(begin + kernel::kLossChunkAtoms, atoms)});
      }
      chunkOffset_.push_back(static_cast<std::int32_t>(chunks_.size()));
    }
    stage(d_chunks_, chunks_.data(), chunks_.size(), operation);
    stage(d_chunkOffset_, chunkOffset_.data(), chunkOffset_.size(), operation);
    count_ = batch.count;
  }

  kernel::LossSet set() const {
    return {d_systems_.as<const kernel::LossSystem>(), d_positions_.as<const double>(),
            spec_.numTypes > 1 ? d_types_.as<const std::uint8_t>() : nullptr, d_rowStart_.as<const std::int64_t>(),
            d_rowOwned_.as<const std::int32_t>(), d_entries_.as<const std::uint32_t>(), d_shifts_.as<const double>()};
  }

  kernel::LossParams params() const {
    return {static_cast<int>(spec_.evaluator),
            spec_.numTypes,
            static_cast<int>(spec_.rowCutoffs.size()),
            kParams,
            d_table_.data(),
            spec_.switches.empty() ? nullptr : d_switches_.as<const SwitchParams>(),
            d_rowOfSlot_.as<const std::int32_t>(),
            d_theta_.as<const double>(),
            spec_.shift ? d_shiftGradient_.as<const double>() : nullptr};
  }

  kernel::LossBatch lossBatch() const {
    return {d_chunks_.as<const kernel::LossChunk>(), static_cast<std::int64_t>(chunks_.size()),
            d_chunkOffset_.as<const std::int32_t>(), count_, threads_};
  }

  const PairLossSpec spec_;
  const std::string owner_;
  const std::size_t numParams_;
  int threads_ = 32;
  PairLossTables<Grad> tables_;
  std::vector<kernel::LossChunk> chunks_;
  std::vector<std::int32_t> chunkOffset_;
  std::int64_t count_ = 0;
  std::vector<double> results_;
  std::vector<double> gradients_;
  std::vector<double> coefficients_;

  // The bound set, uploaded once.
  DeviceBuffer d_systems_;
  DeviceBuffer d_positions_;
  DeviceBuffer d_types_;
  DeviceBuffer d_rowStart_;
  DeviceBuffer d_rowOwned_;
  DeviceBuffer d_entries_;
  DeviceBuffer d_shifts_;
  DeviceBuffer d_rowOfSlot_;
  DeviceBuffer d_switches_;
  // θ and what it turns into.
  DeviceBuffer d_table_;
  DeviceBuffer d_theta_;
  DeviceBuffer d_shiftGradient_;
  // The mini-batch and the passes' outputs.
  DeviceBuffer d_chunks_;
  DeviceBuffer d_chunkOffset_;
  DeviceBuffer d_forces_;
  DeviceBuffer d_chunkSums_;
  DeviceBuffer d_results_;
  DeviceBuffer d_coefficients_;
  DeviceBuffer d_deltaForces_;
  DeviceBuffer d_deltaStress_;
  DeviceBuffer d_chunkGradients_;
  DeviceBuffer d_gradients_;
};

}  // namespace

std::unique_ptr<PairLossKernel> createCudaPairLossKernel(const PairLossSpec& spec) {
  return visitPairEvaluator(spec.evaluator, [&](auto kind) -> std::unique_ptr<PairLossKernel> {
    return std::make_unique<CudaPairLossOf<typename decltype(kind)::ParamGrad>>(spec);
  });
}

}  // namespace hookmd
