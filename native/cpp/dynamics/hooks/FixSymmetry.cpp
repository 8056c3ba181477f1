#include "dynamics/hooks/FixSymmetry.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/Error.h"
#include "math/CellMath.h"
#include "math/SymmetrizeEval.h"

namespace hookmd {

FixSymmetry::FixSymmetry(HookSchedule schedule, const std::vector<double>& operations)
    : NativeHook(schedule), groups_(parseGroups(operations, 0)) {}

std::vector<FixSymmetry::Group> FixSymmetry::parseGroups(const std::vector<double>& operations, std::size_t first) {
  std::vector<Group> groups;
  std::size_t k = 0;
  while (k < operations.size()) {
    const double count = operations[k++];
    if (!(count >= 1.0) || count != std::floor(count) || k + 12 * static_cast<std::size_t>(count) > operations.size()) {
      fail("INVALID_HOOK", "FixSymmetry: system " + std::to_string(first + groups.size()) + "'s operations are malformed");
    }
    Group group;
    group.ops = static_cast<std::int64_t>(count);
    for (std::int64_t op = 0; op < group.ops; ++op, k += 12) {
      group.rotations.insert(group.rotations.end(), operations.begin() + static_cast<std::ptrdiff_t>(k), operations.begin() + static_cast<std::ptrdiff_t>(k + 9));
      group.translations.insert(group.translations.end(), operations.begin() + static_cast<std::ptrdiff_t>(k + 9), operations.begin() + static_cast<std::ptrdiff_t>(k + 12));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

void FixSymmetry::remap(const std::vector<std::int64_t>&, std::int64_t) {
  fail("INVALID_HOOK", "FixSymmetry: a refill must bring the operations of the systems it adds (runStream does)");
}

void FixSymmetry::remapWith(const std::vector<std::int64_t>& keep, std::int64_t added, const HookArrivals& arrivals) {
  std::vector<Group> arriving = parseGroups(arrivals.values, keep.size());
  if (static_cast<std::int64_t>(arriving.size()) != added) {
    fail("INVALID_HOOK", "FixSymmetry: a refill adding " + std::to_string(added) + " systems brought the operations of " + std::to_string(arriving.size()));
  }
  std::vector<Group> groups;
  groups.reserve(keep.size() + arriving.size());
  for (std::int64_t s : keep) {
    if (s < 0 || s >= static_cast<std::int64_t>(groups_.size())) fail("INVALID_ARGUMENT", "FixSymmetry: remap index " + std::to_string(s) + " is outside its systems");
    groups.push_back(std::move(groups_[static_cast<std::size_t>(s)]));
  }
  for (Group& group : arriving) groups.push_back(std::move(group));
  groups_ = std::move(groups);
  mapped_ = false;
}

void FixSymmetry::mapAtoms(const BatchStorage& host) {
  if (static_cast<std::int64_t>(groups_.size()) != host.numSystems()) {
    fail("INVALID_HOOK", "FixSymmetry: it holds the operations of " + std::to_string(groups_.size()) + " systems but the batch has " +
                             std::to_string(host.numSystems()));
  }
  const std::int32_t* ptr = host.i32(Field::Ptr);
  const double* x = host.f64(Field::Positions);
  const double* cells = host.f64(Field::Cell);
  for (std::size_t s = 0; s < groups_.size(); ++s) {
    Group& group = groups_[s];
    // A kept system's atoms keep their order in it, so its map holds across a refill.
    if (group.mapped) continue;
    const std::int64_t begin = ptr[s], atoms = ptr[s + 1] - ptr[s];
    double inverse[9];
    if (!invert3(cells + 9 * s, inverse)) fail("SINGULAR_CELL", "FixSymmetry: system " + std::to_string(s) + " has a singular cell");
    std::vector<double> fractional(static_cast<std::size_t>(3 * atoms));
    for (std::int64_t i = 0; i < atoms; ++i) toFractional(x + 3 * (begin + i), inverse, fractional.data() + 3 * i);
    group.map.assign(static_cast<std::size_t>(group.ops * atoms), 0);
    for (std::int64_t op = 0; op < group.ops; ++op) {
      const double* w = group.rotations.data() + 9 * op;
      const double* t = group.translations.data() + 3 * op;
      for (std::int64_t i = 0; i < atoms; ++i) {
        const double* si = fractional.data() + 3 * i;
        double image[3];
        for (int a = 0; a < 3; ++a) image[a] = w[3 * a] * si[0] + w[3 * a + 1] * si[1] + w[3 * a + 2] * si[2] + t[a];
        // The nearest atom in fractional distance, minimum image (ASE's prep_symmetry).
        double best = std::numeric_limits<double>::infinity();
        for (std::int64_t j = 0; j < atoms; ++j) {
          double d2 = 0.0;
          for (int a = 0; a < 3; ++a) {
            double d = fractional[3 * j + a] - image[a];
            d -= std::nearbyint(d);
            d2 += d * d;
          }
          if (d2 < best) {
            best = d2;
            group.map[static_cast<std::size_t>(atoms * op + i)] = static_cast<std::int32_t>(j);
          }
        }
      }
    }
    group.mapped = true;
  }
  mapped_ = true;
}

void FixSymmetry::symmetrizeResults(Backend& backend, const std::uint8_t* active) {
  const FieldSet fields{Field::Forces, Field::Stress};
  BatchStorage& host = backend.host({Field::Ptr, Field::Cell, Field::Positions, Field::Forces, Field::Stress}, fields);
  if (!mapped_) mapAtoms(host);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  double* f = host.f64(Field::Forces);
  double* stress = host.f64(Field::Stress);
  const double* cells = host.f64(Field::Cell);
  for (std::size_t s = 0; s < groups_.size(); ++s) {
    if (active != nullptr && !active[s]) continue;
    const Group& group = groups_[s];
    const std::int64_t begin = ptr[s], atoms = ptr[s + 1] - ptr[s];
    double inverse[9];
    if (!invert3(cells + 9 * s, inverse)) fail("SINGULAR_CELL", "FixSymmetry: system " + std::to_string(s) + " has a singular cell");
    fractional_.resize(static_cast<std::size_t>(3 * atoms));
    sum_.resize(static_cast<std::size_t>(3 * atoms));
    symmetrizeVectors(cells + 9 * s, inverse, group.rotations.data(), group.map.data(), group.ops, atoms, f + 3 * begin, f + 3 * begin, fractional_.data(), sum_.data());
    symmetrizeTensor(cells + 9 * s, inverse, group.rotations.data(), group.ops, stress + 9 * s, stress + 9 * s);
  }
}

void FixSymmetry::symmetrizeStep(Backend& backend, const std::uint8_t* active) {
  BatchStorage& host = backend.host({Field::Ptr, Field::Cell, Field::Positions}, {Field::Positions});
  if (!mapped_) mapAtoms(host);
  const std::int32_t* ptr = host.i32(Field::Ptr);
  double* x = host.f64(Field::Positions);
  const double* cells = host.f64(Field::Cell);
  for (std::size_t s = 0; s < groups_.size(); ++s) {
    if (active != nullptr && !active[s]) continue;
    const Group& group = groups_[s];
    const std::int64_t begin = ptr[s], atoms = ptr[s + 1] - ptr[s];
    double inverse[9], inverseBefore[9];
    if (!invert3(cells + 9 * s, inverse) || !invert3(cellsBefore_.data() + 9 * s, inverseBefore)) {
      fail("SINGULAR_CELL", "FixSymmetry: system " + std::to_string(s) + " has a singular cell");
    }
    // The step in fractional coordinates, Δs = x·C⁻¹ − x₀·C₀⁻¹ (nearest image, so a wrap is no step), as
    // Cartesian components on the new cell: ASE's adjust_positions, after the cell has moved with its atoms.
    step_.resize(static_cast<std::size_t>(3 * atoms));
    for (std::int64_t i = 0; i < atoms; ++i) {
      double now[3], then[3], ds[3];
      toFractional(x + 3 * (begin + i), inverse, now);
      toFractional(before_.data() + 3 * (begin + i), inverseBefore, then);
      for (int a = 0; a < 3; ++a) ds[a] = now[a] - then[a] - std::nearbyint(now[a] - then[a]);
      toCartesian(ds, cells + 9 * s, step_.data() + 3 * i);
    }
    fractional_.resize(step_.size());
    sum_.resize(step_.size());
    symmetric_.resize(step_.size());
    symmetrizeVectors(cells + 9 * s, inverse, group.rotations.data(), group.map.data(), group.ops, atoms, step_.data(), symmetric_.data(), fractional_.data(), sum_.data());
    for (std::size_t k = 0; k < step_.size(); ++k) x[3 * begin + static_cast<std::int64_t>(k)] += symmetric_[k] - step_[k];
  }
}

void FixSymmetry::apply(Backend& backend, DynamicsStage stage, std::int64_t, const std::uint8_t* active) {
  if (stage == DynamicsStage::AfterCompute) {
    symmetrizeResults(backend, active);
  } else if (stage == DynamicsStage::BeforePreUpdate || stage == DynamicsStage::BeforePostUpdate) {
    const BatchStorage& host = backend.host({Field::Positions, Field::Cell});
    before_.assign(host.f64(Field::Positions), host.f64(Field::Positions) + 3 * host.numAtoms());
    cellsBefore_.assign(host.f64(Field::Cell), host.f64(Field::Cell) + 9 * host.numSystems());
  } else if (stage == DynamicsStage::AfterPreUpdate || stage == DynamicsStage::AfterPostUpdate) {
    symmetrizeStep(backend, active);
  }
}

}  // namespace hookmd
