// The CUDA FIRE, FIRE2 and GradientDescent (dynamics/Fire.h, Fire2.h, GradientDescent.h): each preUpdate is
// one per-system program (CudaMinimizerSteps.cuh) over the device arrays; per-system parameters, state rows
// and FIRE's own velocities live on the device, in the CPU layout, and the batch velocities of the systems
// a step updates are held at zero as the CPU Optimizer holds them (dynamics/Optimizer.h).
#include <string>
#include <vector>

#include "cuda/dynamics/CudaAtomRows.h"
#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/dynamics/CudaIntegratorTypes.h"
#include "cuda/dynamics/CudaMinimizerSteps.cuh"
#include "cuda/dynamics/CudaSmallStep.h"
#include "cuda/dynamics/CudaSystemLayout.h"
#include "cuda/dynamics/CudaSystemRows.h"
#include "cuda/core/DeviceUpload.h"
#include "dynamics/StateParts.h"

namespace hookmd {

namespace {

/** The per-system values of the nine FIRE/FIRE2 parameters, in the order of FireParameters/Fire2Parameters. */
template <typename Params>
std::vector<Params> fireParameters(const char* owner, const char* delay, const Parameters& parameters, std::int64_t numSystems) {
  auto get = [&](const char* name) { return parameters.perSystem(owner, name, numSystems); };
  const auto dt = get("dt"), dtMax = get("dtMax"), dtMin = get("dtMin"), maxStep = get("maxStep"), nDelay = get(delay),
             fInc = get("fInc"), fDec = get("fDec"), alphaStart = get("alphaStart"), fAlpha = get("fAlpha");
  std::vector<Params> systems(static_cast<std::size_t>(numSystems));
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s] = Params{dt[s], dtMax[s], dtMin[s], maxStep[s], nDelay[s], fInc[s], fDec[s], alphaStart[s], fAlpha[s]};
  }
  return systems;
}

/** Every minimizer step reads and writes these, and writes the batch velocities. */
const FieldSet kMinimizerReads{Field::Positions, Field::Velocities, Field::Forces, Field::Ptr, Field::Status};
const FieldSet kMinimizerWrites{Field::Positions, Field::Velocities};

/** What every minimizer step reads; call onDevice() first. `velocities`: the optimizer's own, or null. */
kernel::MinimizerArrays minimizerArrays(CudaBackend& backend, CudaSystemLayout& layout, const StepContext& context, double* velocities) {
  return kernel::MinimizerArrays{layout.prepare(backend),
                                 SystemSelection{backend.deviceData<const std::int32_t>(Field::Status), context.exitStatus, context.stage},
                                 backend.deviceData<double>(Field::Positions),
                                 velocities,
                                 backend.deviceData<const double>(Field::Forces),
                                 backend.deviceData<double>(Field::Velocities)};
}

/** FIRE and FIRE2 differ only in their parameter names, their step and their fresh row. */
template <typename Params>
class CudaFireFamily final : public Integrator, public CudaSmallStep {
 public:
  using Step = cudaError_t (*)(const kernel::MinimizerArrays&, const Params*, double*);

  CudaFireFamily(CudaBackend& backend, const char* name, const char* delay, std::vector<double> fresh, Step step,
                 DeviceOp single, DeviceOp chunked, const Parameters& parameters, std::int64_t numSystems)
      : backend_(backend),
        name_(name),
        delay_(delay),
        step_(step),
        single_(single),
        chunked_(chunked),
        rows_(backend, name, std::move(fresh), numSystems),
        velocities_(backend, name, 3, numSystems),
        layout_(name) {
    updateParameters(parameters, numSystems);
  }
  const char* name() const noexcept override { return name_; }

