// What a model caches per backend, and how it knows a cache is stale: a field's stamp (the backend, its
// allocation generation and the field's version, as Kokkos DualView's modify counters), the ptr check such a
// stamp guards, and the force kernel made for the backend the model last ran on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/Backend.h"
#include "kernels/PairForceKernel.h"

namespace hookmd {

/** Which contents of one backend's field a cached result was derived from. */
struct FieldStamp {
  std::uint64_t backend = 0;
  std::uint64_t generation = 0;
  std::uint64_t version = 0;

  static FieldStamp of(const Backend& backend, Field field) {
    return {backend.id(), backend.generation(), backend.version(field)};
  }
  bool operator==(const FieldStamp& other) const {
    return backend == other.backend && generation == other.generation && version == other.version;
  }
};

/**
 * Throws INVALID_BATCH (naming `model`) unless the backend's ptr partitions its atoms; checks only when ptr
 * changed since `checked`, which it then updates.
 */
void checkPtrLayout(Backend& backend, const std::string& model, FieldStamp& checked);

/**
 * The kernel of the backend it was made for: a compute on another backend makes a new one. The neighbor
 * counters of the kernels it replaced are kept, so the totals cover the model's life.
 */
template <class Kernel>
class KernelSlot {
 public:
  /** The kernel for `backend`, made by make() (a std::unique_ptr<Kernel>) when the backend changed. */
  template <class Make>
  Kernel& forBackend(const Backend& backend, Make&& make) {
    if (!kernel_ || backend_ != backend.id()) {
      if (kernel_) {
        const NeighborStats old = kernel_->neighborStats();
        retired_.builds += old.builds;
        retired_.resets += old.resets;
      }
      kernel_ = make();
      backend_ = backend.id();
    }
    return *kernel_;
  }

  /** The kernel made for `backend`, or null when none is (yet). */
  Kernel* current(const Backend& backend) const noexcept { return kernel_ && backend_ == backend.id() ? kernel_.get() : nullptr; }

  NeighborStats neighborStats() const {
    NeighborStats stats = kernel_ ? kernel_->neighborStats() : NeighborStats();
    stats.builds += retired_.builds;
    stats.resets += retired_.resets;
    return stats;
  }

 private:
  std::uint64_t backend_ = 0;
  std::unique_ptr<Kernel> kernel_;
  NeighborStats retired_;
};

}  // namespace hookmd
