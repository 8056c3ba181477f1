#include "core/Messages.h"

#include <cmath>
#include <cstdio>

#include "core/Error.h"

namespace hookmd {

namespace {
const char* const kSymbols[] = {
    "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al", "Si", "P",  "S",  "Cl", "Ar",
    "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr",
    "Rb", "Sr", "Y",  "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I",  "Xe",
    "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf",
    "Ta", "W",  "Re", "Os", "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th",
    "Pa", "U",  "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs",
    "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"};
constexpr int kCount = static_cast<int>(sizeof(kSymbols) / sizeof(kSymbols[0]));
}  // namespace

std::string elementSymbol(int z) {
  if (z >= 1 && z <= kCount) return kSymbols[z - 1];
  return "Z=" + std::to_string(z);
}

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

}  // namespace hookmd

namespace hookmd {

void checkSkin(const std::string& model, double skin) {
  if (!std::isfinite(skin)) fail("INVALID_PARAMETER", model + ": skin must be finite, got " + formatNumber(skin));
  if (skin < 0.0) fail("INVALID_SKIN", model + ": skin must be >= 0, got " + formatNumber(skin));
}

void requireSkinSet(const std::string& model, double skin) {
  if (!(skin >= 0.0)) {
    fail("SKIN_UNSET", model + ": the Verlet skin is not set; pass skin, or compute through the TypeScript model once so it "
                               "takes the batch units' default");
  }
}

}  // namespace hookmd
