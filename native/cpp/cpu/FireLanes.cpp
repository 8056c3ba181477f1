#include "cpu/FireLanes.h"

#include <algorithm>

#include "core/CpuFeatures.h"
#include "core/Simd.h"

namespace hookmd {

namespace {

// GCC/Clang vector types: arithmetic is per lane, a comparison gives an all-ones or zero lane, and
// `mask ? a : b` selects per lane. Compiled inside a target wrapper they map onto that target's registers.
template <int W>
struct Lanes;
template <>
struct Lanes<8> {
  typedef double Real __attribute__((vector_size(64)));
  typedef long long Mask __attribute__((vector_size(64)));
};
template <>
struct Lanes<4> {
  typedef double Real __attribute__((vector_size(32)));
  typedef long long Mask __attribute__((vector_size(32)));
};
template <>
struct Lanes<2> {
  typedef double Real __attribute__((vector_size(16)));
  typedef long long Mask __attribute__((vector_size(16)));
};

// Vectors pass by reference: the helpers are declared outside the target wrappers, whose ABI they must not fix.
template <int W>
HOOKMD_ALWAYS_INLINE void laneSqrt(typename Lanes<W>::Real& out, const typename Lanes<W>::Real& a) {
  for (int l = 0; l < W; ++l) out[l] = __builtin_sqrt(a[l]);
}

template <int W>
HOOKMD_ALWAYS_INLINE bool anyLane(const typename Lanes<W>::Mask& mask) {
  for (int l = 0; l < W; ++l) {
    if (mask[l] != 0) return true;
  }
  return false;
}

bool due(const SmallCheck& check, std::int64_t step) { return step >= check.phase && (step - check.phase) % check.frequency == 0; }

template <int W>
HOOKMD_ALWAYS_INLINE void fireLanesBody(const FireLaneBatch& b, const std::int64_t* systems, int count, LaneOutcome* outcomes) {
  using Real = typename Lanes<W>::Real;
  using Mask = typename Lanes<W>::Mask;
  const Real zero = Real{};
  const std::int32_t n = b.ptr[systems[0] + 1] - b.ptr[systems[0]];
  const int k3 = 3 * n;
  Real x[3 * kSmallSystemAtoms], v[3 * kSmallSystemAtoms], f[3 * kSmallSystemAtoms];
  Real xN[3 * kSmallSystemAtoms], vN[3 * kSmallSystemAtoms], fN[3 * kSmallSystemAtoms];
  Real dt = zero, alpha = zero, streak = zero, first = zero, energy = zero, status = zero;
  Real pDt = zero, pDtMax = zero, pDtMin = zero, pMaxStep = zero, pNMin = zero, pFInc = zero, pFDec = zero, pAlphaStart = zero,
       pFAlpha = zero;
  Mask active = Mask{};
  // Lanes past `count` repeat the first system and never commit.
  for (int l = 0; l < W; ++l) {
    const std::int64_t s = systems[l < count ? l : 0];
    const std::int64_t begin = 3 * static_cast<std::int64_t>(b.ptr[s]);
    for (int k = 0; k < k3; ++k) {
      x[k][l] = b.positions[begin + k];
      v[k][l] = b.velocityRows[s][k];
      f[k][l] = b.forces[begin + k];
    }
    const double* row = b.stateRows[s];
    dt[l] = row[0];
    alpha[l] = row[1];
    streak[l] = row[2];
    first[l] = row[3];
    const FireParameters& p = *b.parameters[s];
    pDt[l] = p.dt;
    pDtMax[l] = p.dtMax;
    pDtMin[l] = p.dtMin;
    pMaxStep[l] = p.maxStep;
    pNMin[l] = p.nMin;
    pFInc[l] = p.fInc;
    pFDec[l] = p.fDec;
    pAlphaStart[l] = p.alphaStart;
    pFAlpha[l] = p.fAlpha;
    energy[l] = b.energy[s];
    status[l] = b.status[s];
    active[l] = l < count ? -1 : 0;
  }
  for (int l = 0; l < count; ++l) outcomes[l] = LaneOutcome{b.chunk.steps, false, false};
  const LennardJonesParams& lj = b.pair;
  const SmallConvergence& convergence = *b.convergence;
  const double exitStatus = b.chunk.exitStatus;

  for (std::int64_t step = b.chunk.firstStep; step < b.chunk.firstStep + b.chunk.steps && anyLane<W>(active); ++step) {
    // Fire::stepSystem: the power, fireAdvance as selects, fireKick, the capped step.
    Real vf = zero, ff = zero, vv = zero;
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) {
        vf += f[3 * i + c] * v[3 * i + c];
        ff += f[3 * i + c] * f[3 * i + c];
        vv += v[3 * i + c] * v[3 * i + c];
      }
    }
    const Mask isFirst = first != 0.0;
    const Mask positive = ~isFirst & (vf > 0.0);
    const Mask grow = positive & (streak > pNMin);
    const Real grownDt = dt * pFInc;
    const Real shrunkDt = dt * pFDec;
    const Real dtN = isFirst ? pDt : (grow ? (grownDt < pDtMax ? grownDt : pDtMax) : (positive ? dt : (shrunkDt > pDtMin ? shrunkDt : pDtMin)));
    const Real alphaN = isFirst ? pAlphaStart : (grow ? alpha * pFAlpha : (positive ? alpha : pAlphaStart));
    const Real streakN = positive ? streak + 1.0 : zero;
    Real forceNorm = zero, speedNorm = zero;
    laneSqrt<W>(forceNorm, ff);
    laneSqrt<W>(speedNorm, vv);
    Real stepSquared = zero;
    for (int i = 0; i < n; ++i) {
      Real atomSquared = zero;
      for (int c = 0; c < 3; ++c) {
        const int k = 3 * i + c;
        const Real mixed = (1.0 - alpha) * v[k] + alpha * f[k] / forceNorm * speedNorm;
        vN[k] = (positive ? mixed : zero) + dtN * f[k];
        const Real dr = dtN * vN[k];
        atomSquared += dr * dr;
      }
      stepSquared += atomSquared;
    }
    Real stepNorm = zero;
    laneSqrt<W>(stepNorm, stepSquared);
    const Mask capped = stepNorm > pMaxStep;
    Mask finite = active;
    // The capped step divides per component; most steps cap no lane and skip the divisions.
    if (anyLane<W>(capped)) {
      for (int k = 0; k < k3; ++k) {
        const Real dr = dtN * vN[k];
        xN[k] = x[k] + (capped ? pMaxStep * dr / stepNorm : dr);
      }
    } else {
      for (int k = 0; k < k3; ++k) xN[k] = x[k] + dtN * vN[k];
    }
    for (int k = 0; k < k3; ++k) finite &= (xN[k] - xN[k]) == 0.0;
    for (int k = 0; k < k3; ++k) {
      x[k] = active ? xN[k] : x[k];
      v[k] = active ? vN[k] : v[k];
    }
    dt = active ? dtN : dt;
    alpha = active ? alphaN : alpha;
    streak = active ? streakN : streak;
    first = active ? zero : first;

