#include "dynamics/CpuSmallSystemKernel.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/Error.h"
#include "core/ThreadPool.h"
#include "cpu/FireLanes.h"
#include "dynamics/Fire.h"
#include "kernels/Integrator.h"
#include "kernels/SystemStepper.h"
#include "cpu/AllPairs.h"
#include "math/CriterionValue.h"
#include "math/PairEvaluators.h"
#include "platform/DeviceOperations.h"

namespace hookmd {

namespace {

/** Whether system state `status` at `step` meets check `check` (every criterion ANDed). */
bool meets(const SmallConvergence& convergence, const SmallCheck& check, const SystemAtoms& atoms, double energy, double forceToAccel,
           double kB) {
  for (int k = check.first; k < check.first + check.count; ++k) {
    const SmallCriterion& criterion = convergence.criteria[static_cast<std::size_t>(k)];
    const double value = criterionValue(criterion.key, criterion.op, atoms.f, atoms.v, atoms.m, atoms.count, energy, forceToAccel, kB);
    if (!(value <= criterion.threshold)) return false;
  }
  return true;
}

bool finitePositions(const double* x, std::int32_t count) {
  for (std::int32_t k = 0; k < 3 * count; ++k) {
    if (!(x[k] - x[k] == 0.0)) return false;
  }
  return true;
}

bool due(const SmallCheck& check, std::int64_t step) { return step >= check.phase && (step - check.phase) % check.frequency == 0; }

/**
 * The flag block of a chunk from what each system did: systems still running took the whole chunk;
 * otherwise the batch stopped with its last system.
 */
SmallChunkResult summarize(const std::vector<LaneOutcome>& outcomes, const std::int32_t* status, const SmallChunk& chunk) {
  SmallChunkResult result;
  bool running = false;
  for (std::size_t s = 0; s < outcomes.size(); ++s) {
    const LaneOutcome& outcome = outcomes[s];
    const bool unfinished = status[s] < chunk.exitStatus;
    if (unfinished) ++result.active;
    if (outcome.converged) ++result.converged;
    if (outcome.nonFinite && result.firstNonFinite < 0) {
      result.firstNonFinite = static_cast<std::int64_t>(s);
      result.nonFiniteStep = chunk.firstStep + outcome.steps - 1;
    }
    running = running || (unfinished && !outcome.nonFinite);
    result.steps = std::max(result.steps, outcome.steps);
  }
  if (running) result.steps = chunk.steps;
  return result;
}

class CpuSmallSystemKernel final : public SmallSystemKernel {
 public:
  bool runs(Integrator& integrator) const override {
    return dynamic_cast<SystemStepper*>(&integrator) != nullptr && smallSystemIntegrator(integrator.name());
  }

  // Host memory needs no uploads: the tables are read where they are.
  SmallChunkResult run(Backend& backend, Integrator& integrator, const AllPairsModel& model, const SmallConvergence& convergence,
                       const SmallChunk& chunk, const SmallUploads&) override {
    const FieldSet writes{Field::Positions, Field::Velocities, Field::Forces, Field::Energy, Field::Status};
    BatchStorage& arrays = arraysFor(backend, Kernel::SmallSystems, writes | FieldSet{Field::Masses, Field::Ptr, Field::SystemId}, writes);
    auto& stepper = dynamic_cast<SystemStepper&>(integrator);
    stepper.prepareSystems(arrays.i32(Field::Ptr), arrays.numSystems());
    auto* fire = dynamic_cast<Fire*>(&integrator);
    if (fire != nullptr && model.spec->evaluator == PairEvaluator::LennardJones && model.spec->numTypes == 1 &&
        model.spec->switches.empty() && fireLanesCheck(convergence)) {
      return runLanes(arrays, *fire, model, convergence, chunk);
    }
    const int code = (model.spec->switches.empty() ? 0 : 2) | (model.spec->numTypes == 1 ? 1 : 0);
    return visitPairEvaluator(model.spec->evaluator, [&](auto kind) {
      return runFor<typename decltype(kind)::Eval>(code, arrays, stepper, model, convergence, chunk);
    });
  }

 private:
  template <class Eval>
  static SmallChunkResult runFor(int code, BatchStorage& arrays, SystemStepper& stepper, const AllPairsModel& model,
                                 const SmallConvergence& convergence, const SmallChunk& chunk) {
    switch (code) {
      case 0: return runAll<Eval, false, false>(arrays, stepper, model, convergence, chunk);
      case 1: return runAll<Eval, false, true>(arrays, stepper, model, convergence, chunk);
      case 2: return runAll<Eval, true, false>(arrays, stepper, model, convergence, chunk);
      default: return runAll<Eval, true, true>(arrays, stepper, model, convergence, chunk);
    }
  }

