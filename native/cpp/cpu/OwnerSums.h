// What the CPU pair loops (cpu/CpuPairLoop.h, cpu/CpuEamForceKernel.cpp) accumulate per owner atom of a
// half neighbor list, and how a pair adds to it: written once, so every loop sums the same numbers in the
// same order.
#pragma once

#include <cstddef>

#include "cpu/SystemSchedule.h"
#include "math/PairGeometry.h"
#include "math/SmoothSwitch.h"

namespace hookmd {

/**
 * One owner's running sums, and what a pair within the cutoff adds to them and to atom j: the owner's force
 * stays in registers across its pairs and reaches memory once, in finishOwner().
 */
template <bool kForces, bool kVirial, bool kSwitch>
struct OwnerSums {
  double energy = 0.0;
  double virial[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double fxi = 0.0;
  double fyi = 0.0;
  double fzi = 0.0;

  void add(const SwitchParams* switches, std::size_t pair, double r2, const double* d, double fOverR, double pairEnergy,
           double* fj) {
    if constexpr (kSwitch) applySwitch(switches[pair], r2, pairEnergy, fOverR);
    addForce(fOverR * d[0], fOverR * d[1], fOverR * d[2], pairEnergy, fj);
    if constexpr (kVirial) addPairVirial(virial, d, fOverR);
  }

  /** A pair's energy and its force on j, (fx, fy, fz) = fOverR·d, already switched: what add() sums, without the virial. */
  void addForce(double fx, double fy, double fz, double pairEnergy, double* fj) {
    energy += pairEnergy;
    if constexpr (kForces) {
      fxi -= fx;
      fyi -= fy;
      fzi -= fz;
      fj[0] += fx;
      fj[1] += fy;
      fj[2] += fz;
    }
  }

  /** Ends owner i: its force, then a fresh force sum for the next owner. */
  void finishOwner(double* fi) {
    if constexpr (kForces) {
      fi[0] += fxi;
      fi[1] += fyi;
      fi[2] += fzi;
    }
    fxi = 0.0;
    fyi = 0.0;
    fzi = 0.0;
  }

  void addTo(SystemSums& sums) const {
    sums.energy += energy;
    for (int c = 0; c < 6; ++c) sums.virial[c] += virial[c];
  }
};

}  // namespace hookmd
