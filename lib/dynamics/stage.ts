// The nine stages of a dynamics step, in firing order (docs/dynamics.md). native/cpp/dynamics/DynamicsStage.h
// holds the same values.

/**
 * Where a dynamics hook fires within one step.
 *
 * @example
 * engine.register({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 10, call: (ctx) => console.log(ctx.batch.energy) });
 */
export enum DynamicsStage {
  BEFORE_STEP = 0,
  BEFORE_PRE_UPDATE = 1,
  AFTER_PRE_UPDATE = 2,
  BEFORE_COMPUTE = 3,
  AFTER_COMPUTE = 4,
  BEFORE_POST_UPDATE = 5,
  AFTER_POST_UPDATE = 6,
  AFTER_STEP = 7,
  ON_CONVERGE = 8,
}

/** Every stage value in order. */
export const DYNAMICS_STAGES: readonly DynamicsStage[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
