// The CPU reference of the small-system path (kernels/SmallSystemKernel.h): one system per task, its atoms
// copied into a stack buffer that stays in cache for the whole chunk, the integrator's own per-system step
// (kernels/SystemStepper.h), every pair (cpu/AllPairs.h) and the convergence checks (math/CriterionValue.h).
// `cpu` runs it on its storage and `mirror` on its device arrays. It steps the integrators' own systems
// (dynamics/Fire's lanes among them), so it lives with them.
#pragma once

#include <memory>

#include "kernels/SmallSystemKernel.h"

namespace hookmd {

std::unique_ptr<SmallSystemKernel> createCpuSmallSystemKernel();

}  // namespace hookmd
