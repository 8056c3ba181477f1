#include "dynamics/hooks/FixCom.h"

namespace hookmd {

void FixCom::remap(const std::vector<std::int64_t>& keep, std::int64_t added) {
  std::vector<std::uint8_t> anchored(keep.size() + static_cast<std::size_t>(added), 0);
  std::vector<double> centre(3 * anchored.size(), 0.0);
  for (std::size_t k = 0; k < keep.size(); ++k) {
    const auto s = static_cast<std::size_t>(keep[k]);
    if (s >= anchored_.size()) continue;
    anchored[k] = anchored_[s];
    for (int c = 0; c < 3; ++c) centre[3 * k + c] = centre_[3 * s + c];
  }
  anchored_ = std::move(anchored);
  centre_ = std::move(centre);
}

void FixCom::apply(Backend& backend, DynamicsStage stage, std::int64_t, const std::uint8_t* active) {
  const bool forces = stage == DynamicsStage::AfterCompute;
  const FieldSet written = forces ? FieldSet{Field::Forces} : FieldSet{Field::Positions, Field::Velocities};
  BatchStorage& host = backend.host({Field::Ptr, Field::Masses, Field::Positions, Field::Velocities, Field::Forces}, written);
  const auto systems = static_cast<std::size_t>(host.numSystems());
  if (anchored_.size() != systems) {
    anchored_.assign(systems, 0);
    centre_.assign(3 * systems, 0.0);
  }
  const std::int32_t* ptr = host.i32(Field::Ptr);
  const double* m = host.f64(Field::Masses);
  double* x = host.f64(Field::Positions);
  double* v = host.f64(Field::Velocities);
  double* f = host.f64(Field::Forces);
  for (std::size_t s = 0; s < systems; ++s) {
    const std::int32_t begin = ptr[s], end = ptr[s + 1];
    double mass = 0.0, mass2 = 0.0, mx[3] = {0, 0, 0}, mv[3] = {0, 0, 0}, mf[3] = {0, 0, 0};
    for (std::int32_t i = begin; i < end; ++i) {
      if (!mobile(i)) continue;
      mass += m[i];
      mass2 += m[i] * m[i];
      for (int c = 0; c < 3; ++c) {
        mx[c] += m[i] * x[3 * i + c];
        mv[c] += m[i] * v[3 * i + c];
        mf[c] += m[i] * f[3 * i + c];
      }
    }
    // No mobile atom (or none at all): nothing to hold.
    if (mass == 0.0) continue;
    if (!anchored_[s]) {
      for (int c = 0; c < 3; ++c) centre_[3 * s + c] = mx[c] / mass;
      anchored_[s] = 1;
    }
    if (active != nullptr && !active[s]) continue;
    for (std::int32_t i = begin; i < end; ++i) {
      if (!mobile(i)) continue;
      for (int c = 0; c < 3; ++c) {
        if (forces) {
          f[3 * i + c] -= m[i] * mf[c] / mass2;
        } else {
          x[3 * i + c] += centre_[3 * s + c] - mx[c] / mass;
          v[3 * i + c] -= mv[c] / mass;
        }
      }
    }
  }
}

}  // namespace hookmd
