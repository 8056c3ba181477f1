// The API layer shared by every pair potential: it validates species tables and cutoffs (naming the model,
// the pair and the bad value), assigns each atom its species type, and hands the checked tables to the
// pair-force kernel of the batch's backend (kernels/PairForceKernel.h). A concrete potential only checks its
// own parameters and fills the table with its evaluator's coefficients.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/PairForceKernel.h"
#include "models/BackendCache.h"
#include "models/Potential.h"

namespace hookmd {

/** One species pair of a parameter table. z1 = z2 = 0 is the default for every pair (alone in its table). */
struct PairKey {
  int z1 = 0;
  int z2 = 0;
  /** Interaction range (length units). */
  double cutoff = 0.0;
};

class PairPotential : public Potential {
 public:
  const char* name() const noexcept override { return name_; }
  double cutoff() const noexcept override { return spec_.cutoff; }
  double skin() const noexcept override { return skin_; }
  void setSkin(double skin) override;
  void compute(Backend& backend, const ComputeRequest& request) override;
  void finishEnergies(Backend& backend) override;
  const std::vector<double>& virial() const noexcept override { return virial_; }
  NeighborStats neighborStats() const override;
  bool allPairs(Backend& backend, AllPairsModel& model) override;
  ResidentStepKernel* residentSteps(Backend& backend) override;

 protected:
  /**
   * Validates the species and cutoffs of `keys` (model name first in every message) and lays out the
   * type tables for an evaluator whose parameter struct has `paramBytes` bytes. `switchOn` > 0 switches
   * every pair off smoothly between switchOn and its cutoff; without `skin` the potential cannot compute
   * until setSkin() (the TS model sets the batch units' default).
   */
  PairPotential(const char* name, PairEvaluator evaluator, std::size_t paramBytes, const std::vector<PairKey>& keys,
                double switchOn, std::optional<double> skin);

  /** Stores a pair's evaluator coefficients in both orientations. */
  template <class Params>
  void setParams(const PairKey& key, const Params& params) {
    std::memcpy(spec_.params.data() + slot(key, false) * sizeof(Params), &params, sizeof(Params));
    std::memcpy(spec_.params.data() + slot(key, true) * sizeof(Params), &params, sizeof(Params));
  }
  /** "Ar-Kr", or "default" for the every-pair key: how messages name a table row. */
  static std::string label(const PairKey& key);

 private:
  std::size_t slot(const PairKey& key, bool swapped) const;
  std::size_t tableSize() const { return static_cast<std::size_t>(spec_.numTypes) * spec_.numTypes; }
  void assignTypes(Backend& backend);

  const char* name_;
  PairForceSpec spec_;
  double skin_ = -1.0;
  bool wildcard_ = false;
  /** Type of each atomic number (−1: no table row mentions it). */
  std::vector<int> typeOfZ_;
  std::vector<int> zOfType_;
  /** numTypes² flags: whether the table defines the pair. */
  std::vector<std::uint8_t> defined_;
  std::vector<std::uint8_t> types_;
  std::vector<double> virial_;

  KernelSlot<PairForceKernel> kernel_;
  FieldStamp checkedPtr_;
  FieldStamp typedAtoms_;
  FieldStamp typedPtr_;
  std::uint64_t typesVersion_ = 0;
};

}  // namespace hookmd
