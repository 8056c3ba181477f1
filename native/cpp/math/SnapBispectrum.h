// The bispectrum of SNAP (Thompson et al., J. Comput. Phys. 285, 316 (2015)) as LAMMPS's `pair_style snap`
// and ML-IAP's `sna` descriptor define it, shared by the CPU loops and the device kernels (docs/models.md,
// "ML potentials"). For a centre atom i:
//   each neighbour k within r_cut,ik = rcutfac (R_i + R_k) is a point on the 3-sphere,
//     θ₀ = rfac0 π (r − rmin0)/(r_cut − rmin0),  z₀ = r cot θ₀,
//     a = (z₀ − i z)/r₀,  b = (y − i x)/r₀,  r₀ = √(r² + z₀²),
//   whose Wigner matrices u^j (2j = 0 … twojmax) follow from u^0 = 1 by the layer recursion
//     u^j[ma][mb] = √((j−ma)/(j−mb)) ā u^{j−1}[ma][mb] − √(ma/(j−mb)) b̄ u^{j−1}[ma−1][mb]   (2·mb ≤ j)
//   and the symmetry u^j[j−ma][j−mb] = (−1)^{ma−mb} conj(u^j[ma][mb]) (indices are j + m, m = −j … j);
//   U^j = w_self δ + Σ_k w_k f_c(r_k) u^j(k), one per element with chemflag;
//   Z^{j1 j2}_j[ma][mb] = Σ C^{j ma}_{j1 ma1 j2 ma2} C^{j mb}_{j1 mb1 j2 mb2} U^{j1}[ma1][mb1] U^{j2}[ma2][mb2]
//     (divided by 2j + 1 with bnormflag), and B_{j1 j2 j} = Σ_{ma,mb} Re(conj(U^j) Z^{j1 j2}_j) for
//     2·j2 ≤ 2·j1 ≤ 2·j, in the order of the coefficient files.
// The energy E_i is a function of B (linear, quadratic, a network); its gradient β = ∂E_i/∂B turns into the
// adjoint Y^j = ∂E_i/∂U^j, a sum of β-weighted Z blocks, so that the force of neighbour k needs only
// dE_i/dr_k = Σ_j Re(conj(Y^j) · dU^j/dr_k) and never the derivatives of B; that one comes from a reverse
// pass through k's Wigner recursion (snapNeighbourGradient). Only the rows 2·mb ≤ j of Z and Y are
// computed; the other half follows from the symmetry, which is why B and dE/dr count the middle row of an
// even j half and the rows below it twice.
// Arrays are split into real and imaginary parts. Every array of one element is `uSize` long, U^j at
// uBlock[j] with element [mb][ma] at uBlock[j] + mb (2j + 1) + ma. The routines over a centre's totals (U,
// Z, B, Y) take K centres at once, entry k of lane l at k K + l, so that the CPU runs K centres in SIMD
// lanes (every centre has the same index pattern); K = 1 is one centre, as a device thread runs it.
#pragma once

#include <cmath>

#include "core/HostDevice.h"
#include "core/Simd.h"

// The lane routines are pulled whole into the CPU's wider-target wrappers (cpu/SnapCentre.cpp), as
// core/Simd.h's bodies are: on the host they are always inlined.
#if defined(__CUDACC__)
#define HOOKMD_SNAP_LANES HD
#else
#define HOOKMD_SNAP_LANES HOOKMD_ALWAYS_INLINE
#endif

