#include "mirror/MirrorManyBodyForceKernel.h"

#include "core/Error.h"
#include "cpu/CpuManyBodyForceKernel.h"
#include "kernels/DeviceManyBodySchedule.h"

namespace hookmd {

namespace {

class MirrorManyBodyForceKernel final : public ManyBodyForceKernel {
 public:
  MirrorManyBodyForceKernel(Backend& backend, const ManyBodyForceSpec& spec)
      : reference_(spec), schedule_(backend, spec.model, spec.rows.size()), numTypes_(spec.numTypes), cutoff_(spec.cutoff) {}

  void execute(Backend& backend, const ComputeRequest& request, const AtomTypes& types, double skin,
               std::vector<double>& virial) override {
    if (backend.numSystems() == 0) return reference_.execute(backend, request, types, skin, virial);
    schedule_.begin(backend.host({Field::Ptr}).i32(Field::Ptr), request.systems, types, numTypes_, cutoff_);
    try {
      // The CPU kernel reads and writes what the device kernel would, on the device arrays.
      reference_.execute(backend, request, types, skin, virial);
    } catch (const NativeError&) {
      // cuda reads its status block, then repeats the compute with the CPU code on the host mirrors, which
      // raises the error in the CPU's words: the same waits and copies.
      schedule_.evaluated(0, 0);
      backend.host(request.reads(), request.writes());
      throw;
    }
    if (schedule_.emptyBatch()) return schedule_.chargeEmptyBatch(request.stress);
    const CpuManyBodyForceKernel::CentreCounts counts = reference_.centreCounts();
    while (!schedule_.evaluated(static_cast<std::uint64_t>(counts.longest), static_cast<std::uint64_t>(counts.entries))) {
    }
    schedule_.finished(request.stress);
  }

  // The numbers, lists included, are the CPU reference's: mirror's results equal cpu's.
  NeighborStats neighborStats() const override { return reference_.neighborStats(); }

 private:
  CpuManyBodyForceKernel reference_;
  DeviceManyBodySchedule schedule_;
  int numTypes_;
  double cutoff_;
};

}  // namespace

std::unique_ptr<ManyBodyForceKernel> createMirrorManyBodyForceKernel(Backend& backend, const ManyBodyForceSpec& spec) {
  return std::make_unique<MirrorManyBodyForceKernel>(backend, spec);
}

}  // namespace hookmd
