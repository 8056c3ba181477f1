// When and how the stepping loop keeps a chunk of steps on the device (docs/cuda.md, "Resident chunks";
// kernels/ResidentStepKernel.h): on a device backend with the resident-step family on (platform/DarkKernels.h),
// a VelocityVerlet run on a pair potential's device kernel, with no native hook, no convergence check, no
// stress and no one reading the energies between two due JS hooks. Steps at which a JS hook is due keep the
// general path. A chunk is at most kLongestResidentChunk steps, one graph launch and one status read; the
// time budget is checked between chunks.
#pragma once

#include <cstdint>
#include <functional>

#include "core/Backend.h"
#include "kernels/Integrator.h"
#include "kernels/ResidentStepKernel.h"
#include "models/Potential.h"

namespace hookmd {

/** The longest chunk one graph takes (a longer run takes several): it bounds the graph's size. */
constexpr std::int64_t kLongestResidentChunk = 256;

class ResidentStepPath {
 public:
  explicit ResidentStepPath(Backend& backend) : backend_(backend) {}

  /**
   * Whether the next chunk can stay on the device, given what the stepping loop knows: `energiesUnread` (no
   * native hook, convergence check or update reads them) and `stress` (a JS hook asked for it).
   */
  bool ready(Integrator& integrator, Potential* potential, bool energiesUnread, bool stress);

  /** Takes `steps` (≤ kLongestResidentChunk) steps; charges the chunk from its status block. */
  ResidentChunkResult run(Integrator& integrator, std::int64_t steps, std::function<void()> referenceStep);

  /** Puts back the chunk's snapshot, for a replay on the general path. */
  void restore();

 private:
  Backend& backend_;
  ResidentStepKernel* kernel_ = nullptr;
};

}  // namespace hookmd
