// The centre routine of ML-IAP's so3 descriptor on the CPU (cpu/ManyBodyCentre.h), one centre at a time: each
// neighbour's radial functions, cutoff and real harmonics (math/So3PowerSpectrum.h), summed into the centre's
// c; the power spectrum p, the energy and β = ∂E/∂p from the potential's energy model (the one SNAP's centre
// reads, cpu/SnapCentre.h), the adjoint A = ∂E/∂c; then each neighbour's force from A and what was kept of
// its terms, and the ZBL core of the pairs within its cutoff, half of each pair per centre.
#pragma once

#include <memory>
#include <vector>

#include "cpu/ManyBodyCentre.h"
#include "cpu/SnapCentre.h"
#include "math/ZblEval.h"
#include "kernels/So3Tables.h"

namespace hookmd {

/** Everything the centre routine reads, checked by models/SnapPotential. */
struct So3CentreSpec {
  std::shared_ptr<const So3Tables> tables;
  std::shared_ptr<const SnapEnergyModel> model;
  /** Per element: its radius R_e and whole-number weight w_e; a pair cuts off at min(rcutfac (R_i + R_k), rcutfac). */
  std::vector<double> radius, weight;
  double rcutfac = 0.0;
  /** The ZBL core per element pair (a nt + b), empty without one. */
  std::vector<ZblParams> zbl;
};

class So3Centre final : public ManyBodyCentre {
 public:
  explicit So3Centre(So3CentreSpec spec);

  std::unique_ptr<Work> makeWork() const override;
  void centre(int ti, const ManyBodyNeighbors& nb, Work& work, double& energy, double* fx, double* fy, double* fz) const override;

 private:
  So3CentreSpec spec_;
  int numTypes_;
  /** Per element pair (a nt + b), the square of the cutoff. */
  std::vector<double> cutSq_;
};

}  // namespace hookmd
