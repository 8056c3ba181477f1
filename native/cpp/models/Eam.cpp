#include "models/Eam.h"

#include "core/Messages.h"
#include "platform/KernelFactory.h"

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
  EamForceKernel& kernel = kernel_.forBackend(backend, [&] { return createKernel<operation::EamForces>(backend, EamForceSpec{"EAM", tables_}); });
  kernel.execute(backend, request, types, skin_, virial_);
}

NeighborStats Eam::neighborStats() const { return kernel_.neighborStats(); }

}  // namespace hookmd
