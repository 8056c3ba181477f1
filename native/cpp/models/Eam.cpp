#include "models/Eam.h"

#include <cmath>
#include <string>

#include "core/Error.h"
#include "cpu/CpuEamForceKernel.h"
#include "models/Messages.h"

namespace hookmd {

namespace {
constexpr int kMaxAtomicNumber = 118;
}  // namespace

Eam::Eam(const EamFileData& data, std::optional<double> skin)
    : tables_(std::make_shared<const EamTables>(data)), cutoff_(data.cutoff) {
  typeOfZ_.assign(kMaxAtomicNumber + 1, -1);
  for (int t = 0; t < tables_->numElements(); ++t) {
    const int z = tables_->elements()[t];
    if (typeOfZ_[z] >= 0) fail("INVALID_POTENTIAL", "EAM: element " + elementSymbol(z) + " appears twice in the potential file");
    typeOfZ_[z] = t;
  }
  if (skin) setSkin(*skin);
}

void Eam::setSkin(double skin) {
  if (!std::isfinite(skin)) fail("INVALID_PARAMETER", "EAM: skin must be finite, got " + formatNumber(skin));
  if (skin < 0.0) fail("INVALID_SKIN", "EAM: skin must be >= 0, got " + formatNumber(skin));
  skin_ = skin;
}

void Eam::assignTypes(Backend& backend) {
  if (FieldStamp::of(backend, Field::AtomicNumbers) == typedAtoms_ && FieldStamp::of(backend, Field::Ptr) == typedPtr_) return;
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
      for (int element : tables_->elements()) covered += (covered.empty() ? "" : ", ") + elementSymbol(element);
      fail("MISSING_SPECIES", "EAM: atom " + std::to_string(i - ptr[s]) + " of system " + std::to_string(s) + " is " +
                                  elementSymbol(z[i]) + " (Z " + std::to_string(z[i]) +
                                  "), which the potential file does not describe; it covers " + covered);
    }
    types_[i] = static_cast<std::uint8_t>(type);
  }
  typedAtoms_ = FieldStamp::of(backend, Field::AtomicNumbers);
  typedPtr_ = FieldStamp::of(backend, Field::Ptr);
  ++typesVersion_;
}

void Eam::compute(Backend& backend, const ComputeRequest& request) {
  if (!(skin_ >= 0.0)) {
    fail("SKIN_UNSET", "EAM: the Verlet skin is not set; pass skin, or compute through the TypeScript model once so it "
                       "takes the batch units' default");
  }
  checkPtrLayout(backend, "EAM", checkedPtr_);
  assignTypes(backend);
  // A backend creates the kernels it implements; the CPU reference serves for the others.
  EamForceKernel& kernel = kernel_.forBackend(backend, [&] {
    const EamForceSpec spec{"EAM", tables_};
    std::unique_ptr<EamForceKernel> made = backend.createEamForceKernel(spec);
    return made ? std::move(made) : std::make_unique<CpuEamForceKernel>(spec);
  });
  kernel.execute(backend, request, AtomTypes{&types_, typesVersion_}, skin_, virial_);
}

NeighborStats Eam::neighborStats() const { return kernel_.neighborStats(); }

}  // namespace hookmd