  template <class Eval, bool kSwitch, bool kSingle>
  static SmallChunkResult runAll(BatchStorage& arrays, SystemStepper& stepper, const AllPairsModel& model,
                                 const SmallConvergence& convergence, const SmallChunk& chunk) {
    using Params = typename Eval::Params;
    const auto* params = reinterpret_cast<const Params*>(model.spec->params.data());
    const SwitchParams* switches = kSwitch ? model.spec->switches.data() : nullptr;
    const int numTypes = model.spec->numTypes;
    const std::uint8_t* types = kSingle ? nullptr : model.types.types->data();
    const std::int64_t numSystems = arrays.numSystems();
    const std::int32_t* ptr = arrays.i32(Field::Ptr);
    double* positions = arrays.f64(Field::Positions);
    double* velocities = arrays.f64(Field::Velocities);
    double* forces = arrays.f64(Field::Forces);
    const double* masses = arrays.f64(Field::Masses);
    double* energies = arrays.f64(Field::Energy);
    std::int32_t* status = arrays.i32(Field::Status);
    const std::int32_t* systemIds = arrays.i32(Field::SystemId);
    const double forceToAccel = arrays.units.forceToAccel;
    const double kB = arrays.units.kB;
    std::vector<LaneOutcome> outcomes(static_cast<std::size_t>(numSystems));

    ThreadPool::global().parallelFor(0, numSystems, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      std::array<double, 3 * kSmallSystemAtoms> x;
      std::array<double, 3 * kSmallSystemAtoms> v;
      std::array<double, 3 * kSmallSystemAtoms> f;
      for (std::int64_t s = lo; s < hi; ++s) {
        std::int32_t state = status[s];
        if (state >= chunk.exitStatus) continue;
        const std::int64_t begin = ptr[s];
        const std::int32_t count = ptr[s + 1] - ptr[s];
        std::copy_n(positions + 3 * begin, 3 * count, x.begin());
        std::copy_n(velocities + 3 * begin, 3 * count, v.begin());
        std::copy_n(forces + 3 * begin, 3 * count, f.begin());
        const SystemAtoms atoms{x.data(), v.data(), f.data(), masses + begin, count, systemIds[s]};
        const std::uint8_t* systemTypes = kSingle ? nullptr : types + begin;
        double energy = energies[s];
        LaneOutcome& outcome = outcomes[static_cast<std::size_t>(s)];
        outcome.steps = chunk.steps;
        for (std::int64_t k = 0; k < chunk.steps; ++k) {
          const std::int64_t step = chunk.firstStep + k;
          stepper.beforeForces(s, atoms, step, forceToAccel, kB);
          // The general path's compute fails here (a neighbor build refuses a non-finite position, an overlap
          // check names the atoms of a non-finite energy): stop this system at this step; the stepper then
          // runs the general compute for that error.
          bool finite = finitePositions(x.data(), count);
          if (finite) {
            energy = allPairForces<Eval, kSwitch, kSingle>(x.data(), count, systemTypes, params, switches, numTypes, f.data());
            finite = energy - energy == 0.0;
          }
          if (!finite) {
            outcome.steps = k + 1;
            outcome.nonFinite = true;
            break;
          }
          stepper.afterForces(s, atoms, forceToAccel);
          for (const SmallCheck& check : convergence.checks) {
            if (state == check.source && due(check, step) && meets(convergence, check, atoms, energy, forceToAccel, kB)) {
              state = check.target;
              chunk.convergedAt[s] = step;
              outcome.converged = true;
            }
          }
          if (state >= chunk.exitStatus) {
            outcome.steps = k + 1;
            break;
          }
        }
        std::copy_n(x.begin(), 3 * count, positions + 3 * begin);
        std::copy_n(v.begin(), 3 * count, velocities + 3 * begin);
        std::copy_n(f.begin(), 3 * count, forces + 3 * begin);
        energies[s] = energy;
        status[s] = state;
      }
    });

    return summarize(outcomes, status, chunk);
  }

