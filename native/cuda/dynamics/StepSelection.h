// Which systems an integrator phase updates, decided on the device from the status field (dynamics/
// Integrator.h, StepContext): the host's `active` flags would need a copy per phase, and the status is
// already there. HD, so the rule is written once for every kernel that applies it.
#pragma once

#include <cstdint>

#include "core/HostDevice.h"

namespace hookmd {

/** A system is updated while status < exitStatus and, for a FusedStage sub-stage (stage ≥ 0), status == stage. */
HD bool updatesSystem(std::int32_t status, std::int32_t exitStatus, std::int32_t stage) {
  return status < exitStatus && (stage < 0 || status == stage);
}

/** The selection of one integrator phase, as the kernels receive it. */
struct SystemSelection {
  /** The batch's status field on the device. */
  const std::int32_t* d_status;
  std::int32_t exitStatus;
  /** The FusedStage sub-stage, or -1 outside a FusedStage. */
  std::int32_t stage;

  HD bool updates(std::int64_t system) const { return updatesSystem(d_status[system], exitStatus, stage); }
};

}  // namespace hookmd
