// The CUDA VelocityVerlet and Langevin (dynamics/VelocityVerlet.h, dynamics/Langevin.h): per-atom kernels
// (CudaAtomSteps.cuh) over the device arrays, and for Langevin's preUpdate a per-system program
// (CudaLangevinSteps.cuh), with the per-system time steps and thermostat constants in device buffers
// uploaded by updateParameters.
#include <vector>

#include "core/Error.h"
#include "cuda/dynamics/CudaAtomSteps.cuh"
#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/dynamics/CudaFrozenCounts.h"
#include "cuda/dynamics/CudaLangevinSteps.cuh"
#include "cuda/dynamics/CudaSystemLayout.h"
#include "cuda/dynamics/CudaIntegratorTypes.h"
#include "cuda/dynamics/CudaSmallStep.h"
#include "cuda/dynamics/CudaSystemRows.h"
#include "cuda/core/DeviceUpload.h"
#include "dynamics/Langevin.h"
#include "math/LangevinUpdate.h"

namespace hookmd {

namespace {

/** The per-atom kernels' arrays; call onDevice() with every field they read and write first. */
kernel::AtomStepArgs atomArgs(CudaBackend& backend, const StepContext& context, const DeviceBuffer& dt) {
  return kernel::AtomStepArgs{backend.numAtoms(),
                              backend.deviceData<const std::int32_t>(Field::SystemIndex),
                              SystemSelection{backend.deviceData<const std::int32_t>(Field::Status), context.exitStatus, context.stage},
                              backend.deviceData<double>(Field::Positions),
                              backend.deviceData<double>(Field::Velocities),
                              backend.deviceData<const double>(Field::Forces),
                              backend.deviceData<const double>(Field::Masses),
                              backend.units().forceToAccel,
                              dt.as<const double>()};
}

class CudaVelocityVerlet final : public Integrator, public CudaSmallStep {
 public:
  CudaVelocityVerlet(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) : backend_(backend) {
    updateParameters(parameters, numSystems);
  }
  const char* name() const noexcept override { return "VelocityVerlet"; }
  bool readsEnergy() const noexcept override { return false; }

  void preUpdate(const StepContext& context) override {
    requireParameters();
    backend_.onDevice({Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr, Field::Status},
                      {Field::Positions, Field::Velocities});
    cudaCheck(kernel::verletKickDrift(atomArgs(backend_, context, d_dt_)), "VelocityVerlet");
    backend_.chargeAtomKernel(DeviceOp::VerletKickDrift);
  }

  void postUpdate(const StepContext& context) override {
    requireParameters();
    backend_.onDevice({Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr, Field::Status},
                      {Field::Velocities});
    kernel::AtomStepArgs args = atomArgs(backend_, context, d_dt_);
    args.d_positions = nullptr;
    cudaCheck(kernel::verletKick(args), "VelocityVerlet");
    backend_.chargeAtomKernel(DeviceOp::VerletKick);
  }

  kernel::SmallIntegratorArgs smallStep(std::int64_t) override {
    requireParameters();
    return {kernel::SmallIntegrator::VelocityVerlet, nullptr, nullptr, d_dt_.as<const double>(), nullptr, nullptr};
  }

  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override {
    uploadCharged(backend_, d_dt_, parameters.perSystem("VelocityVerlet", "dt", numSystems), "VelocityVerlet");
    parameterCount_ = numSystems;
  }

  void remap(const std::vector<std::int64_t>&, std::int64_t) override {}

 private:
  // The CPU class would read past its dt vector; on the device that would be a fault no later call survives.
  void requireParameters() const {
    if (parameterCount_ == backend_.numSystems()) return;
    fail("INVALID_PARAMETER", "VelocityVerlet: the parameters cover " + std::to_string(parameterCount_) +
                                  " systems but the batch has " + std::to_string(backend_.numSystems()) +
                                  " (updateParameters after a refill)");
  }

  CudaBackend& backend_;
  DeviceBuffer d_dt_;
  std::int64_t parameterCount_ = 0;
};

class CudaLangevin final : public Integrator, public CudaSmallStep {
 public:
  CudaLangevin(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems)
      : backend_(backend), rows_(backend, "Langevin", {}, numSystems) {
    updateParameters(parameters, numSystems);
  }
  const char* name() const noexcept override { return "Langevin"; }
  bool readsEnergy() const noexcept override { return false; }

