#include "dynamics/ResidentStepPath.h"

#include <cstring>

#include "platform/DarkKernels.h"

namespace hookmd {

bool ResidentStepPath::ready(Integrator& integrator, Potential* potential, bool energiesUnread, bool stress) {
  kernel_ = nullptr;
  if (potential == nullptr || backend_.unified() || !energiesUnread || stress || integrator.needsStress()) return false;
  if (std::strcmp(integrator.name(), "VelocityVerlet") != 0) return false;
  // The chunk leaves its energy sums pending as the device-step family does, so it needs that family too.
  if (!deviceKernelEnabled(DeviceKernelFamily::ResidentStep) || !deviceKernelEnabled(DeviceKernelFamily::DeviceStep)) return false;
  ResidentStepKernel* kernel = potential->residentSteps(backend_);
  if (kernel == nullptr || !kernel->residentReady(backend_, integrator)) return false;
  kernel_ = kernel;
  return true;
}

ResidentChunkResult ResidentStepPath::run(Integrator& integrator, std::int64_t steps, std::function<void()> referenceStep) {
  const ResidentChunkResult result = kernel_->runResident(backend_, integrator, ResidentChunk{steps, std::move(referenceStep)});
  const auto atoms = static_cast<std::uint64_t>(backend_.numAtoms());
  const auto systems = static_cast<std::uint64_t>(backend_.numSystems());
  backend_.charge(DeviceOp::ResidentChunk, DeviceWork{1, atoms, systems, 0, kResidentStatusBytes, 0});
  // The graph runs every step it holds: a problem at one step is only seen at the chunk's end.
  backend_.charge(DeviceOp::ResidentStep, DeviceWork{static_cast<std::uint64_t>(steps), atoms, systems,
                                                     static_cast<std::uint64_t>(steps) * result.listEntries, 0, 0});
  if (result.captured) backend_.chargeResidentEvents(1, 0);
  if (result.rebuildPasses > 0) {
    backend_.charge(DeviceOp::ResidentRebuild, DeviceWork{static_cast<std::uint64_t>(result.rebuildPasses), atoms, systems, 0, 0, 0});
    backend_.chargeRebuilds(result.rebuildPasses, result.systemsRebuilt);
  }
  return result;
}

bool ResidentStepPath::regrows(const ResidentChunkResult& result) const {
  return result.rowsOnly && deviceKernelEnabled(DeviceKernelFamily::ResidentRegrow);
}

void ResidentStepPath::regrow(std::uint64_t longestRow) { kernel_->regrowResident(backend_, longestRow); }

void ResidentStepPath::restore() {
  backend_.charge(DeviceOp::ResidentRestore, DeviceWork{1, static_cast<std::uint64_t>(backend_.numAtoms()), 0, 0, 0, 0});
  kernel_->restoreResident(backend_);
}

}  // namespace hookmd
