// How a per-system program (the device step of FIRE, FIRE2, gradient descent and the Nosé–Hoover chain,
// docs/cuda.md) is laid out over a batch: one block per system while every system has at most
// kProgramBlockAtoms atoms, else chunks of kProgramChunkAtoms atoms. Derived from ptr, again only when ptr
// changed. The CUDA integrators build their launch tables from it; the CPU references, which `mirror` runs,
// use it to charge the same operations to the ledger.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Backend.h"

namespace hookmd {

/** The largest system the one-block-per-system path takes. */
constexpr std::int64_t kProgramBlockAtoms = 4096;
/** Atoms per chunk on the chunked path (a system's last chunk may be shorter). */
constexpr std::int32_t kProgramChunkAtoms = 2048;

class ProgramLayout {
 public:
  /**
   * Brings the layout up to date with `backend`'s ptr (read on the host; INVALID_PTR naming `owner` for a bad
   * range). Returns true when it was re-derived, and then charges the upload of the chunk tables. Where host
   * and device are one memory there is no device program, and nothing is derived.
   */
  bool update(Backend& backend, const char* owner);
  /** Charges one step of the program: `single` on the one-block path, `chunked` on the other (nothing for no systems). */
  void chargeStep(Backend& backend, DeviceOp single, DeviceOp chunked) const;

  std::int64_t maxAtoms() const noexcept { return maxAtoms_; }
  bool chunked() const noexcept { return !chunkSystem_.empty(); }
  /** Chunked path: the system of each chunk, and each system's first chunk (numSystems + 1 entries). */
  const std::vector<std::int32_t>& chunkSystem() const noexcept { return chunkSystem_; }
  const std::vector<std::int32_t>& firstChunk() const noexcept { return firstChunk_; }

 private:
  bool built_ = false;
  std::uint64_t generation_ = 0;
  std::uint64_t ptrVersion_ = 0;
  std::int64_t maxAtoms_ = 0;
  std::vector<std::int32_t> chunkSystem_;
  std::vector<std::int32_t> firstChunk_;
};

}  // namespace hookmd
