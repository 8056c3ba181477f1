// The nine stages of a dynamics step, in firing order (docs/dynamics.md). Their values start at 1000, so that a
// stage of a custom enum (0, 1, 2, …) never equals one of them: a hook for another enum's stage is then a
// FOREIGN_STAGE error on an engine instead of firing at the dynamics stage with its number, and a hook that
// serves several enums can tell them apart (isStageOf). native/cpp/dynamics/DynamicsStage.h numbers the
// same stages from 0 (nativeStageIndex).

/**
 * Where a dynamics hook fires within one step.
 *
 * @example
 * engine.register({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 10, call: (ctx) => console.log(ctx.batch.energy) });
 */
export enum DynamicsStage {
  BEFORE_STEP = 1000,
  BEFORE_PRE_UPDATE = 1001,
  AFTER_PRE_UPDATE = 1002,
  BEFORE_COMPUTE = 1003,
  AFTER_COMPUTE = 1004,
  BEFORE_POST_UPDATE = 1005,
  AFTER_POST_UPDATE = 1006,
  AFTER_STEP = 1007,
  ON_CONVERGE = 1008,
}

/**
 * Method names of other libraries with an exact counterpart among the stages, besides the generic `on` +
 * camelCase stage name (`onBeforeStep`, `onConverge`): a method-style hook that has one fires there.
 *
 * @example
 * DYNAMICS_METHOD_ALIASES.onConverged; // DynamicsStage.ON_CONVERGE
 */
export const DYNAMICS_METHOD_ALIASES: Readonly<Record<string, DynamicsStage>> = Object.freeze({
  onStepBegin: DynamicsStage.BEFORE_STEP,
  onConverged: DynamicsStage.ON_CONVERGE,
  onConvergence: DynamicsStage.ON_CONVERGE,
});

/** Every stage value in order. */
export const DYNAMICS_STAGES: readonly DynamicsStage[] = Object.freeze([
  DynamicsStage.BEFORE_STEP, DynamicsStage.BEFORE_PRE_UPDATE, DynamicsStage.AFTER_PRE_UPDATE, DynamicsStage.BEFORE_COMPUTE,
  DynamicsStage.AFTER_COMPUTE, DynamicsStage.BEFORE_POST_UPDATE, DynamicsStage.AFTER_POST_UPDATE, DynamicsStage.AFTER_STEP,
  DynamicsStage.ON_CONVERGE,
]);

/** @internal The stage's index in the native loop (native/cpp/dynamics/DynamicsStage.h): 0 for BEFORE_STEP. */
export function nativeStageIndex(stage: DynamicsStage): number {
  return stage - DynamicsStage.BEFORE_STEP;
}
