// Variable-cell relaxation through any Optimizer, with ASE's FrechetCellFilter parametrisation (ASE 3.23,
// ase/filters.py): each system's degrees of freedom are its atoms in the undeformed cell, u = x·F⁻ᵀ, plus the
// three rows of cellFactor·L, where F = exp(L) is the deformation gradient from the cell at the system's
// first step, C0, to the current cell C = C0·Fᵀ. Their forces are f·F for the atoms and, for L, the exact
// gradient of E + P·V through exp's Fréchet derivative, divided by cellFactor. The wrapped optimizer sees
// these N + 3 rows exactly as ASE's optimizers see the filter's arrays.
//
// Parameters (one value per system): scalarPressure P (energy/volume, as the batch's stress), hydrostaticStrain
// (1: the virial is replaced by its trace/3 on the diagonal, so the cell keeps its shape), cellFactor (> 0;
// 0 means the system's number of atoms, ASE's default), and the wrapped optimizer's own parameters.
//
// The wrapped optimizer keeps the velocities of all N + 3 rows itself (three extra rows per system), and the
// batch velocities stay at zero (dynamics/Optimizer.h).
//
// state(): [width of the wrapped optimizer's state, that state, then numSystems, 19, and per system: started,
// C0 (9), L (9)].
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dynamics/Optimizer.h"
#include "kernels/Parameters.h"
#include "dynamics/SystemRows.h"

namespace hookmd {

class CellFilter final : public Integrator {
 public:
  CellFilter(std::unique_ptr<Optimizer> optimizer, const Parameters& parameters, std::int64_t numSystems);
  const char* name() const noexcept override { return "CellFilter"; }
  void preUpdate(const StepContext& context) override;
  void postUpdate(const StepContext&) override {}
  bool needsStress() const noexcept override { return true; }
  void updateParameters(const Parameters& parameters, std::int64_t numSystems) override;
  std::vector<double> state() const override;
  void loadState(const std::vector<double>& state) override;
  void remap(const std::vector<std::int64_t>& keep, std::int64_t added) override;

 private:
  struct Settings {
    double scalarPressure;
    bool hydrostaticStrain;
    double cellFactor;
  };
  std::unique_ptr<Optimizer> optimizer_;
  std::vector<Settings> systems_;
  SystemRows rows_;
  /** The filtered rows of every system, (N + 3) per system of N atoms: positions and forces. */
  std::vector<double> x_, f_;
};

}  // namespace hookmd
