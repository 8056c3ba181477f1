// Moves a bound engine forward: whole native chunks up to the next step at which a JS hook is due, and at
// a due step a stage-by-stage walk that crosses into JS only at the stages with due hooks.
import type { Batch } from '../data/index.js';
import { HookmdAbortError } from '../errors.js';
import type { HookRegistry, MutableContext } from '../hooks/index.js';
import type { DynamicsHookContext } from './dynamics.js';
import type { EngineModel } from './engine-model.js';
import type { ConvergenceHook } from './hooks/convergence-hook.js';
import type { NativeStepperHandle } from './native-stepper.js';
import { DYNAMICS_STAGES, DynamicsStage } from './stage.js';

/** The step counter of one run (each run starts from the engine's count, see Dynamics). */
export interface StepCounter {
  value: number;
}

export class StepWalker {
  readonly #hooks: HookRegistry<typeof DynamicsStage, DynamicsHookContext>;
  readonly #onConverge: HookRegistry<typeof DynamicsStage, DynamicsHookContext>;
  readonly #model: EngineModel;
  readonly #jsConvergence: readonly ConvergenceHook[];
  readonly #counter: StepCounter;
  #abandoned = false;

  constructor(
    hooks: HookRegistry<typeof DynamicsStage, DynamicsHookContext>,
    onConverge: HookRegistry<typeof DynamicsStage, DynamicsHookContext>,
    model: EngineModel,
    jsConvergence: readonly ConvergenceHook[],
    counter: StepCounter,
  ) {
    this.#hooks = hooks;
    this.#onConverge = onConverge;
    this.#model = model;
    this.#jsConvergence = jsConvergence;
    this.#counter = counter;
  }

  /**
   * The run gave up on the step in progress (its AbortSignal fired while a hook was pending): when that
   * hook settles, the walk stops instead of stepping a batch the run no longer holds.
   */
  abandon(): void {
    this.#abandoned = true;
  }

  /** Takes whole native steps up to the next due JS hook, or one stage-by-stage step; returns steps taken. */
  advance(stepper: NativeStepperHandle, ctx: MutableContext<DynamicsHookContext>, remaining: number, budget: number, sync: boolean): number | Promise<number> {
    const step = this.#counter.value;
    const due = this.#hooks.nextDue(step);
    if (due > step && stepper.computesNatively) {
      const pauseOnConverge = this.#onConverge.size > 0 || this.#hooks.hasHooksFor(DynamicsStage.ON_CONVERGE);
      const result = stepper.advance(Math.min(remaining, due - step), budget, pauseOnConverge);
      this.#counter.value += result.steps;
      ctx.batch.invalidateHostViews();
      if (!result.pausedOnConverge) return result.steps;
      const finished = this.#dispatch(DynamicsStage.ON_CONVERGE, ctx, stepper, sync);
      const done = (): number => this.#finish(stepper) + result.steps;
      return finished === undefined ? done() : finished.then(done);
    }
    return this.#stepByStage(stepper, ctx, sync);
  }

  #finish(stepper: NativeStepperHandle): number {
    stepper.finishStep();
    this.#counter.value += 1;
    return 1;
  }

  /** One step, stage by stage; crosses into JS only where a hook is due (or to compute with a JS model). */
  #stepByStage(stepper: NativeStepperHandle, ctx: MutableContext<DynamicsHookContext>, sync: boolean): number | Promise<number> {
    const step = this.#counter.value;
    const batch: Batch = ctx.batch;
    const finish = (): number => this.#finish(stepper);
    const walk = (index: number): number | Promise<number> => {
      for (let i = index; i < DYNAMICS_STAGES.length; i++) {
        const stage = DYNAMICS_STAGES[i];
        if (stage === DynamicsStage.BEFORE_COMPUTE && !stepper.computesNatively) {
          stepper.runTo(stage);
          batch.invalidateHostViews();
          const pending = this.#hooks.due(stage, step) ? this.#dispatch(stage, ctx, stepper, sync) : undefined;
          const compute = (): number | Promise<number> => {
            this.#model.compute(batch);
            batch.commitHostViews();
            return walk(i + 1);
          };
          return pending === undefined ? compute() : pending.then(compute);
        }
        if (stage === DynamicsStage.ON_CONVERGE) {
          const newly = stepper.runTo(stage) || this.#jsConvergence.some((hook) => hook.convergedAt(step));
          batch.invalidateHostViews();
          if (!newly) return finish();
          const pending = this.#dispatch(stage, ctx, stepper, sync);
          return pending === undefined ? finish() : pending.then(finish);
        }
        if (!this.#hooks.due(stage, step)) continue;
        stepper.runTo(stage);
        batch.invalidateHostViews();
        const pending = this.#dispatch(stage, ctx, stepper, sync);
        if (pending !== undefined) return pending.then(() => walk(i + 1));
      }
      return finish();
    };
    return walk(0);
  }

  /** Dispatches one stage; mirrors touched by hooks are written back before native code runs again. */
  #dispatch(stage: DynamicsStage, ctx: MutableContext<DynamicsHookContext>, stepper: NativeStepperHandle, sync: boolean): Promise<void> | undefined {
    ctx.stage = stage;
    ctx.stepCount = this.#counter.value;
    ctx.convergedMask = stage === DynamicsStage.ON_CONVERGE ? this.#convergedMask(stepper) : null;
    ctx.scalars.invalidate();
    const batch = ctx.batch;
    if (sync) {
      this.#hooks.dispatchSync(stage, ctx);
      if (stage === DynamicsStage.ON_CONVERGE) this.#onConverge.dispatchSync(stage, ctx);
      batch.commitHostViews();
      return undefined;
    }
    const pending = this.#hooks.dispatch(stage, ctx);
    const converge = (): void | Promise<void> => (stage === DynamicsStage.ON_CONVERGE ? this.#onConverge.dispatch(stage, ctx) : undefined);
    const resume = (): void => {
      if (this.#abandoned) throw new HookmdAbortError('the run was aborted while a hook was pending; its step was abandoned', { stage, step: ctx.stepCount });
      batch.commitHostViews();
    };
    if (pending === undefined) {
      const next = converge();
      if (next === undefined) {
        batch.commitHostViews();
        return undefined;
      }
      return next.then(resume);
    }
    return pending.then(converge).then(resume);
  }

  /** Systems that converged in this step, natively or through JS-evaluated convergence hooks. */
  #convergedMask(stepper: NativeStepperHandle): Uint8Array {
    const mask = stepper.newlyConverged();
    for (const hook of this.#jsConvergence) {
      const newly = hook.newlyConvergedAt(this.#counter.value);
      if (newly === undefined) continue;
      for (let s = 0; s < mask.length && s < newly.length; s++) mask[s] |= newly[s];
    }
    return mask;
  }
}
