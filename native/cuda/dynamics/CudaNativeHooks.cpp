// The native built-in hooks on the device (dynamics/hooks has the CPU references): each declares the
// fields it reads and writes as its CPU twin does, then launches one kernel of CudaHookKernels.cuh.
#include "cuda/dynamics/CudaNativeHooks.h"

#include "dynamics/hooks/FreezeAtoms.h"

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "core/Error.h"
#include "core/ListMacros.h"
#include "cuda/dynamics/CudaActiveMask.h"
#include "cuda/core/CudaBackend.h"
#include "cuda/core/CudaCheck.h"
#include "cuda/dynamics/CudaHookKernels.cuh"
#include "cuda/core/DeviceUpload.h"

namespace hookmd {

namespace {

/** The atoms of the systems flagged in `active`; call onDevice() with Field::SystemIndex first. */
kernel::HookAtoms hookAtoms(CudaBackend& backend, CudaActiveMask& mask, const std::uint8_t* active) {
  return kernel::HookAtoms{backend.numAtoms(), backend.deviceData<const std::int32_t>(Field::SystemIndex),
                           mask.upload(backend, active)};
}

// FreezeAtoms: the anchor is taken on the device at the first call, as the CPU hook takes it on the host.
class CudaFreezeAtoms final : public NativeHook {
 public:
  CudaFreezeAtoms(CudaBackend& backend, HookSchedule schedule, std::vector<std::uint8_t> mask)
      : NativeHook(schedule), backend_(backend), mask_(std::move(mask)), frozen_(frozenIndices(mask_)), count_(static_cast<std::int64_t>(frozen_.size())) {}
  const char* name() const noexcept override { return "FreezeAtomsHook"; }
  void remap(const std::vector<std::int64_t>&, std::int64_t) override { refuseFreezeAtomsRemap(); }
  // As the CPU hook: the refilled batch's mask, its atoms anchored again (and their list sent) at the next call.
  void remapWith(const std::vector<std::int64_t>&, std::int64_t, const HookArrivals& arrivals) override {
    mask_ = arrivals.mask;
    frozen_ = frozenIndices(mask_);
    count_ = static_cast<std::int64_t>(frozen_.size());
    anchored_ = false;
  }
  const std::vector<std::uint8_t>* frozenAtoms() const noexcept override { return &mask_; }

  void apply(Backend&, DynamicsStage stage, std::int64_t, const std::uint8_t*) override {
    const bool clearForces = stage == DynamicsStage::AfterCompute;
    // Only the frozen atoms are written, so the others must be current on the side written.
    const FieldSet touched = FieldSet{Field::Positions, Field::Velocities}.with(Field::Forces, clearForces);
    backend_.onDevice(touched, touched);
    if (static_cast<std::int64_t>(mask_.size()) != backend_.numAtoms()) {
      fail("INVALID_MASK", "FreezeAtomsHook: the mask has " + std::to_string(mask_.size()) + " entries but the batch has " +
                               std::to_string(backend_.numAtoms()) + " atoms");
    }
    // At the first call the frozen atoms' list goes up and their anchor is taken, then one kernel per call,
    // as the CPU hook charges them.
    if (!anchored_ && count_ > 0) {
      uploadVector(d_frozen_, frozen_, name());
      d_anchor_.allocate(3 * frozen_.size() * sizeof(double), name());
      backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, frozen_.size() * sizeof(std::int64_t)});
      backend_.charge(DeviceOp::HookKernel);
    }
    const kernel::FreezeArgs args{count_,
                                  d_frozen_.as<const std::int64_t>(),
                                  d_anchor_.as<double>(),
                                  backend_.deviceData<double>(Field::Positions),
                                  backend_.deviceData<double>(Field::Velocities),
                                  clearForces ? backend_.deviceData<double>(Field::Forces) : nullptr};
    if (!anchored_) {
      cudaCheck(kernel::anchorFrozen(args), name());
      anchored_ = true;
    }
    cudaCheck(kernel::freezeAtoms(args), name());
    if (count_ > 0) backend_.charge(DeviceOp::HookKernel);
  }

 private:
  CudaBackend& backend_;
  std::vector<std::uint8_t> mask_;
  std::vector<std::int64_t> frozen_;
  std::int64_t count_ = 0;
  DeviceBuffer d_frozen_;
  DeviceBuffer d_anchor_;
  bool anchored_ = false;
};

class CudaMaxForceClamp final : public NativeHook {
 public:
  CudaMaxForceClamp(CudaBackend& backend, HookSchedule schedule, double maxForce)
      : NativeHook(schedule), backend_(backend), maxForce_(maxForce), mask_(name()) {}
  const char* name() const noexcept override { return "MaxForceClampHook"; }

