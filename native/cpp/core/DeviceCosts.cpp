#include "core/DeviceCosts.h"

#include <array>

namespace hookmd {

namespace {
// The per-atom byte counts follow docs/cuda.md's accounting of each kernel's reads and writes (fp64
// vectors are 24 B, the pair kernels' slot positions 32 B); a list entry is 4 B.
constexpr std::array<DeviceCost, kDeviceOpCount> kCosts{{
    //  name                             launches graphs syncs control atom  system entry
    {"field copy", 0, 0, 1, false, 0, 0, 0},
    {"control upload", 0, 0, 1, true, 0, 0, 0},
    {"control download", 0, 0, 1, true, 0, 0, 0},
    {"row gather", 1, 0, 0, false, 0, 0, 0},
    {"device wait", 0, 0, 1, false, 0, 0, 0},
    {"field fill", 1, 0, 0, false, 0, 0, 0},
    {"reduction", 2, 0, 1, true, 24, 16, 0},
    {"pair check", 3, 0, 1, true, 108, 120, 0},
    {"pair grids", 6, 0, 2, true, 24, 480, 0},
    {"pair bins", 4, 0, 0, false, 224, 8, 0},
    {"pair search", 1, 0, 1, true, 100, 8, 4},
    {"pair search retry", 2, 0, 0, false, 0, 0, 0},
    {"pair evaluate", 4, 0, 1, true, 108, 72, 4},
    {"pair evaluate, energies deferred", 2, 0, 1, true, 100, 0, 4},
    {"pair energy sums", 2, 0, 0, false, 8, 72, 0},
    {"verlet kick-drift", 1, 0, 0, false, 132, 8, 0},
    {"verlet kick", 1, 0, 0, false, 84, 8, 0},
    {"langevin program", 1, 0, 0, false, 248, 56, 0},
    {"langevin program, chunked", 6, 0, 0, false, 272, 56, 0},
    {"fire program", 1, 0, 0, false, 190, 112, 0},
    {"fire program, chunked", 6, 0, 0, false, 262, 112, 0},
    {"fire2 program", 1, 0, 0, false, 214, 112, 0},
    {"fire2 program, chunked", 8, 0, 0, false, 310, 112, 0},
    {"gradient descent program", 1, 0, 0, false, 72, 24, 0},
    {"gradient descent program, chunked", 4, 0, 0, false, 120, 24, 0},
    {"nose-hoover program", 1, 0, 0, false, 104, 64, 0},
    {"nose-hoover program, chunked", 4, 0, 0, false, 152, 64, 0},
    {"hook kernel", 1, 0, 0, false, 52, 0, 0},
    {"non-finite scan", 3, 0, 1, true, 76, 10, 0},
    {"small-system chunk", 2, 0, 1, true, 160, 200, 0},
    {"resident chunk", 4, 1, 1, true, 144, 56, 0},
    {"resident step", 2, 0, 0, false, 340, 8, 4},
    {"resident rebuild", 6, 0, 0, false, 324, 16, 0},
    {"resident restore", 3, 0, 0, false, 144, 0, 0},
    {"many-body evaluate", 9, 0, 1, true, 200, 200, 200},
}};
}  // namespace

const DeviceCost& deviceCost(DeviceOp op) { return kCosts[static_cast<std::size_t>(op)]; }

}  // namespace hookmd
