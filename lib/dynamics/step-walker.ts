// Moves a bound engine forward: whole native chunks up to the next step at which a JS hook is due, and at
// a due step a stage-by-stage walk that crosses into JS only at the stages with due hooks. It also keeps the
// batch's record of which results belong to the current positions (docs/dynamics.md, "Results").
import type { Batch } from '../data/index.js';
import { HookmdAbortError } from '../errors.js';
import type { MutableContext } from '../hooks/index.js';
import type { DynamicsHookContext } from './hook-context.js';
import { pendingCompute, type EngineModel } from './engine-model.js';
import type { HookTiers } from './hook-tiers.js';
import type { ConvergenceHook } from './hooks/convergence-hook.js';
import type { NativeStepperHandle } from './native-stepper.js';
import { DYNAMICS_STAGES, DynamicsStage } from './stage.js';

/** What a TypeScript integrator's preUpdate and postUpdate receive besides the batch. */
export interface UpdateContext {
  /** 1 for each system to update (status < exitStatus); the others must stay as they are. */
  readonly active: Uint8Array;
  /** The step being taken. */
  readonly stepCount: number;
}

/** @internal The update methods of an engine written in TypeScript, and its exitStatus. */
export interface ExternalUpdates {
  readonly preUpdate?: (batch: Batch, update: UpdateContext) => void;
  readonly postUpdate?: (batch: Batch, update: UpdateContext) => void;
  readonly exitStatus: number;
}

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
  /** A TypeScript integrator's updates (called from the walk), or null for a native integrator. */
  readonly #updates: ExternalUpdates | null;
  /** Systems a detect-only check reported during this run (RunResult.converged includes them). */
  readonly detected: Set<number> = new Set();
  #abandoned = false;

  constructor(tiers: HookTiers, model: EngineModel, jsConvergence: readonly ConvergenceHook[], counter: StepCounter, alwaysPause: boolean, integratorNeedsStress = false, updates: ExternalUpdates | null = null) {
    this.#updates = updates;
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
    if (due > step && stepper.computesNatively && this.#updates === null) {
      const pauseOnConverge = this.#alwaysPause || this.#tiers.listensOnConverge;
      const result = stepper.advance(Math.min(remaining, due - step), budget, pauseOnConverge);
      this.#counter.value += result.steps;
      if (result.steps > 0 || result.pausedOnConverge) this.#computed(ctx.batch, stepper.stressComputed());
      if (!result.pausedOnConverge) return result.steps;
      this.#converged(ctx, stepper);
      const finished = this.#dispatch(DynamicsStage.ON_CONVERGE, ctx, sync);
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
      // preUpdate moved the positions: results are stale until the step's compute.
      if (stage >= DynamicsStage.AFTER_PRE_UPDATE && stage < DynamicsStage.AFTER_COMPUTE) batch.markResults({ energy: false, forces: false, stress: false });
      else if (stage >= DynamicsStage.AFTER_COMPUTE && stepper.computesNatively) this.#computed(batch, stepper.stressComputed());
    };
    const walk = (index: number): number | Promise<number> => {
      for (let i = index; i < DYNAMICS_STAGES.length; i++) {
        const stage = DYNAMICS_STAGES[i];
        if (stage === DynamicsStage.ON_CONVERGE) {
          const newly = stepper.runTo(stage) || this.#jsConvergence.some((hook) => hook.convergedAt(step));
          reached(stage);
          if (!newly) return finish();
          this.#converged(ctx, stepper);
          const pending = this.#dispatch(stage, ctx, sync);
          return pending === undefined ? finish() : pending.then(finish);
        }
        const action = this.#jsAction(stage, stepper, batch, stress, step);
        const due = this.#tiers.due(stage, step);
        if (action === undefined && !due) continue;
        stepper.runTo(stage);
        reached(stage);
        const pending = due ? this.#dispatch(stage, ctx, sync) : undefined;
        const next = (): number | Promise<number> => {
          if (action === undefined) return walk(i + 1);
          // A JS model's compute is awaited when it is async (OnnxModel).
          const acted = pendingCompute(action());
          // What it wrote through the views is written back as the walk next enters the stepper.
          const go = (): number | Promise<number> => walk(i + 1);
          return acted === undefined ? go() : acted.then(go);
        };
        if (pending !== undefined) return pending.then(next);
        if (action !== undefined) return next();
      }
      return finish();
    };
    return walk(0);
  }

  /**
   * What JS does right after `stage`'s hooks, before the native walk goes on: a JS model's compute at
   * BEFORE_COMPUTE, a TypeScript integrator's preUpdate and postUpdate at BEFORE_PRE_UPDATE and
   * BEFORE_POST_UPDATE (so that the native hooks of AFTER_* see the update, as they see a native one).
   */
  #jsAction(stage: DynamicsStage, stepper: NativeStepperHandle, batch: Batch, stress: boolean, step: number): (() => void | Promise<void>) | undefined {
    if (stage === DynamicsStage.BEFORE_COMPUTE && !stepper.computesNatively) return () => this.#model.compute(batch, { stress });
    const updates = this.#updates;
    if (updates === null) return undefined;
    const update = stage === DynamicsStage.BEFORE_PRE_UPDATE ? updates.preUpdate : stage === DynamicsStage.BEFORE_POST_UPDATE ? updates.postUpdate : undefined;
    if (update === undefined) return undefined;
    return () => {
      const exitStatus = updates.exitStatus;
      const active = Uint8Array.from(batch.read('status'), (status) => (status < exitStatus ? 1 : 0));
      update(batch, { active, stepCount: step });
    };
  }

  /**
   * The compute before a run's first step (or after a refill), between the compute hooks due at this step,
   * native and JS, as nvalchemi primes its forces (upstream PR #182): a MaxForceClampHook or a bias added at
   * AFTER_COMPUTE thus shapes the forces the first update reads. `compute(stress)` evaluates the model; the
   * stepper runs the sequence (NativeStepperHandle.prime), this walker brings the JS hooks due.
   */
  prime(stepper: NativeStepperHandle, ctx: MutableContext<DynamicsHookContext>, compute: (stress: boolean) => void | Promise<void>, sync: boolean): Promise<void> | undefined {
    const step = this.#counter.value;
    ctx.stepCount = step;
    const batch: Batch = ctx.batch;
    const stress = this.#integratorNeedsStress || this.#tiers.needsAt('stress', step);
    return stepper.prime(() => compute(stress), (stage) => (this.#tiers.due(stage, step) ? this.#dispatch(stage, ctx, sync) : undefined));
  }

  /** Dispatches one stage; host arrays touched by hooks are written back before native code runs again. */
  #dispatch(stage: DynamicsStage, ctx: MutableContext<DynamicsHookContext>, sync: boolean): Promise<void> | undefined {
    ctx.stage = stage;
    ctx.stepCount = this.#counter.value;
    if (stage !== DynamicsStage.ON_CONVERGE) {
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
    // JS checks run at AFTER_STEP, before the native ones: the first of them names the status a system
    // converged from first.
    const byJs = new Uint8Array(mask.length);
    const status = ctx.batch.read('status');
    for (const hook of this.#jsConvergence) {
      const newly = hook.newlyConvergedAt(this.#counter.value);
      if (newly === undefined) continue;
      for (let s = 0; s < mask.length && s < newly.length; s++) {
        if (newly[s] !== 1 || byJs[s] === 1) continue;
        mask[s] = 1;
        byJs[s] = 1;
        // A status-less detector checks every system and leaves its status as it was.
        from[s] = hook.sourceStatus ?? status[s];
      }
    }
    // A system that stayed where it converged was reported by a detect-only check: RunResult.converged
    // counts it. One that moved counts once its status reaches exitStatus, as the statuses say.
    const ids = ctx.batch.read('systemId');
    mask.forEach((newly, s) => { if (newly === 1 && status[s] === from[s]) this.detected.add(ids[s]); });
    ctx.convergedMask = mask;
    ctx.convergedFrom = from;
  }
}
