#include "core/Fields.h"

#include <cstring>

namespace hookmd {

namespace {
const FieldInfo kFields[kFieldCount] = {
    {"positions", ElementType::Float64, Extent::PerAtom, 3},
    {"velocities", ElementType::Float64, Extent::PerAtom, 3},
    {"forces", ElementType::Float64, Extent::PerAtom, 3},
    {"masses", ElementType::Float64, Extent::PerAtom, 1},
    {"atomicNumbers", ElementType::Int32, Extent::PerAtom, 1},
    {"systemIndex", ElementType::Int32, Extent::PerAtom, 1},
    {"energy", ElementType::Float64, Extent::PerSystem, 1},
    {"stress", ElementType::Float64, Extent::PerSystem, 9},
    {"cell", ElementType::Float64, Extent::PerSystem, 9},
    {"pbc", ElementType::Uint8, Extent::PerSystem, 3},
    {"status", ElementType::Int32, Extent::PerSystem, 1},
    {"systemId", ElementType::Int32, Extent::PerSystem, 1},
    {"numAtoms", ElementType::Int32, Extent::PerSystem, 1},
    {"ptr", ElementType::Int32, Extent::PerSystemPlusOne, 1},
};
}  // namespace

const FieldInfo& fieldInfo(Field field) { return kFields[static_cast<int>(field)]; }

bool fieldFromName(const char* name, Field& out) {
  for (int i = 0; i < kFieldCount; ++i) {
    if (std::strcmp(kFields[i].name, name) == 0) {
      out = static_cast<Field>(i);
      return true;
    }
  }
  return false;
}

std::size_t elementSize(ElementType type) {
  switch (type) {
    case ElementType::Float64: return 8;
    case ElementType::Int32: return 4;
    case ElementType::Uint8: return 1;
  }
  return 0;
}

std::size_t fieldLength(Field field, std::int64_t numAtoms, std::int64_t numSystems) {
  const FieldInfo& info = fieldInfo(field);
  std::int64_t rows = 0;
  switch (info.extent) {
    case Extent::PerAtom: rows = numAtoms; break;
    case Extent::PerSystem: rows = numSystems; break;
    case Extent::PerSystemPlusOne: rows = numSystems + 1; break;
  }
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(info.components);
}

}  // namespace hookmd
