// The platform registry (OpenMM's KernelFactory, one per platform): each backend registers the device
// kernels it runs itself, and the CPU reference registers the kernel of every operation. createKernel()
// resolves a backend's kernel, else the CPU reference, here and nowhere else; engine code names only the
// operation. Which operations run on the device arrays is platform/DeviceOperations.h; which device kernels
// are verified is platform/DarkKernels.h; what each costs is core/DeviceCosts.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/Backend.h"
#include "platform/DarkKernels.h"

namespace hookmd {

class PairForceKernel;
struct PairForceSpec;
class EamForceKernel;
struct EamForceSpec;
class ManyBodyForceKernel;
struct ManyBodyForceSpec;
class PairLossKernel;
struct PairLossSpec;
class SmallSystemKernel;
class Integrator;
class Parameters;
class NativeHook;
struct NativeHookSpec;

/**
 * The one list of operations that a backend may bring its own kernel for: X(slot, kernel interface, the
 * family whose darkness turns the operation off on a device backend or kAlways, (what a kernel is made
 * from)). An operation turned off returns null: its caller takes the general path, not the CPU reference.
 */
#define HOOKMD_KERNEL_OPERATIONS(X)                                                                        \
  X(PairForces, PairForceKernel, kAlways, (Backend&, const PairForceSpec&))                                \
  X(EamForces, EamForceKernel, kAlways, (Backend&, const EamForceSpec&))                                   \
  X(ManyBodyForces, ManyBodyForceKernel, kAlways, (Backend&, const ManyBodyForceSpec&))                    \
  X(PairLoss, PairLossKernel, kAlways, (Backend&, const PairLossSpec&))                                    \
  X(SmallSystems, SmallSystemKernel, DeviceKernelFamily::SmallSystems, (Backend&))                         \
  X(Integrator, Integrator, kAlways, (Backend&, const std::string&, const Parameters&, std::int64_t))      \
  X(NativeHooks, NativeHook, kAlways, (Backend&, const NativeHookSpec&))

/** An operation that no kernel family gates. */
constexpr DeviceKernelFamily kAlways = DeviceKernelFamily::Count;

/** One operation of HOOKMD_KERNEL_OPERATIONS: its kernel, how one is made, and its gate (a tag may share its kernel's name). */
namespace operation {
#define HOOKMD_OPERATION_TAG(slot, KernelType, gateFamily, Arguments) \
  struct slot {                                                        \
    using Kernel = ::hookmd::KernelType;                               \
    using Create = std::unique_ptr<Kernel> Arguments;                  \
    static constexpr DeviceKernelFamily gate = gateFamily;             \
    static constexpr const char* name = #slot;                         \
  };
HOOKMD_KERNEL_OPERATIONS(HOOKMD_OPERATION_TAG)
#undef HOOKMD_OPERATION_TAG
}  // namespace operation

/** One backend's kernels: null where it has none of its own, or where its creator returns null. */
struct KernelFactory {
#define HOOKMD_KERNEL_SLOT(slot, KernelType, gateFamily, Arguments) operation::slot::Create* slot = nullptr;
  HOOKMD_KERNEL_OPERATIONS(HOOKMD_KERNEL_SLOT)
#undef HOOKMD_KERNEL_SLOT
};

/** Where operation `Op` sits in a KernelFactory. */
template <class Op>
struct KernelSlot;
#define HOOKMD_KERNEL_SLOT_OF(slot, KernelType, gateFamily, Arguments) \
  template <>                                                           \
  struct KernelSlot<operation::slot> {                                  \
    static constexpr auto member = &KernelFactory::slot;                \
  };
HOOKMD_KERNEL_OPERATIONS(HOOKMD_KERNEL_SLOT_OF)
#undef HOOKMD_KERNEL_SLOT_OF

/** The backend name whose factory holds the CPU reference of every operation. */
constexpr const char* kReferencePlatform = "cpu";

/**
 * The factory of backend `name` (Backend::name()), created empty on first use, for its registration to fill.
 * Registration runs once, before any batch exists (binding/Addon.cpp).
 */
KernelFactory& registerKernels(const std::string& name);

/** The factory registered for `backend`, or an empty one. */
const KernelFactory& kernelsOf(const Backend& backend);

/** The CPU reference: the factory of kReferencePlatform. */
const KernelFactory& referenceKernels();
/** Throws INTERNAL: `operation` has no CPU reference registered (a registration call is missing). */
[[noreturn]] void missingReference(const char* operation);

/** Whether `gate` lets an operation run on `backend`: always on one memory, else while the family is enabled. */
inline bool gateOpen(Backend& backend, DeviceKernelFamily gate) {
  return gate == kAlways || backend.unified() || deviceKernelEnabled(gate);
}

/** `backend`'s own kernel of `Op`, else the CPU reference; null only where Op's gate is closed. */
template <class Op, class... Args>
std::unique_ptr<typename Op::Kernel> createKernel(Backend& backend, Args&&... args) {
  if (!gateOpen(backend, Op::gate)) return nullptr;
  constexpr auto member = KernelSlot<Op>::member;
  const KernelFactory& own = kernelsOf(backend);
  const KernelFactory& reference = referenceKernels();
  if (&own != &reference && own.*member != nullptr) {
    if (std::unique_ptr<typename Op::Kernel> made = (own.*member)(backend, args...)) return made;
  }
  if (reference.*member == nullptr) missingReference(Op::name);
  return (reference.*member)(backend, args...);
}

}  // namespace hookmd
