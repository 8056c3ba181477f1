// A set of Batch fields, as one bit per field. Kernels declare what they read and write with two of these
// (LAMMPS-KOKKOS's datamask_read / datamask_modify), and the storage syncs and marks exactly those fields.
#pragma once

#include <initializer_list>

#include "core/Fields.h"

namespace hookmd {

class FieldSet {
 public:
  constexpr FieldSet() = default;
  constexpr FieldSet(std::initializer_list<Field> fields) {
    for (Field field : fields) bits_ |= bit(field);
  }

  constexpr bool contains(Field field) const { return (bits_ & bit(field)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr FieldSet operator|(FieldSet other) const { return FieldSet(bits_ | other.bits_); }
  constexpr FieldSet with(Field field, bool include = true) const { return include ? FieldSet(bits_ | bit(field)) : *this; }

 private:
  constexpr explicit FieldSet(unsigned bits) : bits_(bits) {}
  static constexpr unsigned bit(Field field) { return 1u << static_cast<int>(field); }

  unsigned bits_ = 0;
};

}  // namespace hookmd
