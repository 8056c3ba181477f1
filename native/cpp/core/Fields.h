// The fixed set of Batch arrays that the engine owns. The table gives each field's JS name, element type,
// whether it is indexed per atom or per system, and its number of components, so storage, views and
// sync code are written once over the table instead of once per field.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hookmd {

enum class Field : int {
  Positions = 0,
  Velocities,
  Forces,
  Masses,
  AtomicNumbers,
  SystemIndex,
  Energy,
  Stress,
  Cell,
  Pbc,
  Status,
  SystemId,
  NumAtoms,
  Ptr,
  Count
};

enum class ElementType : int { Float64, Int32, Uint8 };
enum class Extent : int { PerAtom, PerSystem, PerSystemPlusOne };

struct FieldInfo {
  const char* name;
  ElementType type;
  Extent extent;
  int components;
};

constexpr int kFieldCount = static_cast<int>(Field::Count);

const FieldInfo& fieldInfo(Field field);
/** Returns false when `name` is not a field; `out` is untouched then. */
bool fieldFromName(const char* name, Field& out);
std::size_t elementSize(ElementType type);
/** Number of elements of `field` for a batch of `numAtoms` atoms in `numSystems` systems. */
std::size_t fieldLength(Field field, std::int64_t numAtoms, std::int64_t numSystems);

}  // namespace hookmd
