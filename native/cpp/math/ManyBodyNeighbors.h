// What a many-body centre routine (math/TersoffEval.h, math/StillingerWeberEval.h) reads of one centre atom:
// its neighbours within the potential's largest cutoff, in structure-of-arrays form, as the CPU loops and
// the device kernels both lay them out.
#pragma once

namespace hookmd {

/**
 * One centre atom's neighbours within the largest cutoff, as the loops hand them over: for each neighbour m
 * its species type, its offset d_m = x_m − x_i, its distance and the unit vector along d_m.
 */
struct ManyBodyNeighbors {
  int count;
  const int* type;
  const double* dx;
  const double* dy;
  const double* dz;
  const double* r;
  const double* ux;
  const double* uy;
  const double* uz;
};

}  // namespace hookmd
