#include "core/RowGather.h"

#include <cstring>

namespace hookmd {

void gatherRows(Field field, const RefillPlan& plan, const void* from, void* to) {
  const FieldInfo& info = fieldInfo(field);
  const std::size_t rowBytes = static_cast<std::size_t>(info.components) * elementSize(info.type);
  const auto* source = static_cast<const unsigned char*>(from);
  auto* target = static_cast<unsigned char*>(to);
  for (std::int64_t s = 0; s < plan.numSystems; ++s) {
    const std::int64_t old = plan.sourceSystem[s];
    if (old < 0) continue;
    if (info.extent == Extent::PerAtom) {
      std::memcpy(target + plan.targetAtom[s] * rowBytes, source + plan.sourceAtom[s] * rowBytes,
                  static_cast<std::size_t>(plan.atomCount[s]) * rowBytes);
    } else {
      std::memcpy(target + s * rowBytes, source + old * rowBytes, rowBytes);
    }
  }
}

}  // namespace hookmd