  /**
   * FIRE with a single-species Lennard-Jones table: groups of clusters of one size in SIMD lanes
   * (cpu/FireLanes.h). A chunk may be a single step (at 65,536 clusters one step fills the async run's 20 ms
   * budget), so its serial part is O(B) and allocates nothing: the running systems ordered by size in one
   * counting pass (stable, as a stable sort by size would order them), buffers kept from chunk to chunk, and
   * each group's pointers and zeroed batch velocities set by the thread that steps it.
   */
  SmallChunkResult runLanes(BatchStorage& arrays, Fire& fire, const AllPairsModel& model, const SmallConvergence& convergence,
                            const SmallChunk& chunk) {
    const std::int64_t numSystems = arrays.numSystems();
    const auto systems = static_cast<std::size_t>(numSystems);
    const std::int32_t* ptr = arrays.i32(Field::Ptr);
    std::int32_t* status = arrays.i32(Field::Status);
    double* batchVelocities = arrays.f64(Field::Velocities);
    std::array<std::int64_t, kSmallSystemAtoms + 2> start{};
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (status[s] < chunk.exitStatus) ++start[static_cast<std::size_t>(ptr[s + 1] - ptr[s]) + 1];
    }
    for (std::size_t size = 1; size < start.size(); ++size) start[size] += start[size - 1];
    order_.resize(static_cast<std::size_t>(start.back()));
    for (std::int64_t s = 0; s < numSystems; ++s) {
      if (status[s] < chunk.exitStatus) order_[static_cast<std::size_t>(start[static_cast<std::size_t>(ptr[s + 1] - ptr[s])]++)] = s;
    }
    // Groups of up to `width` systems of one size, in that order.
    const int width = fireLaneWidth();
    groups_.clear();
    for (std::size_t k = 0; k < order_.size(); ++k) {
      const std::int32_t size = ptr[order_[k] + 1] - ptr[order_[k]];
      if (groups_.empty() || k - groups_.back() == static_cast<std::size_t>(width) ||
          ptr[order_[groups_.back()] + 1] - ptr[order_[groups_.back()]] != size) {
        groups_.push_back(k);
      }
    }
    groups_.push_back(order_.size());
    parameters_.resize(systems);
    rows_.resize(systems);
    velocityRows_.resize(systems);
    outcomes_.assign(systems, LaneOutcome{});
    LennardJonesParams pair;
    std::memcpy(&pair, model.spec->params.data(), sizeof pair);
    const FireLaneBatch batch{ptr,           arrays.f64(Field::Positions), arrays.f64(Field::Forces), arrays.f64(Field::Energy), status,
                              parameters_.data(), rows_.data(), velocityRows_.data(), pair, &convergence, chunk};
    ThreadPool::global().parallelFor(0, static_cast<std::int64_t>(groups_.size()) - 1, 1, [&](std::int64_t lo, std::int64_t hi, int) {
      LaneOutcome lanes[kMaxFireLanes];
      for (std::int64_t g = lo; g < hi; ++g) {
        const std::size_t first = groups_[static_cast<std::size_t>(g)];
        const int count = static_cast<int>(groups_[static_cast<std::size_t>(g) + 1] - first);
        for (int l = 0; l < count; ++l) {
          const std::int64_t s = order_[first + static_cast<std::size_t>(l)];
          parameters_[static_cast<std::size_t>(s)] = &fire.parameters(s);
          rows_[static_cast<std::size_t>(s)] = fire.stateRow(s);
          velocityRows_[static_cast<std::size_t>(s)] = fire.velocities(s);
          // As on the general path, a system the optimizer steps holds its batch velocities at zero.
          std::fill(batchVelocities + 3 * static_cast<std::int64_t>(ptr[s]), batchVelocities + 3 * static_cast<std::int64_t>(ptr[s + 1]), 0.0);
        }
        runFireLanes(batch, order_.data() + first, count, lanes);
        for (int l = 0; l < count; ++l) outcomes_[static_cast<std::size_t>(order_[first + static_cast<std::size_t>(l)])] = lanes[l];
      }
    });
    return summarize(outcomes_, status, chunk);
  }

  // The lane path's buffers, kept from chunk to chunk (runLanes).
  std::vector<std::int64_t> order_;
  std::vector<std::size_t> groups_;
  std::vector<const FireParameters*> parameters_;
  std::vector<double*> rows_;
  std::vector<double*> velocityRows_;
  std::vector<LaneOutcome> outcomes_;
};

}  // namespace

std::unique_ptr<SmallSystemKernel> createCpuSmallSystemKernel() { return std::make_unique<CpuSmallSystemKernel>(); }

}  // namespace hookmd
