#include "kernels/SnapTables.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace hookmd {

namespace {

double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

/**
 * ⟨j1 m1 j2 m2 | j m1+m2⟩ by Racah's formula, every argument twice its value (so 2j = j here and the
 * projections m run −j … j in steps of 2); 0 when |m1 + m2| > j.
 */
double clebschGordan(int j1, int m1, int j2, int m2, int j) {
  const int m = m1 + m2;
  if (m < -j || m > j) return 0.0;
  const double triangle = std::sqrt(factorial((j1 + j2 - j) / 2) * factorial((j1 - j2 + j) / 2) * factorial((-j1 + j2 + j) / 2) /
                                    factorial((j1 + j2 + j) / 2 + 1));
  const double projections = std::sqrt(factorial((j1 + m1) / 2) * factorial((j1 - m1) / 2) * factorial((j2 + m2) / 2) *
                                       factorial((j2 - m2) / 2) * factorial((j + m) / 2) * factorial((j - m) / 2) * (j + 1));
  const int kMin = std::max({0, -(j - j2 + m1) / 2, -(j - j1 - m2) / 2});
  const int kMax = std::min({(j1 + j2 - j) / 2, (j1 - m1) / 2, (j2 + m2) / 2});
  double sum = 0.0;
  for (int k = kMin; k <= kMax; ++k) {
    const double sign = k % 2 == 0 ? 1.0 : -1.0;
    sum += sign / (factorial(k) * factorial((j1 + j2 - j) / 2 - k) * factorial((j1 - m1) / 2 - k) * factorial((j2 + m2) / 2 - k) *
                   factorial((j - j2 + m1) / 2 + k) * factorial((j - j1 - m2) / 2 + k));
  }
  return sum * triangle * projections;
}

/** The range of ma1 (and ma2 = sum − ma1) with 0 ≤ ma1 ≤ j1, 0 ≤ ma2 ≤ j2, for ma1 + ma2 = ma + (j1 + j2 − j)/2. */
void sumRange(int j1, int j2, int j, int ma, int& min1, int& max2, int& count) {
  const int sum = ma + (j1 + j2 - j) / 2;
  min1 = std::max(0, sum - j2);
  count = std::min(j1, sum) - min1 + 1;
  max2 = sum - min1;
}

}  // namespace

int SnapTables::componentsPerTriple(int twojmax) {
  int count = 0;
  for (int j1 = 0; j1 <= twojmax; ++j1) {
    for (int j2 = 0; j2 <= j1; ++j2) {
      for (int j = j1 - j2; j <= std::min(twojmax, j1 + j2); j += 2) count += j >= j1 ? 1 : 0;
    }
  }
  return count;
}

SnapTables::SnapTables(const SnapDescriptorSettings& settings, int numElements) {
  const int jmax = settings.twojmax;
  int uSize = 0;
  for (int j = 0; j <= jmax; ++j) {
    uBlock_.push_back(uSize);
    uSize += (j + 1) * (j + 1);
  }
  rootpq_.assign(static_cast<std::size_t>(jmax + 1) * (jmax + 1), 0.0);
  for (int p = 1; p <= jmax; ++p) {
    for (int q = 1; q <= jmax; ++q) rootpq_[p * (jmax + 1) + q] = std::sqrt(static_cast<double>(p) / q);
  }

  // The bispectrum components (2·j2 ≤ 2·j1 ≤ 2·j), in the coefficient files' order.
  std::map<std::tuple<int, int, int>, int> component;
  for (int j1 = 0; j1 <= jmax; ++j1) {
    for (int j2 = 0; j2 <= j1; ++j2) {
      for (int j = j1 - j2; j <= std::min(jmax, j1 + j2); j += 2) {
        if (j >= j1) component.emplace(std::make_tuple(j1, j2, j), static_cast<int>(component.size()));
      }
    }
  }
  bBlocks_.assign(component.size(), -1);

  for (int j1 = 0; j1 <= jmax; ++j1) {
    for (int j2 = 0; j2 <= j1; ++j2) {
      for (int j = j1 - j2; j <= std::min(jmax, j1 + j2); j += 2) {
        SnapZBlock block{};
        block.j1 = j1;
        block.j2 = j2;
        block.j = j;
        block.cgBegin = static_cast<int>(cg_.size());
        for (int m1 = 0; m1 <= j1; ++m1) {
          for (int m2 = 0; m2 <= j2; ++m2) cg_.push_back(clebschGordan(j1, 2 * m1 - j1, j2, 2 * m2 - j2, j));
        }
        block.zBegin = static_cast<int>(z_.size());
        for (int mb = 0; 2 * mb <= j; ++mb) {
          for (int ma = 0; ma <= j; ++ma) {
            SnapZEntry entry{};
            sumRange(j1, j2, j, ma, entry.ma1min, entry.ma2max, entry.na);
            sumRange(j1, j2, j, mb, entry.mb1min, entry.mb2max, entry.nb);
            entry.jju = uBlock_[j] + mb * (j + 1) + ma;
            z_.push_back(entry);
          }
        }
        block.zCount = static_cast<int>(z_.size()) - block.zBegin;
        // U^j's weight in E is the derivative of the one component holding {j1, j2, j}: B is cubic in U, and
        // (2j + 1)⁻¹ B_{j1 j2 j} is symmetric in its three indices, so Z^{j1 j2}_j stands for the factors
        // of that component that are not U^j.
        const double ratio = settings.bnormFlag ? 1.0 : (j1 + 1.0) / (j + 1.0);
        if (j >= j1) {
          block.role = 0;
          block.bIndex = component.at(std::make_tuple(j1, j2, j));
          block.factor = j1 == j ? (j2 == j ? 3.0 : 2.0) : 1.0;
          bBlocks_[block.bIndex] = static_cast<int>(zBlocks_.size());
        } else if (j >= j2) {
          block.role = 1;
          block.bIndex = component.at(std::make_tuple(j, j2, j1));
          block.factor = (j2 == j ? 2.0 : 1.0) * ratio;
        } else {
          block.role = 2;
          block.bIndex = component.at(std::make_tuple(j2, j, j1));
          block.factor = ratio;
        }
        zBlocks_.push_back(block);
      }
    }
  }

  layout_.twojmax = jmax;
  layout_.numElements = settings.chemFlag ? numElements : 1;
  layout_.uSize = uSize;
  layout_.zSize = static_cast<int>(z_.size());
  layout_.numZBlocks = static_cast<int>(zBlocks_.size());
  layout_.numB = static_cast<int>(bBlocks_.size());
  layout_.rfac0 = settings.rfac0;
  layout_.rmin0 = settings.rmin0;
  layout_.wself = 1.0;
  layout_.switchFlag = settings.switchFlag;
  layout_.bnormFlag = settings.bnormFlag;
  layout_.wselfAllFlag = settings.wselfAllFlag;
  layout_.bzeroFlag = settings.bzeroFlag;
  layout_.uBlock = uBlock_.data();
  layout_.rootpq = rootpq_.data();
  layout_.z = z_.data();
  layout_.zBlocks = zBlocks_.data();
  layout_.bBlocks = bBlocks_.data();
  layout_.cg = cg_.data();
}

}  // namespace hookmd
