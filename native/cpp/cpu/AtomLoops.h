// Threaded loops over atoms and systems of a batch. Atom loops split the whole atom range, so one large
// system and many small ones both keep every thread busy; each atom writes only its own entries.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/BatchStorage.h"
#include "core/ThreadPool.h"

namespace hookmd {

constexpr std::int64_t kAtomsPerChunk = 2048;
constexpr std::int64_t kSystemsPerChunk = 16;

/** fn(atom, system) for every atom whose system has active[system] != 0 (active may be null: all). */
template <typename Fn>
void forEachActiveAtom(const BatchStorage& storage, const std::uint8_t* active, Fn&& fn) {
  const std::int32_t* systemOf = storage.i32(Field::SystemIndex);
  ThreadPool::global().parallelFor(0, storage.numAtoms(), kAtomsPerChunk, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t i = lo; i < hi; ++i) {
      const std::int32_t s = systemOf[i];
      if (active == nullptr || active[s]) fn(i, s);
    }
  });
}

/**
 * fn(system, lo, hi) for each run [lo, hi) of consecutive atoms of one active system (active may be null:
 * all), the runs cut where the pool's chunks end. For loops that hoist per-system values out of the atom
 * loop and vectorize over atoms.
 */
template <typename Fn>
void forEachActiveRun(const BatchStorage& storage, const std::uint8_t* active, Fn&& fn) {
  const std::int32_t* systemOf = storage.i32(Field::SystemIndex);
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  ThreadPool::global().parallelFor(0, storage.numAtoms(), kAtomsPerChunk, [&](std::int64_t lo, std::int64_t hi, int) {
    while (lo < hi) {
      const std::int32_t s = systemOf[lo];
      // At least one atom per run: a layout whose ptr disagreed with systemIndex must not loop forever.
      const std::int64_t end = std::min<std::int64_t>(hi, std::max<std::int64_t>(lo + 1, ptr[s + 1]));
      if (active == nullptr || active[s]) fn(s, lo, end);
      lo = end;
    }
  });
}

/** fn(system, firstAtom, endAtom) for every active system. */
template <typename Fn>
void forEachActiveSystem(const BatchStorage& storage, const std::uint8_t* active, Fn&& fn) {
  const std::int32_t* ptr = storage.i32(Field::Ptr);
  ThreadPool::global().parallelFor(0, storage.numSystems(), kSystemsPerChunk, [&](std::int64_t lo, std::int64_t hi, int) {
    for (std::int64_t s = lo; s < hi; ++s) {
      if (active == nullptr || active[s]) fn(s, ptr[s], ptr[s + 1]);
    }
  });
}

}  // namespace hookmd
