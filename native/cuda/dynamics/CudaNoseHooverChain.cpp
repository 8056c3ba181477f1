// The CUDA NoseHooverChain (dynamics/NoseHooverChain.h): both phases are per-system programs
// (CudaNoseHooverSteps.cuh) over the device arrays; the chain rows live on the device in the CPU layout.
#include <vector>

#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/dynamics/CudaFrozenCounts.h"
#include "cuda/dynamics/CudaIntegratorTypes.h"
#include "cuda/dynamics/CudaNoseHooverSteps.cuh"
#include "cuda/dynamics/CudaSystemLayout.h"
#include "cuda/dynamics/CudaSystemRows.h"
#include "cuda/core/DeviceUpload.h"
#include "dynamics/NoseHooverChain.h"

namespace hookmd {

namespace {

class CudaNoseHooverChain final : public Integrator {
 public:
  CudaNoseHooverChain(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems)
      : backend_(backend),
        reference_(parameters, numSystems),
        chainLength_(static_cast<int>(parameters.scalar("chainLength", 0.0))),
        rows_(backend, "NoseHooverChain", std::vector<double>(2 * chainLength_ + 1, 0.0), numSystems),
        layout_("NoseHooverChain") {
    uploadSystems(parameters, numSystems);
  }
  const char* name() const noexcept override { return "NoseHooverChain"; }

  void preUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    backend_.onDevice({Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr, Field::Status},
                      {Field::Positions, Field::Velocities});
    cudaCheck(kernel::noseHooverPre(args(context, backend_.deviceData<double>(Field::Positions))), "NoseHooverChain");
    layout_.chargeStep(backend_, DeviceOp::NoseHooverProgram, DeviceOp::NoseHooverProgramChunked);
  }

  void postUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    backend_.onDevice({Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr, Field::Status},
                      {Field::Velocities});
    cudaCheck(kernel::noseHooverPost(args(context, nullptr)), "NoseHooverChain");
    layout_.chargeStep(backend_, DeviceOp::NoseHooverProgram, DeviceOp::NoseHooverProgramChunked);
  }

  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override {
    reference_.updateParameters(parameters, numSystems);
    uploadSystems(parameters, numSystems);
  }

  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  // Called after reference_ accepted the parameters.
  void uploadSystems(const Parameters& parameters, std::int64_t numSystems) {
    const auto& dt = parameters.perSystem("NoseHooverChain", "dt", numSystems);
    const auto& temperature = parameters.perSystem("NoseHooverChain", "temperature", numSystems);
    const auto& tdamp = parameters.perSystem("NoseHooverChain", "tdamp", numSystems);
    std::vector<kernel::ChainSystem> systems(static_cast<std::size_t>(numSystems));
    for (std::size_t s = 0; s < systems.size(); ++s) systems[s] = kernel::ChainSystem{dt[s], temperature[s], tdamp[s]};
    uploadCharged(backend_, d_systems_, systems, "NoseHooverChain");
    parameterCount_ = systems.size();
  }

  kernel::NoseHooverArgs args(const StepContext& context, double* positions) {
    return kernel::NoseHooverArgs{layout_.prepare(backend_),
                                  SystemSelection{backend_.deviceData<const std::int32_t>(Field::Status), context.exitStatus, context.stage},
                                  positions,
                                  backend_.deviceData<double>(Field::Velocities),
                                  backend_.deviceData<const double>(Field::Forces),
                                  backend_.deviceData<const double>(Field::Masses),
                                  d_systems_.as<const kernel::ChainSystem>(),
                                  rows_.device(),
                                  chainLength_,
                                  backend_.units().kB,
                                  backend_.units().forceToAccel,
                                  frozen_.device(context, backend_.numSystems())};
  }

  CudaBackend& backend_;
  // The CPU reference, kept only to check the parameters by its rules and messages (chainLength's range,
  // and that it never changes); its own state is never used.
  NoseHooverChain reference_;
  int chainLength_;
  CudaSystemRows rows_;
  CudaSystemLayout layout_;
  CudaFrozenCounts frozen_{"NoseHooverChain"};
  DeviceBuffer d_systems_;
  std::size_t parameterCount_ = 0;
};

}  // namespace

std::unique_ptr<Integrator> makeCudaNoseHooverChain(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaNoseHooverChain>(backend, parameters, numSystems);
}

}  // namespace hookmd
