#include "kernels/EamTables.h"

#include <climits>
#include <cmath>
#include <string>
#include <tuple>

#include "core/Error.h"
#include "core/Messages.h"

namespace hookmd {

namespace {

constexpr int kMaxElements = 32;

[[noreturn]] void invalid(const std::string& message) { fail("INVALID_POTENTIAL", "EAM: " + message); }

void checkTable(const std::vector<double>& values, std::size_t expected, const char* name) {
  if (values.size() != expected) {
    invalid(std::string(name) + " has " + std::to_string(values.size()) + " values, expected " + std::to_string(expected));
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) invalid(std::string(name) + "[" + std::to_string(k) + "] is not finite");
  }
}

/**
 * PairEAM::interpolate: the 7 spline coefficients of each of the n points of `f` (f[1..n], 1-based) into
 * `spline` ((n + 1) × 7, row 0 unused).
 */
void interpolate(int n, double delta, const double* f, double* spline) {
  auto at = [&](int m, int c) -> double& { return spline[m * kEamSplineStride + c]; };
  for (int m = 1; m <= n; ++m) at(m, 6) = f[m];
  at(1, 5) = at(2, 6) - at(1, 6);
  at(2, 5) = 0.5 * (at(3, 6) - at(1, 6));
  at(n - 1, 5) = 0.5 * (at(n, 6) - at(n - 2, 6));
  at(n, 5) = at(n, 6) - at(n - 1, 6);
  for (int m = 3; m <= n - 2; ++m) {
    at(m, 5) = ((at(m - 2, 6) - at(m + 2, 6)) + 8.0 * (at(m + 1, 6) - at(m - 1, 6))) / 12.0;
  }
  for (int m = 1; m <= n - 1; ++m) {
    at(m, 4) = 3.0 * (at(m + 1, 6) - at(m, 6)) - 2.0 * at(m, 5) - at(m + 1, 5);
    at(m, 3) = at(m, 5) + at(m + 1, 5) - 2.0 * (at(m + 1, 6) - at(m, 6));
  }
  at(n, 4) = 0.0;
  at(n, 3) = 0.0;
  for (int m = 1; m <= n; ++m) {
    at(m, 2) = at(m, 5) / delta;
    at(m, 1) = 2.0 * at(m, 4) / delta;
    at(m, 0) = 3.0 * at(m, 3) / delta;
  }
}

/**
 * PairEAM::file2array's re-gridding of a funcfl table: the value at (m − 1)·spacing of the four-point
 * Lagrange interpolant through the file's points (`file` 1-based, fileCount points at fileSpacing).
 */
double lagrange(const double* file, int fileCount, double fileSpacing, double x) {
  const double sixth = 1.0 / 6.0;
  double p = x / fileSpacing + 1.0;
  int k = static_cast<int>(p);
  k = k < fileCount - 2 ? k : fileCount - 2;
  k = k > 2 ? k : 2;
  p -= k;
  p = p < 2.0 ? p : 2.0;
  const double cof1 = -sixth * p * (p - 1.0) * (p - 2.0);
  const double cof2 = 0.5 * (p * p - 1.0) * (p - 2.0);
  const double cof3 = -0.5 * p * (p + 1.0) * (p - 2.0);
  const double cof4 = sixth * p * (p * p - 1.0);
  return cof1 * file[k - 1] + cof2 * file[k] + cof3 * file[k + 1] + cof4 * file[k + 2];
}

/** Splines `count` tables of n points each, stored back to back in `values` (0-based per table). */
std::vector<double> splineAll(const std::vector<double>& values, int count, int n, double delta) {
  std::vector<double> splines(static_cast<std::size_t>(count) * (n + 1) * kEamSplineStride, 0.0);
  std::vector<double> oneBased(static_cast<std::size_t>(n) + 1, 0.0);
  for (int t = 0; t < count; ++t) {
    for (int m = 1; m <= n; ++m) oneBased[m] = values[static_cast<std::size_t>(t) * n + (m - 1)];
    interpolate(n, delta, oneBased.data(), splines.data() + static_cast<std::size_t>(t) * (n + 1) * kEamSplineStride);
  }
  return splines;
}

/**
 * Every index the kernels derive from the grid stays inside a 32-bit int (math/EamEval.h): a table row
 * m·kEamSplineStride for m ≤ n, and the interval of any distance below the cutoff, cutoff/dr + 1. The
 * parser refuses such files first (lib/models/eam-file.ts); this keeps native code safe on its own.
 */
void checkIndexRange(const EamFileData& data) {
  const int maxPoints = INT_MAX / kEamSplineStride - 1;
  if (data.nrho > maxPoints || data.nr > maxPoints) {
    invalid("Nrho and Nr must be <= " + std::to_string(maxPoints) + " (32-bit table rows), got " + std::to_string(data.nrho) + " and " +
            std::to_string(data.nr));
  }
  for (const auto& [name, spacing, points] : {std::tuple<const char*, double, int>{"drho", data.drho, data.nrho}, {"dr", data.dr, data.nr}}) {
    if (!std::isfinite(1.0 / spacing) || !std::isfinite((points - 1) * spacing)) {
      invalid(std::string(name) + " = " + formatNumber(spacing) + " over " + std::to_string(points) + " points overflows a double");
    }
  }
  const double index = data.cutoff / data.dr + 1.0;
  if (!(index < static_cast<double>(INT_MAX))) {
    invalid("dr = " + formatNumber(data.dr) + " with cutoff " + formatNumber(data.cutoff) + " puts distances at table index " + formatNumber(index) +
            ", beyond the 32-bit range");
  }
}

}  // namespace