    // cpu/AllPairs.h with LennardJonesEval, a single species and no switch.
    for (int k = 0; k < k3; ++k) fN[k] = zero;
    Real pairEnergy = zero;
    for (int i = 0; i < n; ++i) {
      const Real xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
      Real fxi = zero, fyi = zero, fzi = zero;
      for (int j = i + 1; j < n; ++j) {
        const Real d0 = x[3 * j] - xi, d1 = x[3 * j + 1] - yi, d2 = x[3 * j + 2] - zi;
        const Real r2 = d0 * d0 + d1 * d1 + d2 * d2;
        const Mask inside = ~(r2 >= lj.cutoffSq);
        const Real r2inv = 1.0 / r2;
        const Real r6inv = r2inv * r2inv * r2inv;
        const Real fOverR = r6inv * (lj.force12 * r6inv - lj.force6) * r2inv;
        const Real e = r6inv * (lj.energy12 * r6inv - lj.energy6) - lj.energyShift;
        pairEnergy = inside ? pairEnergy + e : pairEnergy;
        const Real fx = fOverR * d0, fy = fOverR * d1, fz = fOverR * d2;
        fxi = inside ? fxi - fx : fxi;
        fyi = inside ? fyi - fy : fyi;
        fzi = inside ? fzi - fz : fzi;
        fN[3 * j] = inside ? fN[3 * j] + fx : fN[3 * j];
        fN[3 * j + 1] = inside ? fN[3 * j + 1] + fy : fN[3 * j + 1];
        fN[3 * j + 2] = inside ? fN[3 * j + 2] + fz : fN[3 * j + 2];
      }
      fN[3 * i] += fxi;
      fN[3 * i + 1] += fyi;
      fN[3 * i + 2] += fzi;
    }
    const Real energyN = 0.0 + pairEnergy;
    for (int k = 0; k < k3; ++k) f[k] = finite ? fN[k] : f[k];
    energy = finite ? energyN : energy;
    const Mask stopped = active & ~(finite & ((energyN - energyN) == 0.0));
    const Mask running = active & ~stopped;

