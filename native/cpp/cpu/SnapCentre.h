// SNAP's centre routine on the CPU (cpu/ManyBodyCentre.h): for four centre atoms at once, in the SIMD lanes
// of the bispectrum routines (math/SnapBispectrum.h), the totals U of their neighbours within their pair
// cutoffs, Z and B once, the energy and its gradient β from the potential's energy model
// (models/SnapPotential.h) and the adjoint Y; then each neighbour's force by the reverse pass against Y, and
// the ZBL core of the pairs within its cutoff, half of each pair per centre.
#pragma once

#include <memory>
#include <vector>

#include "cpu/ManyBodyCentre.h"
#include "math/ZblEval.h"
#include "kernels/SnapTables.h"

namespace hookmd {

/** E_i and β = ∂E_i/∂B of centre element `element` from its bispectrum b (every triple's, as snapB lays them out). */
class SnapEnergyModel {
 public:
  virtual ~SnapEnergyModel() = default;
  virtual double energy(int element, const double* b, double* beta) const = 0;
};

/** Everything the centre routine reads, checked by models/SnapPotential. */
struct SnapCentreSpec {
  std::shared_ptr<const SnapTables> tables;
  std::shared_ptr<const SnapEnergyModel> model;
  /** Per element: its radius R_e and weight w_e; a pair cuts off at rcutfac (R_i + R_k). */
  std::vector<double> radius, weight;
  double rcutfac = 0.0;
  /** The ZBL core per element pair (a nt + b), empty without one. */
  std::vector<ZblParams> zbl;
};

class SnapCentre final : public ManyBodyCentre {
 public:
  explicit SnapCentre(SnapCentreSpec spec);

  std::unique_ptr<Work> makeWork() const override;
  void centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const override;
  int lanes() const override;
  void centres(int count, const int* types, const ManyBodyNeighbors* nbs, Work& work, double& energy, double* const* fx,
               double* const* fy, double* const* fz) const override;

 private:
  /** `count` ≤ K centres in K lanes of the bispectrum routines. */
  template <int K>
  void run(int count, const int* types, const ManyBodyNeighbors* nbs, Work& work, double& energy, double* const* fx, double* const* fy,
           double* const* fz) const;

  SnapCentreSpec spec_;
  int numTypes_;
  /** Per element pair (a nt + b), the SNAP cutoff and its square. */
  std::vector<double> cut_, cutSq_;
};

}  // namespace hookmd
