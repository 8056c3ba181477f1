// The nine stages of one dynamics step, in order (docs/dynamics.md), as native indices: lib/dynamics/stage.ts
// numbers the same stages from 1000 (DynamicsStage.BEFORE_STEP) and subtracts it at the binding (nativeStageIndex).
#pragma once

namespace hookmd {

enum class DynamicsStage : int {
  BeforeStep = 0,
  BeforePreUpdate,
  AfterPreUpdate,
  BeforeCompute,
  AfterCompute,
  BeforePostUpdate,
  AfterPostUpdate,
  AfterStep,
  OnConverge,
  Count
};

constexpr int kStageCount = static_cast<int>(DynamicsStage::Count);

inline unsigned stageBit(DynamicsStage stage) { return 1u << static_cast<int>(stage); }

}  // namespace hookmd