  void apply(Backend&, DynamicsStage, std::int64_t, const std::uint8_t* active) override {
    backend_.onDevice({Field::Forces, Field::SystemIndex, Field::Ptr}, {Field::Forces});
    const kernel::ForceClampArgs args{hookAtoms(backend_, mask_, active), backend_.deviceData<double>(Field::Forces), maxForce_};
    cudaCheck(kernel::clampForces(args), name());
    backend_.chargeAtomKernel(DeviceOp::HookKernel);
  }

 private:
  CudaBackend& backend_;
  double maxForce_;
  CudaActiveMask mask_;
};

class CudaWrapPeriodic final : public NativeHook {
 public:
  CudaWrapPeriodic(CudaBackend& backend, HookSchedule schedule) : NativeHook(schedule), backend_(backend), mask_(name()) {}
  const char* name() const noexcept override { return "WrapPeriodicHook"; }

  void apply(Backend&, DynamicsStage, std::int64_t, const std::uint8_t* active) override {
    backend_.onDevice({Field::Positions, Field::Cell, Field::Pbc, Field::SystemIndex, Field::Ptr}, {Field::Positions});
    const kernel::WrapArgs args{hookAtoms(backend_, mask_, active), backend_.deviceData<double>(Field::Positions),
                                backend_.deviceData<const double>(Field::Cell), backend_.deviceData<const std::uint8_t>(Field::Pbc)};
    cudaCheck(kernel::wrapPositions(args), name());
    backend_.chargeAtomKernel(DeviceOp::HookKernel);
  }

 private:
  CudaBackend& backend_;
  CudaActiveMask mask_;
};

// The NaN detector reads one word back per check; the per-system flags and the system ids cross only when
// the run is about to fail.
class CudaNaNDetector final : public NativeHook {
 public:
  CudaNaNDetector(CudaBackend& backend, HookSchedule schedule) : NativeHook(schedule), backend_(backend), mask_(name()) {
    d_anyBad_.allocate(sizeof(unsigned int), name());
  }
  const char* name() const noexcept override { return "NaNDetectorHook"; }

  void apply(Backend&, DynamicsStage, std::int64_t step, const std::uint8_t* active) override {
    backend_.onDevice({Field::Positions, Field::Velocities, Field::Forces, Field::Energy, Field::SystemIndex, Field::Ptr});
    const auto numSystems = static_cast<std::size_t>(backend_.numSystems());
    if (numSystems == 0) return;
    if (d_bad_.bytes() != numSystems) d_bad_.allocate(numSystems, name());
    cudaCheck(device::memsetAsync(d_bad_.data(), 0, numSystems), name());
    cudaCheck(device::memsetAsync(d_anyBad_.data(), 0, sizeof(unsigned int)), name());
    const kernel::NonFiniteArgs args{hookAtoms(backend_, mask_, active),
                                     backend_.numSystems(),
                                     backend_.deviceData<const double>(Field::Positions),
                                     backend_.deviceData<const double>(Field::Velocities),
                                     backend_.deviceData<const double>(Field::Forces),
                                     backend_.deviceData<const double>(Field::Energy),
                                     d_bad_.as<std::uint8_t>(),
                                     d_anyBad_.as<unsigned int>()};
    cudaCheck(kernel::findNonFinite(args), name());
    unsigned int anyBad = 0;
    // The blocking copy also surfaces faults raised while the kernel ran.
    downloadBytes(&anyBad, d_anyBad_.data(), sizeof anyBad, name());
    backend_.charge(DeviceOp::NonFiniteScan, DeviceWork{1, static_cast<std::uint64_t>(backend_.numAtoms()), numSystems, 0,
                                                        sizeof anyBad, 0});
    if (anyBad == 0) return;
    std::vector<std::uint8_t> bad(numSystems);
    downloadBytes(bad.data(), d_bad_.data(), numSystems, name());
    const std::int32_t* ids = backend_.host({Field::SystemId}).i32(Field::SystemId);
    std::string systems;
    for (std::size_t s = 0; s < bad.size(); ++s) {
      if (!bad[s]) continue;
      if (!systems.empty()) systems += ", ";
      systems += std::to_string(s) + " (systemId " + std::to_string(ids[s]) + ")";
    }
    fail("NAN_DETECTED", "NaNDetectorHook: non-finite values at step " + std::to_string(step) + " in systems " + systems);
  }

 private:
  CudaBackend& backend_;
  CudaActiveMask mask_;
  DeviceBuffer d_bad_;
  DeviceBuffer d_anyBad_;
};

}  // namespace

std::unique_ptr<NativeHook> createCudaNativeHook(CudaBackend& backend, const NativeHookSpec& spec) {
#define HOOKMD_CUDA_HOOK(name, Class, arguments, cuda) \
  HOOKMD_WHEN(cuda, if (spec.type == #name) return std::make_unique<Cuda##Class>(backend, HOOKMD_UNPAREN arguments);)
  HOOKMD_NATIVE_HOOKS(HOOKMD_CUDA_HOOK)
#undef HOOKMD_CUDA_HOOK
  return nullptr;
}

}  // namespace hookmd
