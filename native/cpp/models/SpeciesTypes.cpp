#include "models/SpeciesTypes.h"

#include "core/Error.h"
#include "core/Messages.h"

namespace hookmd {

namespace {
constexpr int kMaxAtomicNumber = 118;
}  // namespace

SpeciesTypes::SpeciesTypes(const std::string& model, const std::vector<int>& elements) : model_(model), elements_(elements) {
  if (elements.empty() || elements.size() > 255) {
    fail("INVALID_POTENTIAL", model + ": a potential file names 1 to 255 elements, got " + std::to_string(elements.size()));
  }
  typeOfZ_.assign(kMaxAtomicNumber + 1, -1);
  for (std::size_t t = 0; t < elements.size(); ++t) {
    const int z = elements[t];
    if (z < 1 || z > kMaxAtomicNumber) fail("INVALID_POTENTIAL", model + ": atomic number " + std::to_string(z) + " is not an element");
    if (typeOfZ_[z] >= 0) fail("INVALID_POTENTIAL", model + ": element " + elementSymbol(z) + " appears twice in the potential file");
    typeOfZ_[z] = static_cast<int>(t);
  }
}

AtomTypes SpeciesTypes::assign(Backend& backend) {
  if (FieldStamp::of(backend, Field::AtomicNumbers) == typedAtoms_ && FieldStamp::of(backend, Field::Ptr) == typedPtr_) {
    return AtomTypes{&types_, version_};
  }
  const BatchStorage& storage = backend.host({Field::AtomicNumbers, Field::Ptr});
  const std::int32_t* z = storage.i32(Field::AtomicNumbers);
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  const std::int64_t atoms = storage.numAtoms();
  types_.resize(static_cast<std::size_t>(atoms));
  for (std::int64_t i = 0; i < atoms; ++i) {
    const int type = z[i] >= 0 && z[i] <= kMaxAtomicNumber ? typeOfZ_[z[i]] : -1;
    if (type < 0) {
      std::int64_t s = 0;
      while (ptr[s + 1] <= i) ++s;
      std::string covered;
      for (int element : elements_) covered += (covered.empty() ? "" : ", ") + elementSymbol(element);
      fail("MISSING_SPECIES", model_ + ": atom " + std::to_string(i - ptr[s]) + " of system " + std::to_string(s) + " is " +
                                  elementSymbol(z[i]) + " (Z " + std::to_string(z[i]) +
                                  "), which the potential file does not describe; it covers " + covered);
    }
    types_[i] = static_cast<std::uint8_t>(type);
  }
  typedAtoms_ = FieldStamp::of(backend, Field::AtomicNumbers);
  typedPtr_ = FieldStamp::of(backend, Field::Ptr);
  ++version_;
  return AtomTypes{&types_, version_};
}

}  // namespace hookmd