    // The fmax checks (math/CriterionValue.h: the largest atom norm), in registration order. The square root
    // rounds correctly and never decreases, so the root of the largest squared norm is the largest norm, bit
    // for bit: one root per lane instead of one per atom. A lane with no finite-or-infinite norm keeps −∞.
    Real largestSquared = -__builtin_inf() + zero;
    for (int i = 0; i < n; ++i) {
      const Real squared = f[3 * i] * f[3 * i] + f[3 * i + 1] * f[3 * i + 1] + f[3 * i + 2] * f[3 * i + 2];
      largestSquared = squared > largestSquared ? squared : largestSquared;
    }
    Real largestRoot = zero;
    laneSqrt<W>(largestRoot, largestSquared);
    const Real largest = largestSquared < 0.0 ? largestSquared : largestRoot;
    Mask moved = Mask{};
    for (const SmallCheck& check : convergence.checks) {
      if (!due(check, step)) continue;
      Mask meets = running & (status == static_cast<double>(check.source));
      for (int c = check.first; c < check.first + check.count; ++c) meets &= largest <= convergence.criteria[static_cast<std::size_t>(c)].threshold;
      status = meets ? static_cast<double>(check.target) + zero : status;
      moved |= meets;
    }
    const Mask finished = running & (status >= exitStatus);
    for (int l = 0; l < count; ++l) {
      if (moved[l]) {
        outcomes[l].converged = true;
        b.chunk.convergedAt[systems[l]] = step;
      }
      if (stopped[l] || finished[l]) outcomes[l].steps = step - b.chunk.firstStep + 1;
      if (stopped[l]) outcomes[l].nonFinite = true;
    }
    active = running & ~finished;
  }

  for (int l = 0; l < count; ++l) {
    const std::int64_t s = systems[l];
    const std::int64_t begin = 3 * static_cast<std::int64_t>(b.ptr[s]);
    for (int k = 0; k < k3; ++k) {
      b.positions[begin + k] = x[k][l];
      b.velocityRows[s][k] = v[k][l];
      b.forces[begin + k] = f[k][l];
    }
    double* row = b.stateRows[s];
    row[0] = dt[l];
    row[1] = alpha[l];
    row[2] = streak[l];
    row[3] = first[l];
    b.energy[s] = energy[l];
    b.status[s] = static_cast<std::int32_t>(status[l]);
  }
}

#if HOOKMD_X86_SIMD
HOOKMD_TARGET_AVX512 void fireLanes8(const FireLaneBatch& b, const std::int64_t* systems, int count, LaneOutcome* outcomes) {
  fireLanesBody<8>(b, systems, count, outcomes);
}

HOOKMD_TARGET_AVX2 void fireLanes4(const FireLaneBatch& b, const std::int64_t* systems, int count, LaneOutcome* outcomes) {
  fireLanesBody<4>(b, systems, count, outcomes);
}
#endif

}  // namespace

int fireLaneWidth() {
#if HOOKMD_X86_SIMD
  switch (simdLevel()) {
    case SimdLevel::Avx512: return 8;
    case SimdLevel::Avx2: return 4;
    case SimdLevel::Baseline: break;
  }
#endif
  return 2;
}

void runFireLanes(const FireLaneBatch& batch, const std::int64_t* systems, int count, LaneOutcome* outcomes) {
#if HOOKMD_X86_SIMD
  switch (fireLaneWidth()) {
    case 8: return fireLanes8(batch, systems, count, outcomes);
    case 4: return fireLanes4(batch, systems, count, outcomes);
    default: break;
  }
#endif
  fireLanesBody<2>(batch, systems, count, outcomes);
}

bool fireLanesCheck(const SmallConvergence& convergence) {
  return std::all_of(convergence.criteria.begin(), convergence.criteria.end(),
                     [](const SmallCriterion& criterion) { return criterion.key == 0 && criterion.op == 4; });
}

}  // namespace hookmd
