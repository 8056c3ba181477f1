#include "core/DeviceCosts.h"

#include <array>

namespace hookmd {

namespace {
constexpr std::array<DeviceCost, kDeviceOpCount> kCosts{{
#define HOOKMD_DEVICE_COST_ROW(op, name, launches, graphs, syncs, control, atom, system, entry) \
  {name, launches, graphs, syncs, control, atom, system, entry},
    HOOKMD_DEVICE_COSTS(HOOKMD_DEVICE_COST_ROW)
#undef HOOKMD_DEVICE_COST_ROW
}};
}  // namespace

const DeviceCost& deviceCost(DeviceOp op) { return kCosts[static_cast<std::size_t>(op)]; }

}  // namespace hookmd
