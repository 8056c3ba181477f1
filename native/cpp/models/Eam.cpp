#include "models/Eam.h"

#include "cpu/CpuEamForceKernel.h"
#include "models/Messages.h"

namespace hookmd {

Eam::Eam(const EamFileData& data, std::optional<double> skin)
    : tables_(std::make_shared<const EamTables>(data)), cutoff_(data.cutoff), species_("EAM", tables_->elements()) {
  if (skin) setSkin(*skin);
}

void Eam::setSkin(double skin) {
  checkSkin("EAM", skin);
  skin_ = skin;
}

void Eam::compute(Backend& backend, const ComputeRequest& request) {
  requireSkinSet("EAM", skin_);
  checkPtrLayout(backend, "EAM", checkedPtr_);
  const AtomTypes types = species_.assign(backend);
  // A backend creates the kernels it implements; the CPU reference serves for the others.
  EamForceKernel& kernel = kernel_.forBackend(backend, [&] {
    const EamForceSpec spec{"EAM", tables_};
    std::unique_ptr<EamForceKernel> made = backend.createEamForceKernel(spec);
    return made ? std::move(made) : std::make_unique<CpuEamForceKernel>(spec);
  });
  kernel.execute(backend, request, types, skin_, virial_);
}

NeighborStats Eam::neighborStats() const { return kernel_.neighborStats(); }

}  // namespace hookmd
