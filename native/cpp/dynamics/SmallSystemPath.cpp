#include "dynamics/SmallSystemPath.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/Error.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {
/** The device schedule: the first chunk's steps, doubling up to the longest. */
constexpr std::int64_t kFirstDeviceChunk = 64;
constexpr std::int64_t kLongestDeviceChunk = 1024;
/** On one memory, the first chunk's steps, before a chunk's time is known. */
constexpr std::int64_t kFirstHostChunk = 8;
}  // namespace

bool smallSystemsEnabled() {
  const char* value = std::getenv("HOOKMD_SMALL_SYSTEMS");
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "1") == 0) return true;
  if (std::strcmp(value, "0") == 0) return false;
  fail("INVALID_ENVIRONMENT", std::string("HOOKMD_SMALL_SYSTEMS must be 0 or 1, got '") + value + "'");
}

bool SmallSystemPath::batchFits() {
  const FieldStamp ptrStamp = FieldStamp::of(backend_, Field::Ptr);
  const FieldStamp pbcStamp = FieldStamp::of(backend_, Field::Pbc);
  if (ptrStamp == shapePtr_ && pbcStamp == shapePbc_) return fits_;
  const BatchStorage& host = backend_.host({Field::Ptr, Field::Pbc});
  const std::int32_t* ptr = host.i32(Field::Ptr);
  const std::uint8_t* pbc = host.u8(Field::Pbc);
  const std::int64_t systems = host.numSystems();
  fits_ = systems > 0;
  for (std::int64_t s = 0; fits_ && s < systems; ++s) {
    fits_ = ptr[s + 1] - ptr[s] <= kSmallSystemAtoms && pbc[3 * s] == 0 && pbc[3 * s + 1] == 0 && pbc[3 * s + 2] == 0;
  }
  shapePtr_ = ptrStamp;
  shapePbc_ = pbcStamp;
  return fits_;
}

bool SmallSystemPath::ready(Integrator& integrator, Potential* potential, bool nativeHooks,
                            const std::vector<std::unique_ptr<Convergence>>& convergence, bool stress, bool pauseOnConverge,
                            std::int32_t exitStatus) {
  if (potential == nullptr || nativeHooks || stress || pauseOnConverge || integrator.needsStress() || !smallSystemsEnabled()) return false;
  if (!kernelMade_) {
    kernel_ = createKernel<operation::SmallSystems>(backend_);
    kernelMade_ = true;
  }
  if (!kernel_ || !kernel_->runs(integrator) || !batchFits()) return false;
  convergence_ = SmallConvergence();
  for (const auto& check : convergence) {
    if (!check->appendSmallForm(convergence_, exitStatus)) return false;
  }
  return potential->allPairs(backend_, model_);
}

SmallUploads SmallSystemPath::uploads() {
  SmallUploads uploads;
  const PairForceSpec& spec = *model_.spec;
  if (sentSpec_ != &spec) {
    uploads.model = true;
    sentSpec_ = &spec;
    backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, spec.params.size()});
    if (!spec.switches.empty()) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, spec.switches.size() * sizeof(SwitchParams)});
  }
  if (spec.numTypes > 1 && (!typesSent_ || model_.types.version != sentTypesVersion_ || backend_.generation() != sentTypesGeneration_)) {
    uploads.types = true;
    typesSent_ = true;
    sentTypesVersion_ = model_.types.version;
    sentTypesGeneration_ = backend_.generation();
    if (backend_.numAtoms() > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, static_cast<std::uint64_t>(backend_.numAtoms())});
  }
  const auto same = [](const auto& a, const auto& b, std::size_t bytes) { return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), bytes) == 0); };
  if (!convergenceSent_ || !same(convergence_.criteria, sentCriteria_, convergence_.criteria.size() * sizeof(SmallCriterion)) ||
      !same(convergence_.checks, sentChecks_, convergence_.checks.size() * sizeof(SmallCheck))) {
    uploads.convergence = true;
    convergenceSent_ = true;
    sentCriteria_ = convergence_.criteria;
    sentChecks_ = convergence_.checks;
    // Each table goes up in its own copy, an empty one not at all.
    for (const std::uint64_t bytes : {static_cast<std::uint64_t>(convergence_.criteria.size() * sizeof(SmallCriterion)),
                                      static_cast<std::uint64_t>(convergence_.checks.size() * sizeof(SmallCheck))}) {
      if (bytes > 0) backend_.charge(DeviceOp::ControlUpload, DeviceWork{1, 0, 0, 0, 0, bytes});
    }
  }
  return uploads;
}

SmallSystemPath::Outcome SmallSystemPath::run(Integrator& integrator, std::int64_t firstStep, std::int64_t maxSteps,
                                              std::int32_t exitStatus, bool timed, Clock::time_point deadline,
                                              std::vector<std::int64_t>& convergedAt) {
  const bool device = !backend_.unified();
  Outcome outcome;
  while (outcome.steps < maxSteps) {
    std::int64_t steps;
    if (device) {
      deviceChunk_ = deviceChunk_ == 0 ? kFirstDeviceChunk : std::min(2 * deviceChunk_, kLongestDeviceChunk);
      steps = deviceChunk_;
    } else if (!timed) {
      steps = maxSteps;
    } else {
      // As on the general path, the chunk ends at the first step that reaches the deadline, not at the last one
      // before it: at 65,536 clusters a step takes most of a 20 ms budget, and rounding down made every chunk
      // one step long, paying the lanes' loads and stores and the chunk's bookkeeping once per step.
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      steps = secondsPerStep_ > 0.0 ? static_cast<std::int64_t>(std::ceil(left / secondsPerStep_)) : kFirstHostChunk;
    }
    steps = std::max<std::int64_t>(1, std::min(steps, maxSteps - outcome.steps));
    const Clock::time_point start = Clock::now();
    const SmallChunk chunk{firstStep + outcome.steps, steps, exitStatus, convergedAt.data()};
    const SmallChunkResult result = kernel_->run(backend_, integrator, model_, convergence_, chunk, uploads());
    const auto systems = static_cast<std::uint64_t>(backend_.numSystems());
    backend_.charge(DeviceOp::SmallSystemChunk, DeviceWork{1, static_cast<std::uint64_t>(backend_.numAtoms()), systems, 0, kSmallChunkFlagBytes, 0});
    // The steps at which systems converged come back only from chunks in which some did.
    if (result.converged > 0) backend_.charge(DeviceOp::ControlDownload, DeviceWork{1, 0, 0, 0, systems * sizeof(std::int64_t), 0});
    secondsPerStep_ = std::chrono::duration<double>(Clock::now() - start).count() / static_cast<double>(std::max<std::int64_t>(result.steps, 1));
    outcome.steps += result.steps;
    outcome.active = result.active;
    if (result.firstNonFinite >= 0) {
      outcome.firstNonFinite = result.firstNonFinite;
      outcome.nonFiniteStep = result.nonFiniteStep;
      break;
    }
    if (result.active == 0 || (timed && Clock::now() >= deadline)) break;
  }
  return outcome;
}

}  // namespace hookmd
