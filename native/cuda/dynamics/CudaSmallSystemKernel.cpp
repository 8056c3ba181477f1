#include "cuda/dynamics/CudaSmallSystemKernel.h"

#include <algorithm>
#include <vector>

#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/dynamics/CudaSmallStep.h"
#include "cuda/dynamics/CudaSmallSystems.cuh"
#include "cuda/core/DeviceUpload.h"
#include "kernels/Integrator.h"
#include "models/BackendCache.h"

namespace hookmd {

namespace {

/** Bits of the step count in SmallFlags::firstNonFinite (CudaSmallSystems.cu). */
constexpr int kStepBits = 20;

static_assert(sizeof(kernel::SmallFlags) == kSmallChunkFlagBytes, "the ledger charges the flag block's size");

class CudaSmallSystemKernel final : public SmallSystemKernel {
 public:
  explicit CudaSmallSystemKernel(CudaBackend& backend) : backend_(backend) { d_flags_.allocate(sizeof(kernel::SmallFlags), "small systems"); }

  bool runs(Integrator& integrator) const override {
    return dynamic_cast<CudaSmallStep*>(&integrator) != nullptr && smallSystemIntegrator(integrator.name());
  }

  SmallChunkResult run(Backend&, Integrator& integrator, const AllPairsModel& model, const SmallConvergence& convergence,
                       const SmallChunk& chunk, const SmallUploads& uploads) override {
    const char* operation = "small systems";
    const kernel::SmallIntegratorArgs step = dynamic_cast<CudaSmallStep&>(integrator).smallStep(backend_.numSystems());
    const FieldSet writes{Field::Positions, Field::Velocities, Field::Forces, Field::Energy, Field::Status};
    backend_.onDevice(writes | FieldSet{Field::Masses, Field::Ptr, Field::SystemId}, writes);
    const PairForceSpec& spec = *model.spec;
    if (uploads.model) {
      uploadBytes(d_params_, spec.params.data(), spec.params.size(), BufferFit::Exact, operation);
      uploadBytes(d_switches_, spec.switches.data(), spec.switches.size() * sizeof(SwitchParams), BufferFit::Exact, operation);
    }
    if (uploads.types) uploadVector(d_types_, *model.types.types, operation);
    if (uploads.convergence) {
      uploadVector(d_criteria_, convergence.criteria, operation);
      uploadVector(d_checks_, convergence.checks, operation);
    }
    const auto systems = static_cast<std::size_t>(backend_.numSystems());
    fitBuffer(d_convergedAt_, systems * sizeof(std::int64_t), BufferFit::Grow, operation);

    kernel::SmallSystemArgs args{};
    args.numSystems = backend_.numSystems();
    args.d_ptr = backend_.deviceData<const std::int32_t>(Field::Ptr);
    args.d_positions = backend_.deviceData<double>(Field::Positions);
    args.d_velocities = backend_.deviceData<double>(Field::Velocities);
    args.d_forces = backend_.deviceData<double>(Field::Forces);
    args.d_masses = backend_.deviceData<const double>(Field::Masses);
    args.d_energy = backend_.deviceData<double>(Field::Energy);
    args.d_status = backend_.deviceData<std::int32_t>(Field::Status);
    args.d_systemId = backend_.deviceData<const std::int32_t>(Field::SystemId);
    args.evaluator = static_cast<int>(spec.evaluator);
    args.numTypes = spec.numTypes;
    args.d_params = d_params_.data();
    args.d_switches = spec.switches.empty() ? nullptr : d_switches_.as<const SwitchParams>();
    args.d_types = spec.numTypes == 1 ? nullptr : d_types_.as<const std::uint8_t>();
    args.integrator = step;
    args.d_criteria = d_criteria_.as<const SmallCriterion>();
    args.d_checks = d_checks_.as<const SmallCheck>();
    args.numChecks = static_cast<int>(convergence.checks.size());
    args.firstStep = chunk.firstStep;
    args.steps = chunk.steps;
    args.exitStatus = chunk.exitStatus;
    args.forceToAccel = backend_.units().forceToAccel;
    args.kB = backend_.units().kB;
    args.lanes = largestSystem() <= 16 ? 16 : 32;
    args.d_flags = d_flags_.as<kernel::SmallFlags>();
    args.d_convergedAt = d_convergedAt_.as<std::int64_t>();
    cudaCheck(kernel::runSmallSystems(args), operation);

    // One read of the flag block, which also surfaces faults of the kernel.
    kernel::SmallFlags flags{};
    downloadBytes(&flags, d_flags_.data(), sizeof flags, operation);
    SmallChunkResult result;
    result.steps = static_cast<std::int64_t>(flags.steps);
    result.active = static_cast<std::int64_t>(flags.active);
    result.converged = static_cast<std::int64_t>(flags.converged);
    if (flags.firstNonFinite != 0) {
      result.firstNonFinite = args.numSystems - static_cast<std::int64_t>(flags.firstNonFinite >> kStepBits);
      result.nonFiniteStep = chunk.firstStep + static_cast<std::int64_t>(flags.firstNonFinite & ((1ull << kStepBits) - 1)) - 1;
    }
    // The steps at which systems converged come back only from chunks in which some did; −1 marks the others.
    if (result.converged > 0) {
      convergedAt_.resize(systems);
      downloadBytes(convergedAt_.data(), d_convergedAt_.data(), systems * sizeof(std::int64_t), operation);
      for (std::size_t s = 0; s < systems; ++s) {
        if (convergedAt_[s] >= 0) chunk.convergedAt[s] = convergedAt_[s];
      }
    }
    return result;
  }

 private:
  /** The batch's largest system (read on the host, again only when ptr changed). */
  std::int64_t largestSystem() {
    const FieldStamp stamp = FieldStamp::of(backend_, Field::Ptr);
    if (stamp == layout_) return largest_;
    const std::int32_t* ptr = backend_.host({Field::Ptr}).i32(Field::Ptr);
    largest_ = 0;
    for (std::int64_t s = 0; s < backend_.numSystems(); ++s) largest_ = std::max<std::int64_t>(largest_, ptr[s + 1] - ptr[s]);
    layout_ = stamp;
    return largest_;
  }

  CudaBackend& backend_;
  DeviceBuffer d_params_;
  DeviceBuffer d_switches_;
  DeviceBuffer d_types_;
  DeviceBuffer d_criteria_;
  DeviceBuffer d_checks_;
  DeviceBuffer d_flags_;
  DeviceBuffer d_convergedAt_;
  std::vector<std::int64_t> convergedAt_;
  FieldStamp layout_;
  std::int64_t largest_ = 0;
};

}  // namespace

std::unique_ptr<SmallSystemKernel> createCudaSmallSystemKernel(CudaBackend& backend) {
  return std::make_unique<CudaSmallSystemKernel>(backend);
}

}  // namespace hookmd