EamTables::EamTables(const EamFileData& data) : elements_(data.elements) {
  const int elements = static_cast<int>(data.elements.size());
  if (elements < 1 || elements > kMaxElements) {
    invalid("a potential has 1 to " + std::to_string(kMaxElements) + " elements, got " + std::to_string(elements));
  }
  if (data.format == EamFormat::Funcfl && elements != 1) invalid("a funcfl file describes one element");
  for (int z : data.elements) {
    if (z < 1 || z > 118) invalid("element atomic numbers must lie in 1..118, got " + std::to_string(z));
  }
  // Five points is the least PairEAM::interpolate and the funcfl re-gridding index safely.
  if (data.nrho < 5 || data.nr < 5) {
    invalid("Nrho and Nr must be >= 5, got " + std::to_string(data.nrho) + " and " + std::to_string(data.nr));
  }
  for (const auto& [name, value] : {std::pair<const char*, double>{"drho", data.drho}, {"dr", data.dr}, {"cutoff", data.cutoff}}) {
    if (!std::isfinite(value) || !(value > 0.0)) invalid(std::string(name) + " must be finite and > 0, got " + formatNumber(value));
  }
  checkIndexRange(data);
  const std::size_t nrho = static_cast<std::size_t>(data.nrho);
  const std::size_t nr = static_cast<std::size_t>(data.nr);
  const std::size_t pairs = static_cast<std::size_t>(elements) * (elements + 1) / 2;
  checkTable(data.frho, elements * nrho, "F(rho)");
  const std::size_t densities = data.format == EamFormat::FinnisSinclair ? static_cast<std::size_t>(elements) * elements : elements;
  checkTable(data.rhor, densities * nr, "rho(r)");
  checkTable(data.z2r, (data.format == EamFormat::Funcfl ? 1 : pairs) * nr, data.format == EamFormat::Funcfl ? "Z(r)" : "r*phi(r)");

  int nrGrid = data.nr;
  int nrhoGrid = data.nrho;
  double dr = data.dr;
  double drho = data.drho;
  double rhomax = (data.nrho - 1) * data.drho;
  std::vector<double> frho = data.frho;
  std::vector<double> rhor = data.rhor;
  std::vector<double> z2r = data.z2r;
  if (data.format == EamFormat::Funcfl) {
    // LAMMPS re-grids funcfl tables onto a grid ending at the last file point (0.5 for round-off in the
    // divide), then multiplies the charges: r·φ = 27.2 eV·Å/(Hartree·Bohr) · Z_i·Z_j.
    const double rmax = (data.nr - 1) * data.dr;
    nrGrid = static_cast<int>(rmax / dr + 0.5);
    nrhoGrid = static_cast<int>(rhomax / drho + 0.5);
    std::vector<double> fileF(nrho + 1), fileRho(nr + 1), fileZ(nr + 1);
    for (std::size_t k = 0; k < nrho; ++k) fileF[k + 1] = data.frho[k];
    for (std::size_t k = 0; k < nr; ++k) {
      fileRho[k + 1] = data.rhor[k];
      fileZ[k + 1] = data.z2r[k];
    }
    frho.assign(nrhoGrid, 0.0);
    rhor.assign(nrGrid, 0.0);
    z2r.assign(nrGrid, 0.0);
    for (int m = 1; m <= nrhoGrid; ++m) frho[m - 1] = lagrange(fileF.data(), data.nrho, data.drho, (m - 1) * drho);
    for (int m = 1; m <= nrGrid; ++m) {
      const double r = (m - 1) * dr;
      rhor[m - 1] = lagrange(fileRho.data(), data.nr, data.dr, r);
      const double z = lagrange(fileZ.data(), data.nr, data.dr, r);
      z2r[m - 1] = 27.2 * 0.529 * z * z;
    }
  }

  grid_ = EamGrid{nrGrid, nrhoGrid, 1.0 / dr, 1.0 / drho, rhomax, data.cutoff * data.cutoff};
  frho_ = splineAll(frho, elements, nrhoGrid, drho);
  rhor_ = splineAll(rhor, static_cast<int>(densities), nrGrid, dr);
  z2r_ = splineAll(z2r, data.format == EamFormat::Funcfl ? 1 : static_cast<int>(pairs), nrGrid, dr);

  rhorIndex_.resize(static_cast<std::size_t>(elements) * elements);
  z2rIndex_.resize(static_cast<std::size_t>(elements) * elements);
  for (int a = 0; a < elements; ++a) {
    for (int b = 0; b < elements; ++b) {
      // The density b puts on a: setfl keeps one function per source element; Finnis–Sinclair files list,
      // in element b's block, the function of each receiving element (LAMMPS's type2rhor[b][a]).
      rhorIndex_[a * elements + b] = data.format == EamFormat::FinnisSinclair ? b * elements + a : b;
      const int row = a > b ? a : b;
      const int column = a > b ? b : a;
      z2rIndex_[a * elements + b] = row * (row + 1) / 2 + column;
    }
  }
}

}  // namespace hookmd
