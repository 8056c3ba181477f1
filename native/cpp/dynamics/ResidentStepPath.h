// When and how the stepping loop keeps a chunk of steps on the device (docs/cuda.md, "Resident chunks";
// kernels/ResidentStepKernel.h): on a device backend with the resident-step family on (platform/DarkKernels.h),
// a VelocityVerlet run on a pair potential's device kernel, with no native hook, no convergence check, no
// stress and no one reading the energies between two due JS hooks. Steps at which a JS hook is due keep the
// general path. A chunk is at most kLongestResidentChunk steps, one graph launch and one status read; the
// time budget is checked between chunks. A chunk whose rows overflowed runs again on the device with longer
// rows (at most kResidentRegrowths times) when the resident-regrow family is on.
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
/**
 * How often one chunk may grow its rows and run again before it is replayed step by step: each regrowth
 * adds 1/4 over the longest row seen, so a liquid needs one; more means the rows keep growing (a collapse).
 */
constexpr int kResidentRegrowths = 3;

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

  /** Puts back the chunk's snapshot, for a replay on the general path or on the device. */
  void restore();

  /** Whether a chunk that asked for a replay runs again on the device (rows alone, the resident-regrow family on). */
  bool regrows(const ResidentChunkResult& result) const;

  /** After restore(): longer rows and a rebuild of every system at the chunk's start, for the chunk's second run. */
  void regrow(std::uint64_t longestRow);

 private:
  Backend& backend_;
  ResidentStepKernel* kernel_ = nullptr;
};

}  // namespace hookmd
