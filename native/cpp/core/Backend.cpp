#include "core/Backend.h"

#include "core/Error.h"
#include "dynamics/Integrator.h"
#include "dynamics/NativeHookFactory.h"
#include "kernels/PairForceKernel.h"
#include "training/PairLossKernel.h"

namespace hookmd {

void Backend::resize(std::int64_t numAtoms, std::int64_t numSystems) {
  host_.resize(numAtoms, numSystems);
  try {
    resizeDevice(numAtoms, numSystems);
  } catch (...) {
    // Host and device sizes must always agree: an empty batch is consistent, a half-resized one is not.
    host_.resize(0, 0);
    resizeDevice(0, 0);
    coherence_.reset();
    throw;
  }
  coherence_.reset();
}

void Backend::acquire(Side side, FieldSet reads, FieldSet writes) {
  const bool copies = !unified();
  for (int i = 0; i < kFieldCount; ++i) {
    const Field field = static_cast<Field>(i);
    if (copies && reads.contains(field) && !coherence_.current(field, side)) {
      const std::size_t bytes = fieldBytes(field);
      if (bytes > 0) {
        if (side == Side::Host) copyToHost(field, bytes);
        else copyToDevice(field, bytes);
      }
      coherence_.synced(field, side, bytes);
    }
    if (writes.contains(field)) coherence_.modified(field, copies ? side : Side::Host);
  }
  // On one memory both sides are always current; modified() above only moved the version on.
  if (!copies) coherence_.reset();
}

BatchStorage& Backend::host(FieldSet reads, FieldSet writes) {
  acquire(Side::Host, reads, writes);
  return host_;
}

void Backend::onDevice(FieldSet reads, FieldSet writes) { acquire(Side::Device, reads, writes); }

BatchStorage& Backend::arraysFor(Kernel kernel, FieldSet reads, FieldSet writes) {
  BatchStorage* onDevice = deviceArrays();
  if (!supports(kernel) || onDevice == nullptr) return host(reads, writes);
  acquire(Side::Device, reads, writes);
  return *onDevice;
}

std::unique_ptr<PairForceKernel> Backend::createPairForceKernel(const PairForceSpec&) { return nullptr; }

std::unique_ptr<Integrator> Backend::createIntegrator(const std::string&, const Parameters&, std::int64_t) { return nullptr; }

std::unique_ptr<NativeHook> Backend::createNativeHook(const NativeHookSpec&) { return nullptr; }

std::unique_ptr<PairLossKernel> Backend::createPairLossKernel(const PairLossSpec&) { return nullptr; }

}  // namespace hookmd