  // The whole step runs here, with the forces of the current positions.
  void preUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    velocities_.fit();
    backend_.onDevice(kMinimizerReads, kMinimizerWrites);
    cudaCheck(step_(minimizerArrays(backend_, layout_, context, velocities_.device()), d_parameters_.as<const Params>(), rows_.device()), name_);
    layout_.chargeStep(backend_, single_, chunked_);
  }
  void postUpdate(const StepContext&) override {}

  kernel::SmallIntegratorArgs smallStep(std::int64_t numSystems) override {
    rows_.requireCount(numSystems, parameterCount_);
    velocities_.fit();
    const auto type = std::string(name_) == "FIRE" ? kernel::SmallIntegrator::Fire : kernel::SmallIntegrator::Fire2;
    return {type, d_parameters_.data(), rows_.device(), nullptr, nullptr, velocities_.device()};
  }

  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override {
    const std::vector<Params> systems = fireParameters<Params>(name_, delay_, parameters, numSystems);
    uploadCharged(backend_, d_parameters_, systems, name_);
    parameterCount_ = systems.size();
  }

  /** The CPU optimizer's layout (dynamics/Optimizer.h): the rows, then the velocities, as joinState() parts. */
  std::vector<double> state() const override { return joinState({rows_.save(), velocities_.save()}); }
  void loadState(const std::vector<double>& state) override {
    const std::vector<std::vector<double>> parts = splitState(state, 2, name_);
    velocities_.check(parts[1]);
    rows_.load(parts[0]);
    velocities_.load(parts[1]);
  }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override {
    rows_.remap(keep, added);
    velocities_.remap(keep, added);
  }

 private:
  CudaBackend& backend_;
  const char* name_;
  const char* delay_;
  Step step_;
  DeviceOp single_;
  DeviceOp chunked_;
  CudaSystemRows rows_;
  CudaAtomRows velocities_;
  CudaSystemLayout layout_;
  DeviceBuffer d_parameters_;
  std::size_t parameterCount_ = 0;
};

cudaError_t fireStep(const kernel::MinimizerArrays& arrays, const FireParameters* parameters, double* rows) {
  return kernel::fireStep(kernel::FireStepArgs{arrays, parameters, rows});
}

cudaError_t fire2Step(const kernel::MinimizerArrays& arrays, const Fire2Parameters* parameters, double* rows) {
  return kernel::fire2Step(kernel::Fire2StepArgs{arrays, parameters, rows});
}

class CudaGradientDescent final : public Integrator, public CudaSmallStep {
 public:
  CudaGradientDescent(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems)
      : backend_(backend), rows_(backend, "GradientDescent", {}, numSystems), layout_("GradientDescent") {
    updateParameters(parameters, numSystems);
  }
  const char* name() const noexcept override { return "GradientDescent"; }

  void preUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    backend_.onDevice(kMinimizerReads, kMinimizerWrites);
    const kernel::MinimizerArrays arrays = minimizerArrays(backend_, layout_, context, nullptr);
    cudaCheck(kernel::gradientDescentStep(kernel::GradientDescentStepArgs{arrays, d_stepSize_.as<const double>(),
                                                                          d_maxStep_.as<const double>()}),
              "GradientDescent");
    layout_.chargeStep(backend_, DeviceOp::GradientDescentProgram, DeviceOp::GradientDescentProgramChunked);
  }
  void postUpdate(const StepContext&) override {}

  kernel::SmallIntegratorArgs smallStep(std::int64_t numSystems) override {
    rows_.requireCount(numSystems, parameterCount_);
    return {kernel::SmallIntegrator::GradientDescent, nullptr, nullptr, d_stepSize_.as<const double>(), d_maxStep_.as<const double>(), nullptr};
  }

  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override {
    const auto& stepSize = parameters.perSystem("GradientDescent", "stepSize", numSystems);
    const auto& maxStep = parameters.perSystem("GradientDescent", "maxStep", numSystems);
    uploadCharged(backend_, d_stepSize_, stepSize, "GradientDescent");
    uploadCharged(backend_, d_maxStep_, maxStep, "GradientDescent");
    parameterCount_ = stepSize.size();
  }

  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  CudaBackend& backend_;
  CudaSystemRows rows_;
  CudaSystemLayout layout_;
  DeviceBuffer d_stepSize_;
  DeviceBuffer d_maxStep_;
  std::size_t parameterCount_ = 0;
};

}  // namespace

std::unique_ptr<Integrator> makeCudaFire(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaFireFamily<FireParameters>>(backend, "FIRE", "nMin", std::vector<double>{0.0, 0.0, 0.0, 1.0},
                                                          fireStep, DeviceOp::FireProgram, DeviceOp::FireProgramChunked,
                                                          parameters, numSystems);
}

std::unique_ptr<Integrator> makeCudaFire2(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaFireFamily<Fire2Parameters>>(backend, "FIRE2", "nDelay", std::vector<double>{0.0, 0.0, 0.0, 0.0},
                                                           fire2Step, DeviceOp::FireTwoProgram, DeviceOp::FireTwoProgramChunked,
                                                           parameters, numSystems);
}

std::unique_ptr<Integrator> makeCudaGradientDescent(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaGradientDescent>(backend, parameters, numSystems);
}

}  // namespace hookmd
