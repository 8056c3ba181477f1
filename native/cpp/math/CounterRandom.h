// Counter-based Gaussian noise for the thermostats: Philox-4x32-10 (Salmon et al., SC'11, the generator
// behind cuRAND's Philox) keyed by the seed and counted by (atom, system id, step). Every number is a pure
// function of those inputs, so the noise does not depend on the thread count, on the order atoms are
// visited, or on where a system sits in the batch, and CPU and CUDA draw identical streams.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/HostDevice.h"

namespace hookmd {

/** One Philox-4x32 round: two 32×32→64 multiplies, mixed with the round key. */
HD void philoxRound(std::uint32_t* counter, const std::uint32_t* key) {
  const std::uint64_t product0 = static_cast<std::uint64_t>(0xD2511F53u) * counter[0];
  const std::uint64_t product1 = static_cast<std::uint64_t>(0xCD9E8D57u) * counter[2];
  const std::uint32_t hi0 = static_cast<std::uint32_t>(product0 >> 32);
  const std::uint32_t lo0 = static_cast<std::uint32_t>(product0);
  const std::uint32_t hi1 = static_cast<std::uint32_t>(product1 >> 32);
  const std::uint32_t lo1 = static_cast<std::uint32_t>(product1);
  counter[0] = hi1 ^ counter[1] ^ key[0];
  counter[1] = lo1;
  counter[2] = hi0 ^ counter[3] ^ key[1];
  counter[3] = lo0;
}

/** Philox-4x32-10: encrypts `counter` (in place) under `key`. */
HD void philox4x32_10(std::uint32_t* counter, std::uint32_t key0, std::uint32_t key1) {
  std::uint32_t key[2] = {key0, key1};
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += 0x9E3779B9u;
      key[1] += 0xBB67AE85u;
    }
    philoxRound(counter, key);
  }
}

/** A uniform double in (0, 1] from 53 bits of two words; never 0, so log() below is finite. */
HD double uniformOpenClosed(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits = ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;
  return (static_cast<double>(bits) + 1.0) * 0x1.0p-53;
}

/** Two independent standard normals from four random words (Box–Muller). */
HD void boxMuller(const std::uint32_t* words, double* normals) {
  const double radius = sqrt(-2.0 * log(uniformOpenClosed(words[0], words[1])));
  const double angle = 6.283185307179586 * uniformOpenClosed(words[2], words[3]);
  normals[0] = radius * cos(angle);
  normals[1] = radius * sin(angle);
}

/**
 * Three standard normals, one per Cartesian component, for atom `atom` (its index within its system) of
 * the system with id `systemId` at step `step`. The counter is (atom, systemId, step low word, step high
 * word · 2 + block); two blocks give four normals, of which the first three are used.
 */
HD void atomGaussian3(std::uint64_t seed, std::uint32_t systemId, std::int64_t step, std::uint32_t atom,
                      double* out) {
  const std::uint64_t counterStep = static_cast<std::uint64_t>(step);
  double normals[4];
  for (std::uint32_t block = 0; block < 2; ++block) {
    std::uint32_t words[4] = {atom, systemId, static_cast<std::uint32_t>(counterStep),
                              (static_cast<std::uint32_t>(counterStep >> 32) << 1) | block};
    philox4x32_10(words, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
    boxMuller(words, normals + 2 * block);
  }
  for (int c = 0; c < 3; ++c) out[c] = normals[c];
}

}  // namespace hookmd
