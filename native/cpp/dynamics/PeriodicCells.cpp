#include "dynamics/PeriodicCells.h"

#include <string>

#include "core/Error.h"

namespace hookmd {

void requirePeriodicCells(const char* owner, const BatchStorage& host, const std::uint8_t* active) {
  const std::uint8_t* pbc = host.u8(Field::Pbc);
  for (std::int64_t s = 0; s < host.numSystems(); ++s) {
    if (active != nullptr && !active[s]) continue;
    const std::uint8_t* p = pbc + 3 * s;
    if (p[0] && p[1] && p[2]) continue;
    std::string flags;
    std::string open;
    for (int k = 0; k < 3; ++k) {
      flags += std::string(k == 0 ? "" : ", ") + (p[k] ? "true" : "false");
      if (!p[k]) open += std::string(open.empty() ? "" : " and ") + "xyz"[k];
    }
    fail("INVALID_PBC", std::string(owner) + ": system " + std::to_string(s) + " is not periodic along " + open + " (pbc [" + flags +
                            "]); changing its cell would scale the vacuum. Like LAMMPS's fix npt, it needs a system periodic in x, y "
                            "and z: run a slab or a cluster at constant volume (VelocityVerlet, Langevin, NoseHooverChain, or an "
                            "optimizer without a cell filter)");
  }
}

}  // namespace hookmd
