// The integrator of an engine whose update runs outside the native loop: a TypeScript subclass of Dynamics
// (docs/dynamics.md, "Writing an integrator in TypeScript"). The native loop walks the step's stages, runs the
// native hooks and the compute; the engine calls its preUpdate and postUpdate from JS at the two update
// points, so this integrator updates nothing and keeps no state.
#pragma once

#include "kernels/Integrator.h"

namespace hookmd {

class ExternalIntegrator final : public Integrator {
 public:
  /** The signature of every entry of HOOKMD_INTEGRATORS; it reads no parameters. */
  ExternalIntegrator(const Parameters&, std::int64_t) {}
  const char* name() const noexcept override { return "External"; }
  void preUpdate(const StepContext&) override {}
  void postUpdate(const StepContext&) override {}
  void updateParameters(const Parameters&, std::int64_t) override {}
  void remap(const std::vector<std::int64_t>&, std::int64_t) override {}
};

}  // namespace hookmd
