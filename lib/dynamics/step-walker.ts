// Moves a bound engine forward: whole native chunks up to the next step at which a JS hook is due, and at
// a due step a stage-by-stage walk that crosses into JS only at the stages with due hooks. It also keeps the
// batch's record of which results belong to the current positions (docs/dynamics.md, "Results").
import type { Batch } from '../data/index.js';
import { HookmdAbortError } from '../errors.js';
import type { MutableContext } from '../hooks/index.js';
import type { DynamicsHookContext } from './dynamics.js';
import { pendingCompute, type EngineModel } from './engine-model.js';
import type { HookTiers } from './hook-tiers.js';
import type { ConvergenceHook } from './hooks/convergence-hook.js';
import type { NativeStepperHandle } from './native-stepper.js';
import { DYNAMICS_STAGES, DynamicsStage } from './stage.js';

/** The step counter of one run (each run starts from the engine's count, see Dynamics). */
export interface StepCounter {
  value: number;
}

export class StepWalker {
  readonly #tiers: HookTiers;
  readonly #model: EngineModel;
  readonly #jsConvergence: readonly ConvergenceHook[];
  readonly #counter: StepCounter;
  /** Pause at ON_CONVERGE even without ON_CONVERGE hooks (detect-only checks report to RunResult). */
  readonly #alwaysPause: boolean;
  /** The integrator reads the stress, so every compute evaluates it (a cell filter). */
  readonly #integratorNeedsStress: boolean;
  /** Systems reported converged during this run (RunResult.converged includes detect-only reports). */
  readonly detected: Set<number> = new Set();
  #abandoned = false;

  constructor(tiers: HookTiers, model: EngineModel, jsConvergence: readonly ConvergenceHook[], counter: StepCounter, alwaysPause: boolean, integratorNeedsStress = false) {
    this.#tiers = tiers;
    this.#model = model;
    this.#jsConvergence = jsConvergence;
    this.#counter = counter;
    this.#alwaysPause = alwaysPause;
    this.#integratorNeedsStress = integratorNeedsStress;
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
    const due = this.#tiers.nextDue(step);
    if (due > step && stepper.computesNatively) {
      const pauseOnConverge = this.#alwaysPause || this.#tiers.listensOnConverge;
      const result = stepper.advance(Math.min(remaining, due - step), budget, pauseOnConverge);
      this.#counter.value += result.steps;
      ctx.batch.invalidateHostViews();
      if (result.steps > 0 || result.pausedOnConverge) this.#computed(ctx.batch, stepper.stressComputed());
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

  /** The step's compute ran: energies and forces belong to the positions; the stress only if it was asked for. */
  #computed(batch: Batch, stress: boolean): void {
    batch.markResults({ energy: true, forces: true, stress });
  }

  /** One step, stage by stage; crosses into JS only where a hook is due (or to compute with a JS model, awaited when async). */
  #stepByStage(stepper: NativeStepperHandle, ctx: MutableContext<DynamicsHookContext>, sync: boolean): number | Promise<number> {
    const step = this.#counter.value;
    const batch: Batch = ctx.batch;
    const stress = this.#integratorNeedsStress || this.#tiers.needsAt('stress', step);
    if (stress) stepper.requestStress();
    const finish = (): number => this.#finish(stepper);
    const reached = (stage: DynamicsStage): void => {
      batch.invalidateHostViews();
      // preUpdate moved the positions: results are stale until the step's compute.
      if (stage >= DynamicsStage.AFTER_PRE_UPDATE && stage < DynamicsStage.AFTER_COMPUTE) batch.markResults({ energy: false, forces: false, stress: false });
      else if (stage >= DynamicsStage.AFTER_COMPUTE && stepper.computesNatively) this.#computed(batch, stepper.stressComputed());
    };
    const walk = (index: number): number | Promise<number> => {
      for (let i = index; i < DYNAMICS_STAGES.length; i++) {
        const stage = DYNAMICS_STAGES[i];
        if (stage === DynamicsStage.BEFORE_COMPUTE && !stepper.computesNatively) {
          stepper.runTo(stage);
          reached(stage);
          const pending = this.#tiers.due(stage, step) ? this.#dispatch(stage, ctx, stepper, sync) : undefined;
          const compute = (): number | Promise<number> => {
            const computed = pendingCompute(this.#model.compute(batch, { stress }));
            const next = (): number | Promise<number> => {
              batch.commitHostViews();
              return walk(i + 1);
            };
            return computed === undefined ? next() : computed.then(next);
          };
          return pending === undefined ? compute() : pending.then(compute);
        }
        if (stage === DynamicsStage.ON_CONVERGE) {
          const newly = stepper.runTo(stage) || this.#jsConvergence.some((hook) => hook.convergedAt(step));
          reached(stage);
          if (!newly) return finish();
          const pending = this.#dispatch(stage, ctx, stepper, sync);
          return pending === undefined ? finish() : pending.then(finish);
        }
        if (!this.#tiers.due(stage, step)) continue;
        stepper.runTo(stage);
        reached(stage);
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
    if (stage === DynamicsStage.ON_CONVERGE) this.#converged(ctx, stepper);
    else {
      ctx.convergedMask = null;
      ctx.convergedFrom = null;
    }
    ctx.scalars.invalidate();
    const batch = ctx.batch;
    const pending = this.#tiers.dispatch(stage, ctx, sync);
    if (pending === undefined) {
      batch.commitHostViews();
      return undefined;
    }
    return pending.then(() => {
      if (this.#abandoned) throw new HookmdAbortError('the run was aborted while a hook was pending; its step was abandoned', { stage, step: ctx.stepCount });
      batch.commitHostViews();
    });
  }

  /** Systems that converged in this step, natively or through JS-evaluated convergence hooks, and where from. */
  #converged(ctx: MutableContext<DynamicsHookContext>, stepper: NativeStepperHandle): void {
    const mask = stepper.newlyConverged();
    const from = stepper.newlyFrom();
    for (const hook of this.#jsConvergence) {
      const newly = hook.newlyConvergedAt(this.#counter.value);
      if (newly === undefined) continue;
      for (let s = 0; s < mask.length && s < newly.length; s++) {
        if (newly[s] !== 1) continue;
        mask[s] = 1;
        from[s] = hook.sourceStatus;
      }
    }
    const ids = ctx.batch.read('systemId');
    mask.forEach((newly, s) => { if (newly === 1) this.detected.add(ids[s]); });
    ctx.convergedMask = mask;
    ctx.convergedFrom = from;
  }
}
