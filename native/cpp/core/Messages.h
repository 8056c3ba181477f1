// Pieces of validation messages: native errors name species and values the way users wrote them.
#pragma once

#include <string>

namespace hookmd {

/** "Ar" for 18; "Z=<z>" outside 1..118. */
std::string elementSymbol(int z);

/** A parameter value as a message shows it (10 significant digits, "nan", "inf"). */
std::string formatNumber(double value);

}  // namespace hookmd

namespace hookmd {

/** Throws INVALID_PARAMETER for a non-finite skin, INVALID_SKIN for a negative one; `model` starts the message. */
void checkSkin(const std::string& model, double skin);

/** Throws SKIN_UNSET while `skin` is negative (not set yet). */
void requireSkinSet(const std::string& model, double skin);

}  // namespace hookmd