  void preUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    backend_.onDevice({Field::Positions, Field::Velocities, Field::Forces, Field::Masses, Field::Ptr, Field::SystemId,
                       Field::SystemIndex, Field::Status},
                      {Field::Positions, Field::Velocities});
    const kernel::LangevinArgs args{layout_.prepare(backend_),
                                    SystemSelection{backend_.deviceData<const std::int32_t>(Field::Status), context.exitStatus, context.stage},
                                    backend_.deviceData<double>(Field::Positions),
                                    backend_.deviceData<double>(Field::Velocities),
                                    backend_.deviceData<const double>(Field::Forces),
                                    backend_.deviceData<const double>(Field::Masses),
                                    d_dt_.as<const double>(),
                                    backend_.deviceData<const std::int32_t>(Field::SystemId),
                                    d_systems_.as<const kernel::LangevinSystem>(),
                                    frozen_.device(context, backend_.numSystems()),
                                    backend_.units().kB,
                                    backend_.units().forceToAccel,
                                    context.step};
    cudaCheck(kernel::langevinBaoab(args), "Langevin");
    layout_.chargeStep(backend_, DeviceOp::LangevinProgram, DeviceOp::LangevinProgramChunked);
  }

  void postUpdate(const StepContext& context) override {
    rows_.requireCount(backend_.numSystems(), parameterCount_);
    backend_.onDevice({Field::Velocities, Field::Forces, Field::Masses, Field::SystemIndex, Field::Ptr, Field::Status},
                      {Field::Velocities});
    kernel::AtomStepArgs args = atomArgs(backend_, context, d_dt_);
    args.d_positions = nullptr;
    cudaCheck(kernel::verletKick(args), "Langevin");
    backend_.chargeAtomKernel(DeviceOp::VerletKick);
  }

  kernel::SmallIntegratorArgs smallStep(std::int64_t numSystems) override {
    rows_.requireCount(numSystems, parameterCount_);
    return {kernel::SmallIntegrator::Langevin, d_systems_.data(), nullptr, d_dt_.as<const double>(), nullptr, nullptr};
  }

  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override {
    // The CPU reference checks every parameter (the seed's range and integrality included), so both
    // backends refuse the same input with the same error.
    static_cast<void>(Langevin(parameters, numSystems));
    const auto& dt = parameters.perSystem("Langevin", "dt", numSystems);
    const auto& temperature = parameters.perSystem("Langevin", "temperature", numSystems);
    const auto& friction = parameters.perSystem("Langevin", "friction", numSystems);
    const auto& seed = parameters.perSystem("Langevin", "seed", numSystems);
    std::vector<kernel::LangevinSystem> systems(static_cast<std::size_t>(numSystems));
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const LangevinCoefficients coefficients = langevinCoefficients(friction[s], dt[s]);
      // An integral double of magnitude ≤ 2^53 (checked above), as the CPU converts it.
      const auto seedBits = static_cast<std::uint64_t>(static_cast<std::int64_t>(seed[s]));
      systems[s] = kernel::LangevinSystem{temperature[s], coefficients.c1, coefficients.c2, seedBits};
    }
    uploadCharged(backend_, d_dt_, dt, "Langevin");
    uploadCharged(backend_, d_systems_, systems, "Langevin");
    parameterCount_ = static_cast<std::size_t>(numSystems);
  }

  std::vector<double> state() const override { return rows_.save(); }
  void loadState(const std::vector<double>& state) override { rows_.load(state); }
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override { rows_.remap(keep, added); }

 private:
  CudaBackend& backend_;
  CudaSystemRows rows_;
  CudaSystemLayout layout_{"Langevin"};
  CudaFrozenCounts frozen_{"Langevin"};
  DeviceBuffer d_dt_;
  DeviceBuffer d_systems_;
  std::size_t parameterCount_ = 0;
};

}  // namespace

std::unique_ptr<Integrator> makeCudaVelocityVerlet(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaVelocityVerlet>(backend, parameters, numSystems);
}

std::unique_ptr<Integrator> makeCudaLangevin(CudaBackend& backend, const Parameters& parameters, std::int64_t numSystems) {
  return std::make_unique<CudaLangevin>(backend, parameters, numSystems);
}

}  // namespace hookmd
