#include "models/ManyBodyPotential.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/Error.h"
#include "math/StillingerWeberEval.h"
#include "math/TersoffEval.h"
#include "core/Messages.h"
#include "platform/KernelFactory.h"

namespace hookmd {

namespace {

static_assert(tersoffEntryLength(TersoffStyle::Tersoff) == 14 && tersoffEntryLength(TersoffStyle::Mod) == 17 &&
                  tersoffEntryLength(TersoffStyle::Zbl) == 18 && kStillingerWeberEntryLength == 11,
              "HOOKMD_MANY_BODY_STYLES lists the entry lengths of the math headers");

template <class Row>
void appendRow(std::vector<unsigned char>& bytes, const Row& row) {
  const auto* raw = reinterpret_cast<const unsigned char*>(&row);
  bytes.insert(bytes.end(), raw, raw + sizeof(Row));
}

/** The rows and the largest cutoff of `style` from nt³ entries of `length` numbers each. */
void buildRows(ManyBodyForceSpec& spec, const std::vector<double>& entries, int length) {
  const int nt = spec.numTypes;
  const std::size_t count = static_cast<std::size_t>(nt) * nt * nt;
  spec.cutoff = 0.0;
  if (spec.style == ManyBodyStyle::StillingerWeber) {
    std::vector<StillingerWeberParams> rows(count);
    for (std::size_t e = 0; e < count; ++e) rows[e] = makeStillingerWeberParams(entries.data() + e * length);
    // An (i, j, k) entry is symmetric when its (i, k, j) twin has the same three-body numbers.
    for (int a = 0; a < nt; ++a) {
      for (int b = 0; b < nt; ++b) {
        for (int c = 0; c < nt; ++c) {
          StillingerWeberParams& row = rows[(a * nt + b) * nt + c];
          const StillingerWeberParams& twin = rows[(a * nt + c) * nt + b];
          row.symmetric = row.lambdaEpsilon == twin.lambdaEpsilon && row.cosTheta0 == twin.cosTheta0;
        }
      }
    }
    for (const StillingerWeberParams& row : rows) {
      spec.cutoff = std::max(spec.cutoff, row.cut);
      appendRow(spec.rows, row);
    }
    return;
  }
  const TersoffStyle style = spec.style == ManyBodyStyle::TersoffMod   ? TersoffStyle::Mod
                             : spec.style == ManyBodyStyle::TersoffZbl ? TersoffStyle::Zbl
                                                                        : TersoffStyle::Tersoff;
  for (std::size_t e = 0; e < count; ++e) {
    const TersoffParams row = makeTersoffParams(style, entries.data() + e * length);
    spec.cutoff = std::max(spec.cutoff, row.cut);
    appendRow(spec.rows, row);
  }
}

}  // namespace

int ManyBodyPotential::entryLength(ManyBodyStyle style) {
  switch (style) {
#define HOOKMD_STYLE_LENGTH(name, lammps, length) \
  case ManyBodyStyle::name:                        \
    return length;
    HOOKMD_MANY_BODY_STYLES(HOOKMD_STYLE_LENGTH)
#undef HOOKMD_STYLE_LENGTH
  }
  return 0;
}

bool ManyBodyPotential::styleFromName(const std::string& name, ManyBodyStyle& out) {
#define HOOKMD_STYLE_NAME(style, lammps, length) \
  if (name == lammps) {                        \
    out = ManyBodyStyle::style;                \
    return true;                               \
  }
  HOOKMD_MANY_BODY_STYLES(HOOKMD_STYLE_NAME)
#undef HOOKMD_STYLE_NAME
  return false;
}

ManyBodyPotential::ManyBodyPotential(const char* name, ManyBodyStyle style, const std::vector<int>& elements,
                                     const std::vector<double>& entries, std::optional<double> skin)
    : name_(name), species_(name, elements) {
  const int nt = species_.numTypes();
  const int length = entryLength(style);
  const std::size_t expected = static_cast<std::size_t>(nt) * nt * nt * length;
  if (entries.size() != expected) {
    fail("INVALID_POTENTIAL", std::string(name) + ": expected " + std::to_string(expected) + " numbers (" + std::to_string(nt) +
                                  "³ entries of " + std::to_string(length) + "), got " + std::to_string(entries.size()));
  }
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (!std::isfinite(entries[k])) {
      fail("INVALID_POTENTIAL", std::string(name) + ": entry " + std::to_string(k / length) + " has a non-finite number " +
                                    formatNumber(entries[k]));
    }
  }
  spec_.style = style;
  spec_.model = name;
  spec_.numTypes = nt;
  buildRows(spec_, entries, length);
  if (!(spec_.cutoff > 0.0)) fail("INVALID_POTENTIAL", std::string(name) + ": every entry has a cutoff of 0");
  if (skin) setSkin(*skin);
}

void ManyBodyPotential::setSkin(double skin) {
  checkSkin(name_, skin);
  skin_ = skin;
}

void ManyBodyPotential::compute(Backend& backend, const ComputeRequest& request) {
  requireSkinSet(name_, skin_);
  checkPtrLayout(backend, name_, checkedPtr_);
  const AtomTypes types = species_.assign(backend);
  ManyBodyForceKernel& kernel = kernel_.forBackend(backend, [&] { return createKernel<operation::ManyBodyForces>(backend, spec_); });
  kernel.execute(backend, request, types, skin_, virial_);
}

}  // namespace hookmd