namespace hookmd {

/** One entry (ma, mb) of a Z block, with the ranges of its Clebsch–Gordan sums. */
struct SnapZEntry {
  int ma1min, ma2max, na;
  int mb1min, mb2max, nb;
  /** Offset of U^j[mb][ma] (and of Y^j[mb][ma]) in an element's array. */
  int jju;
};

/**
 * The Z block of (j1, j2, j), j1 ≥ j2 (all numbers are twice the angular momentum), and which bispectrum
 * component its adjoint weight comes from: the sorted triple holding {j1, j2, j}, with the U^j of `role`:
 * 0 — B_{j1 j2 j} (j ≥ j1), elements (e1, e2, e3); 1 — B_{j j2 j1}, elements (e3, e2, e1); 2 — B_{j2 j j1},
 * elements (e2, e3, e1), where e1, e2 are the elements of Z's two factors and e3 that of Y^j.
 */
struct SnapZBlock {
  int j1, j2, j;
  int zBegin, zCount;
  /** Offset of the block's (2·j1 + 1)(2·j2 + 1) Clebsch–Gordan coefficients, [m1][m2]. */
  int cgBegin;
  int bIndex;
  int role;
  /** The multiplicity of U^j in the component and, without bnormflag, (2·j1 + 1)/(2·j + 1). */
  double factor;
};

/** What the bispectrum routines read: the settings of the descriptor and its index tables. */
struct SnapLayout {
  int twojmax;
  /** Elements of U (the file's elements with chemflag, otherwise 1). */
  int numElements;
  int uSize, zSize, numZBlocks;
  /** Bispectrum components per element triple (the `ncoeff` of one triple). */
  int numB;
  double rfac0, rmin0, wself;
  bool switchFlag, bnormFlag, wselfAllFlag, bzeroFlag;
  const int* uBlock;
  /** √(p/q) at p (twojmax + 1) + q. */
  const double* rootpq;
  const SnapZEntry* z;
  const SnapZBlock* zBlocks;
  /** For each bispectrum component (file order), its Z block. */
  const int* bBlocks;
  const double* cg;
};

namespace snap_detail {
constexpr double kPi = 3.14159265358979323846;
}

/** The smooth cutoff f_c(r) (1 without switchflag) and its slope. */
HD void snapSwitch(const SnapLayout& L, double r, double rcut, double& fc, double& dfc) {
  if (!L.switchFlag) {
    fc = 1.0;
    dfc = 0.0;
    return;
  }
  if (r <= L.rmin0) {
    fc = 1.0;
    dfc = 0.0;
    return;
  }
  if (r > rcut) {
    fc = 0.0;
    dfc = 0.0;
    return;
  }
  const double scale = snap_detail::kPi / (rcut - L.rmin0);
  const double angle = (r - L.rmin0) * scale;
  fc = 0.5 * (cos(angle) + 1.0);
  dfc = -0.5 * sin(angle) * scale;
}

/**
 * Zeroes the totals U of K centres (ur, ui: numElements × uSize × K) and puts w_self on the diagonals of each
 * lane's centre element (`centres[l]`), or of every element with wselfallflag.
 */
template <int K>
HD void snapClearTotals(const SnapLayout& L, const int* centres, double* ur, double* ui) {
  for (int k = 0; k < L.numElements * L.uSize * K; ++k) {
    ur[k] = 0.0;
    ui[k] = 0.0;
  }
  for (int e = 0; e < L.numElements; ++e) {
    for (int l = 0; l < K; ++l) {
      if (e != centres[l] && !L.wselfAllFlag) continue;
      for (int j = 0; j <= L.twojmax; ++j) {
        for (int m = 0; m <= j; ++m) ur[(e * L.uSize + L.uBlock[j] + m * (j + 1) + m) * K + l] = L.wself;
      }
    }
  }
}

/** The Cayley–Klein parameters a, b of the offset (x, y, z) at distance r, and z₀. */
HD void snapCayleyKlein(const SnapLayout& L, double x, double y, double z, double r, double rcut, double& ar, double& ai,
                        double& br, double& bi, double& z0, double& r0inv) {
  const double theta0 = (r - L.rmin0) * L.rfac0 * snap_detail::kPi / (rcut - L.rmin0);
  z0 = r / tan(theta0);
  r0inv = 1.0 / sqrt(r * r + z0 * z0);
  ar = r0inv * z0;
  ai = -r0inv * z;
  br = r0inv * y;
  bi = -r0inv * x;
}

/** Fills the lower-left rows of layer j from their mirror images: u[j−ma][j−mb] = (−1)^{ma−mb} conj(u[ma][mb]). */
HD void snapMirrorLayer(int j, double* ur, double* ui) {
  int low = 0;
  int high = (j + 1) * (j + 1) - 1;
  int rowSign = 1;
  for (int mb = 0; 2 * mb <= j; ++mb) {
    int sign = rowSign;
    for (int ma = 0; ma <= j; ++ma) {
      ur[high] = sign * ur[low];
      ui[high] = -sign * ui[low];
      sign = -sign;
      ++low;
      --high;
    }
    rowSign = -rowSign;
  }
}

/** One neighbour's Wigner matrices u^j, every layer in full, into ur, ui (uSize each). */
HD void snapNeighbourU(const SnapLayout& L, double ar, double ai, double br, double bi, double* ur, double* ui) {
  const int stride = L.twojmax + 1;
  ur[0] = 1.0;
  ui[0] = 0.0;
  for (int j = 1; j <= L.twojmax; ++j) {
    double* cr = ur + L.uBlock[j];
    double* ci = ui + L.uBlock[j];
    const double* pr = ur + L.uBlock[j - 1];
    const double* pi = ui + L.uBlock[j - 1];
    for (int mb = 0; 2 * mb <= j; ++mb) {
      double* rowr = cr + mb * (j + 1);
      double* rowi = ci + mb * (j + 1);
      const double* prevr = pr + mb * j;
      const double* previ = pi + mb * j;
      rowr[0] = 0.0;
      rowi[0] = 0.0;
      for (int ma = 0; ma < j; ++ma) {
        // conj(a) u and −conj(b) u of the previous layer, into entries ma and ma + 1.
        const double ra = L.rootpq[(j - ma) * stride + (j - mb)];
        rowr[ma] += ra * (ar * prevr[ma] + ai * previ[ma]);
        rowi[ma] += ra * (ar * previ[ma] - ai * prevr[ma]);
        const double rb = L.rootpq[(ma + 1) * stride + (j - mb)];
        rowr[ma + 1] = -rb * (br * prevr[ma] + bi * previ[ma]);
        rowi[ma + 1] = -rb * (br * previ[ma] - bi * prevr[ma]);
      }
    }
    snapMirrorLayer(j, cr, ci);
  }
}

/** U_e += s u in lane l: one neighbour's matrices u into the total of its element (totr, toti: that element's uSize × K). */
template <int K>
HD void snapAddU(const SnapLayout& L, int lane, double s, const double* ur, const double* ui, double* totr, double* toti) {
  for (int k = 0; k < L.uSize; ++k) {
    totr[k * K + lane] += s * ur[k];
    toti[k * K + lane] += s * ui[k];
  }
}

#if !defined(__CUDACC__) && defined(__GNUC__)
/** Four lanes as one vector (GCC's vector extension): the compiler keeps the lanes' loop in vector registers. */
typedef double SnapLanes4 __attribute__((vector_size(4 * sizeof(double))));

/** snapZ of four lanes, in vectors; each lane's operations and their order are those of the scalar body. */
HOOKMD_SNAP_LANES void snapZ4(const SnapLayout& L, const double* ur, const double* ui, double* zr, double* zi) {
  typedef SnapLanes4 V;
  // By reference: a vector returned by value would change the ABI of the baseline build.
  const auto load = [](V& v, const double* p) { __builtin_memcpy(&v, p, sizeof v); };
  const int ne = L.numElements;
  for (int e1 = 0; e1 < ne; ++e1) {
    for (int e2 = 0; e2 < ne; ++e2) {
      const double* u1r = ur + e1 * L.uSize * 4;
      const double* u1i = ui + e1 * L.uSize * 4;
      const double* u2r = ur + e2 * L.uSize * 4;
      const double* u2i = ui + e2 * L.uSize * 4;
      double* outr = zr + (e1 * ne + e2) * L.zSize * 4;
      double* outi = zi + (e1 * ne + e2) * L.zSize * 4;
      for (int blockIndex = 0; blockIndex < L.numZBlocks; ++blockIndex) {
        const SnapZBlock& block = L.zBlocks[blockIndex];
        const int j1 = block.j1, j2 = block.j2;
        const double* cg = L.cg + block.cgBegin;
        const double norm = L.bnormFlag ? 1.0 / (block.j + 1) : 1.0;
        for (int n = 0; n < block.zCount; ++n) {
          const SnapZEntry& entry = L.z[block.zBegin + n];
          V sumr = {0.0, 0.0, 0.0, 0.0}, sumi = {0.0, 0.0, 0.0, 0.0};
          int row1 = L.uBlock[j1] + (j1 + 1) * entry.mb1min;
          int row2 = L.uBlock[j2] + (j2 + 1) * entry.mb2max;
          int cgb = entry.mb1min * (j2 + 1) + entry.mb2max;
          for (int ib = 0; ib < entry.nb; ++ib) {
            V ar = {0.0, 0.0, 0.0, 0.0}, ai = {0.0, 0.0, 0.0, 0.0};
            int ma1 = entry.ma1min, ma2 = entry.ma2max;
            int cga = entry.ma1min * (j2 + 1) + entry.ma2max;
            for (int ia = 0; ia < entry.na; ++ia) {
              const double c = cg[cga];
              V p1r, p1i, p2r, p2i;
              load(p1r, u1r + (row1 + ma1) * 4);
              load(p1i, u1i + (row1 + ma1) * 4);
              load(p2r, u2r + (row2 + ma2) * 4);
              load(p2i, u2i + (row2 + ma2) * 4);
              ar += c * (p1r * p2r - p1i * p2i);
              ai += c * (p1r * p2i + p1i * p2r);
              ++ma1;
              --ma2;
              cga += j2;
            }
            sumr += cg[cgb] * ar;
            sumi += cg[cgb] * ai;
            row1 += j1 + 1;
            row2 -= j2 + 1;
            cgb += j2;
          }
          const V zr4 = sumr * norm, zi4 = sumi * norm;
          __builtin_memcpy(outr + (block.zBegin + n) * 4, &zr4, sizeof zr4);
          __builtin_memcpy(outi + (block.zBegin + n) * 4, &zi4, sizeof zi4);
        }
      }
    }
  }
}
#endif

/** Z of every element pair (e1, e2) from the totals of K centres: zr, zi at (((e1 ne + e2) zSize + entry) K + lane). */
template <int K>
HOOKMD_SNAP_LANES void snapZ(const SnapLayout& L, const double* ur, const double* ui, double* zr, double* zi) {
#if !defined(__CUDACC__) && defined(__GNUC__)
  if constexpr (K == 4) {
    snapZ4(L, ur, ui, zr, zi);
    return;
  }
#endif
  const int ne = L.numElements;
  for (int e1 = 0; e1 < ne; ++e1) {
    for (int e2 = 0; e2 < ne; ++e2) {
      const double* u1r = ur + e1 * L.uSize * K;
      const double* u1i = ui + e1 * L.uSize * K;
      const double* u2r = ur + e2 * L.uSize * K;
      const double* u2i = ui + e2 * L.uSize * K;
      double* outr = zr + (e1 * ne + e2) * L.zSize * K;
      double* outi = zi + (e1 * ne + e2) * L.zSize * K;
      for (int blockIndex = 0; blockIndex < L.numZBlocks; ++blockIndex) {
        const SnapZBlock& block = L.zBlocks[blockIndex];
        const int j1 = block.j1, j2 = block.j2;
        const double* cg = L.cg + block.cgBegin;
        const double norm = L.bnormFlag ? 1.0 / (block.j + 1) : 1.0;
        for (int n = 0; n < block.zCount; ++n) {
          const SnapZEntry& entry = L.z[block.zBegin + n];
          double sumr[K], sumi[K];
          for (int l = 0; l < K; ++l) sumr[l] = sumi[l] = 0.0;
          int row1 = L.uBlock[j1] + (j1 + 1) * entry.mb1min;
          int row2 = L.uBlock[j2] + (j2 + 1) * entry.mb2max;
          int cgb = entry.mb1min * (j2 + 1) + entry.mb2max;
          for (int ib = 0; ib < entry.nb; ++ib) {
            double ar[K], ai[K];
            for (int l = 0; l < K; ++l) ar[l] = ai[l] = 0.0;
            int ma1 = entry.ma1min, ma2 = entry.ma2max;
            int cga = entry.ma1min * (j2 + 1) + entry.ma2max;
            for (int ia = 0; ia < entry.na; ++ia) {
              const double c = cg[cga];
              const double* p1r = u1r + (row1 + ma1) * K;
              const double* p1i = u1i + (row1 + ma1) * K;
              const double* p2r = u2r + (row2 + ma2) * K;
              const double* p2i = u2i + (row2 + ma2) * K;
              for (int l = 0; l < K; ++l) {
                ar[l] += c * (p1r[l] * p2r[l] - p1i[l] * p2i[l]);
                ai[l] += c * (p1r[l] * p2i[l] + p1i[l] * p2r[l]);
              }
              ++ma1;
              --ma2;
              cga += j2;
            }
            for (int l = 0; l < K; ++l) {
              sumr[l] += cg[cgb] * ar[l];
              sumi[l] += cg[cgb] * ai[l];
            }
            row1 += j1 + 1;
            row2 -= j2 + 1;
            cgb += j2;
          }
          for (int l = 0; l < K; ++l) {
            outr[(block.zBegin + n) * K + l] = sumr[l] * norm;
            outi[(block.zBegin + n) * K + l] = sumi[l] * norm;
          }
        }
      }
    }
  }
}

/**
 * Σ over the computed rows of Re(conj(p) q) for layer j, counting each row below the middle twice and the
 * middle entry once, in lane l of arrays of K lanes.
 */
template <int K = 1>
HD double snapHalfDot(int j, const double* pr, const double* pi, const double* qr, const double* qi, int lane = 0) {
  double sum = 0.0;
  int k = 0;
  for (int mb = 0; 2 * mb < j; ++mb) {
    for (int ma = 0; ma <= j; ++ma, ++k) sum += pr[k * K + lane] * qr[k * K + lane] + pi[k * K + lane] * qi[k * K + lane];
  }
  if (j % 2 == 0) {
    const int mb = j / 2;
    for (int ma = 0; ma < mb; ++ma, ++k) sum += pr[k * K + lane] * qr[k * K + lane] + pi[k * K + lane] * qi[k * K + lane];
    sum += 0.5 * (pr[k * K + lane] * qr[k * K + lane] + pi[k * K + lane] * qi[k * K + lane]);
  }
  return 2.0 * sum;
}

/**
 * The bispectrum of every element triple (e1, e2, e3) of lane l's centre (element `centre`) into b, at
 * ((e1 ne + e2) ne + e3) numB + component, from the totals and Z of K lanes, less the bzero of an isolated
 * atom (w_self³, times 2j + 1 without bnormflag) with bzeroflag.
 */
template <int K>
HD void snapB(const SnapLayout& L, int lane, int centre, const double* ur, const double* ui, const double* zr, const double* zi, double* b) {
  const int ne = L.numElements;
  for (int e1 = 0; e1 < ne; ++e1) {
    for (int e2 = 0; e2 < ne; ++e2) {
      const double* pzr = zr + (e1 * ne + e2) * L.zSize * K;
      const double* pzi = zi + (e1 * ne + e2) * L.zSize * K;
      for (int e3 = 0; e3 < ne; ++e3) {
        double* out = b + ((e1 * ne + e2) * ne + e3) * L.numB;
        for (int k = 0; k < L.numB; ++k) {
          const SnapZBlock& block = L.zBlocks[L.bBlocks[k]];
          const int at = (e3 * L.uSize + L.uBlock[block.j]) * K;
          out[k] = snapHalfDot<K>(block.j, ur + at, ui + at, pzr + block.zBegin * K, pzi + block.zBegin * K, lane);
        }
        const bool shifted = L.wselfAllFlag || (e1 == centre && e2 == centre && e3 == centre);
        if (L.bzeroFlag && shifted) {
          const double www = L.wself * L.wself * L.wself;
          for (int k = 0; k < L.numB; ++k) out[k] -= L.bnormFlag ? www : www * (L.zBlocks[L.bBlocks[k]].j + 1);
        }
      }
    }
  }
}

/**
 * The adjoint Y of K lanes (yr, yi: numElements × uSize × K, rows 2·mb ≤ j) from Z and each lane's gradient
 * ∂E/∂B (betas[l], laid out as snapB lays out b).
 */
template <int K>
HOOKMD_SNAP_LANES void snapY(const SnapLayout& L, const double* zr, const double* zi, const double* const* betas, double* yr, double* yi) {
  const int ne = L.numElements;
  for (int k = 0; k < ne * L.uSize * K; ++k) {
    yr[k] = 0.0;
    yi[k] = 0.0;
  }
  for (int e1 = 0; e1 < ne; ++e1) {
    for (int e2 = 0; e2 < ne; ++e2) {
      const double* pzr = zr + (e1 * ne + e2) * L.zSize * K;
      const double* pzi = zi + (e1 * ne + e2) * L.zSize * K;
      for (int blockIndex = 0; blockIndex < L.numZBlocks; ++blockIndex) {
        const SnapZBlock& block = L.zBlocks[blockIndex];
        for (int e3 = 0; e3 < ne; ++e3) {
          const int triple = block.role == 0 ? (e1 * ne + e2) * ne + e3 : block.role == 1 ? (e3 * ne + e2) * ne + e1 : (e2 * ne + e3) * ne + e1;
          double weight[K];
          for (int l = 0; l < K; ++l) weight[l] = block.factor * betas[l][triple * L.numB + block.bIndex];
          double* outr = yr + e3 * L.uSize * K;
          double* outi = yi + e3 * L.uSize * K;
          for (int n = 0; n < block.zCount; ++n) {
            const int jju = L.z[block.zBegin + n].jju;
            for (int l = 0; l < K; ++l) {
              outr[jju * K + l] += weight[l] * pzr[(block.zBegin + n) * K + l];
              outi[jju * K + l] += weight[l] * pzi[(block.zBegin + n) * K + l];
            }
          }
        }
      }
    }
  }
}

/**
 * The adjoint Y of one centre (K = 1) for the gradient that is 1 on bispectrum component `component` (laid
 * out as snapB lays out b) and 0 on every other: snapY's sum over only the Z blocks of that component, so
 * that the Y of every component in turn costs about one snapY. With it, snapNeighbourGradient gives that
 * component's derivatives dB/dr_k, which a fit on descriptors needs (training/SnapDescriptorSet).
 */
HD void snapYOfComponent(const SnapLayout& L, const double* zr, const double* zi, int component, double* yr, double* yi) {
  const int ne = L.numElements;
  for (int k = 0; k < ne * L.uSize; ++k) {
    yr[k] = 0.0;
    yi[k] = 0.0;
  }
  const int bIndex = component % L.numB;
  for (int e1 = 0; e1 < ne; ++e1) {
    for (int e2 = 0; e2 < ne; ++e2) {
      const double* pzr = zr + (e1 * ne + e2) * L.zSize;
      const double* pzi = zi + (e1 * ne + e2) * L.zSize;
      for (int blockIndex = 0; blockIndex < L.numZBlocks; ++blockIndex) {
        const SnapZBlock& block = L.zBlocks[blockIndex];
        if (block.bIndex != bIndex) continue;
        for (int e3 = 0; e3 < ne; ++e3) {
          const int triple = block.role == 0 ? (e1 * ne + e2) * ne + e3 : block.role == 1 ? (e3 * ne + e2) * ne + e1 : (e2 * ne + e3) * ne + e1;
          if (triple * L.numB + bIndex != component) continue;
          double* outr = yr + e3 * L.uSize;
          double* outi = yi + e3 * L.uSize;
          for (int n = 0; n < block.zCount; ++n) {
            const int jju = L.z[block.zBegin + n].jju;
            outr[jju] += block.factor * pzr[block.zBegin + n];
            outi[jju] += block.factor * pzi[block.zBegin + n];
          }
        }
      }
    }
  }
}

/**
 * dE_i/dr_k of one neighbour at (x, y, z), distance r, with weight w_k and its matrices u (ur, ui, from
 * snapNeighbourU) against the adjoint y of its element; barr, bari are scratch of uSize each.
 *
 * With F(u) = Σ_j ⟨u^j, Y^j⟩ over the computed rows (the lower ones twice, the middle entry once),
 * dE_i/dr = w (f_c dF/dr + f_c′ r̂ F). dF/dr comes in reverse mode: the adjoint ū = ∂F/∂u starts at the
 * weights of Y, runs back through the mirror images and the layer recursion, layer by layer from the top,
 * and collects ∂F/∂a and ∂F/∂b on the way; the chain rule through a(r) and b(r) ends it. One backward pass
 * costs about what the forward pass did, where the derivatives of u in three directions cost three.
 */
HD void snapNeighbourGradient(const SnapLayout& L, double x, double y, double z, double r, double rcut, double weight,
                              const double* ur, const double* ui, const double* yr, const double* yi, double* barr, double* bari,
                              double dedr[3]) {
  const double ux = x / r, uy = y / r, uz = z / r;
  const double rscale0 = L.rfac0 * snap_detail::kPi / (rcut - L.rmin0);
  const double theta0 = (r - L.rmin0) * rscale0;
  const double cs = cos(theta0), sn = sin(theta0);
  const double z0 = r * cs / sn;
  const double dz0dr = z0 / r - (r * rscale0) * (r * r + z0 * z0) / (r * r);
  const double r0inv = 1.0 / sqrt(r * r + z0 * z0);
  const double ar = r0inv * z0, ai = -r0inv * z, br = r0inv * y, bi = -r0inv * x;
  const double dr0invdr = -r0inv * r0inv * r0inv * (r + z0 * dz0dr);
  const double u[3] = {ux, uy, uz};
  double dar[3], dai[3], dbr[3], dbi[3];
  for (int c = 0; c < 3; ++c) {
    const double dr0inv = dr0invdr * u[c];
    dar[c] = dz0dr * u[c] * r0inv + z0 * dr0inv;
    dai[c] = -z * dr0inv;
    dbr[c] = y * dr0inv;
    dbi[c] = -x * dr0inv;
  }
  dai[2] += -r0inv;
  dbi[0] += -r0inv;
  dbr[1] += r0inv;

  // F, and ū seeded with the weights F gives each computed entry.
  double plain = 0.0;
  for (int j = 0; j <= L.twojmax; ++j) {
    const int at = L.uBlock[j];
    plain += snapHalfDot(j, ur + at, ui + at, yr + at, yi + at);
    for (int k = 0; k < (j + 1) * (j + 1); ++k) {
      barr[at + k] = 0.0;
      bari[at + k] = 0.0;
    }
    int k = 0;
    for (int mb = 0; 2 * mb < j; ++mb) {
      for (int ma = 0; ma <= j; ++ma, ++k) {
        barr[at + k] = 2.0 * yr[at + k];
        bari[at + k] = 2.0 * yi[at + k];
      }
    }
    if (j % 2 == 0) {
      const int mb = j / 2;
      for (int ma = 0; ma < mb; ++ma, ++k) {
        barr[at + k] = 2.0 * yr[at + k];
        bari[at + k] = 2.0 * yi[at + k];
      }
      barr[at + k] = yr[at + k];
      bari[at + k] = yi[at + k];
    }
  }

  const int stride = L.twojmax + 1;
  double abr = 0.0, abi = 0.0, bbr = 0.0, bbi = 0.0;
  for (int j = L.twojmax; j >= 1; --j) {
    const int cur = L.uBlock[j], prev = L.uBlock[j - 1];
    // The rows above the middle are mirror images, u[j−mb][j−ma] = (−1)^{ma−mb} conj(u[mb][ma]): their adjoint goes to their sources.
    for (int mb = 0; 2 * mb < j; ++mb) {
      for (int ma = 0; ma <= j; ++ma) {
        const int low = cur + mb * (j + 1) + ma;
        const int high = cur + (j - mb) * (j + 1) + (j - ma);
        const double sign = (ma + mb) % 2 == 0 ? 1.0 : -1.0;
        barr[low] += sign * barr[high];
        bari[low] -= sign * bari[high];
      }
    }
    // The recursion's rows: u[mb][ma] = √((j−ma)/(j−mb)) ā p[mb][ma] − √(ma/(j−mb)) b̄ p[mb][ma−1].
    for (int mb = 0; 2 * mb <= j; ++mb) {
      const int row = cur + mb * (j + 1);
      const int prow = prev + mb * j;
      for (int ma = 0; ma <= j; ++ma) {
        const double zr = barr[row + ma], zi = bari[row + ma];
        if (ma < j) {
          const double ra = L.rootpq[(j - ma) * stride + (j - mb)];
          const double pr = ur[prow + ma], pi = ui[prow + ma];
          barr[prow + ma] += ra * (ar * zr - ai * zi);
          bari[prow + ma] += ra * (ar * zi + ai * zr);
          abr += ra * (pr * zr + pi * zi);
          abi += ra * (pi * zr - pr * zi);
        }
        if (ma > 0) {
          const double rb = L.rootpq[ma * stride + (j - mb)];
          const double pr = ur[prow + ma - 1], pi = ui[prow + ma - 1];
          barr[prow + ma - 1] -= rb * (br * zr - bi * zi);
          bari[prow + ma - 1] -= rb * (br * zi + bi * zr);
          bbr -= rb * (pr * zr + pi * zi);
          bbi -= rb * (pi * zr - pr * zi);
        }
      }
    }
  }

  double fc, dfc;
  snapSwitch(L, r, rcut, fc, dfc);
  for (int c = 0; c < 3; ++c) {
    const double dF = abr * dar[c] + abi * dai[c] + bbr * dbr[c] + bbi * dbi[c];
    dedr[c] = weight * (fc * dF + dfc * u[c] * plain);
  }
}

}  // namespace hookmd
