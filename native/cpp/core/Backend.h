// The Backend interface (DESIGN §2): it owns every per-atom and per-system array of one Batch and runs the
// kernels over them. `cpu` is complete and is the reference; `cuda` implements the same interface.
// Callers never learn which backend runs an operation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/BatchStorage.h"
#include "core/Fields.h"

namespace hookmd {

enum class ReduceOp : int { Sum = 0, Mean, Min, Max, Norm };

/** Returns false when `name` is not one of sum, mean, min, max, norm. */
bool reduceOpFromName(const std::string& name, ReduceOp& out);

class Backend {
 public:
  virtual ~Backend() = default;

  /** "cpu" or "cuda". */
  virtual const char* name() const noexcept = 0;
  /** Human-readable device description, e.g. "2 threads" or "NVIDIA H100 (sm_90)". */
  virtual std::string device() const = 0;
  /** Whether this backend has its own kernel for `operation` (others fall back to the CPU reference). */
  virtual bool supports(const std::string& operation) const = 0;

  /** Reallocates every field for numAtoms atoms in numSystems systems; contents are zeroed. */
  virtual void resize(std::int64_t numAtoms, std::int64_t numSystems) = 0;
  /** The host arrays: the storage itself on CPU, the host mirrors on CUDA. */
  virtual BatchStorage& host() noexcept = 0;
  /** Copies a field device → host mirror. A no-op where host memory is the storage. */
  virtual void syncToHost(Field field) = 0;
  /** Copies a field host mirror → device. A no-op where host memory is the storage. */
  virtual void syncToDevice(Field field) = 0;

  /**
   * Per-system reduction of a per-atom field over each system's atoms, written to out[numSystems] (host).
   * Vector fields are reduced through each atom's Euclidean norm; `Norm` is the root of the sum of squares
   * of every component. Empty systems give 0.
   */
  virtual void reduce(Field field, ReduceOp op, double* out) = 0;
  /** Kinetic energy per system, ½ Σ m v² converted to energy units with the storage's Units. */
  virtual void kineticEnergy(double* out) = 0;
  /** Largest per-atom force norm per system. */
  virtual void fmax(double* out) = 0;
};

}  // namespace hookmd
