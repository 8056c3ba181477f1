// Unit constants the native kernels need. The TS layer picks the unit system; native code only sees numbers.
#pragma once

namespace hookmd {

struct Units {
  /** Boltzmann constant in energy/temperature units (8.617333262e-5 eV/K in metal, 1 in lj). */
  double kB = 8.617333262e-5;
  /** Converts force/mass to acceleration (9.648533212e-3 (Å/fs²)/(eV/Å/amu) in metal, 1 in lj). */
  double forceToAccel = 9.648533212e-3;
};

}  // namespace hookmd
