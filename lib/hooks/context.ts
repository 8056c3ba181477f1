// hookmd hook kernel: the context objects hooks receive (Rule 5). One context is built per dispatch
// (or one per run, updated in place) and shared by every hook of that dispatch.

import type { RunControl } from './control.js';

/**
 * The least a dispatch needs: the step that gates every hook (Rule 1).
 *
 * @example
 * registry.dispatch(Stage.SAVE, { stepCount: 42 } satisfies StepContext);
 */
export interface StepContext {
  /** Steps completed before this one; starts at 0 and is the same at every stage of a step (Rule 2). */
  readonly stepCount: number;
}

/**
 * The context every workflow hands its hooks.
 *
 * @example
 * const hook: Hook<Stage, HookContext<Stage>> = {
 *   stage: Stage.SAVE, frequency: 100,
 *   call: (ctx) => { if (ctx.stepCount >= 5000) ctx.requestStop('enough'); },
 * };
 */
export interface HookContext<S = unknown> extends StepContext {
  /** The stage being dispatched. */
  readonly stage: S;
  /** The engine, trainer or loop that runs the hooks. */
  readonly workflow: unknown;
  /** This process's rank in a multi-process run (0 when alone). */
  readonly globalRank: number;
  /** Asks the workflow to end the run after the current step (Rule 8); it does not stop anything now. */
  requestStop(reason: string): void;
}

/**
 * The context of a dynamics or optimization run. `lib/hooks` cannot see the data or model layers, so
 * they are type parameters: the dynamics layer uses `DynamicsContext<Batch, Model, DynamicsStage>`.
 *
 * @example
 * const log = defineHook({
 *   stage: DynamicsStage.AFTER_STEP, frequency: 10,
 *   call: (ctx: DynamicsContext<Batch, Model, DynamicsStage>) => console.log(ctx.batch.energy),
 * });
 */
export interface DynamicsContext<B = unknown, M = unknown, S = unknown> extends HookContext<S> {
  /** The batch being simulated; its views are valid for one hook call. */
  readonly batch: B;
  /** The force field. */
  readonly model: M;
  /** At `ON_CONVERGE`: 1 for each system that converged in this step, else 0; `null` at other stages. */
  readonly convergedMask: Uint8Array | null;
}

/**
 * The loss terms of a training step (energy, forces and stress parts of the weighted loss).
 *
 * @example
 * const log = (l: TrainLosses): string => `E ${l.energy} F ${l.forces} S ${l.stress}`;
 */
export interface TrainLosses {
  readonly energy: number;
  readonly forces: number;
  readonly stress: number;
}

/**
 * The context of a training loop (fitting a potential).
 *
 * @example
 * const earlyStop = defineHook({
 *   stage: TrainingStage.AFTER_EPOCH, frequency: 1,
 *   call: (ctx: TrainContext) => { if (ctx.loss < 1e-4) ctx.requestStop('loss below 1e-4'); },
 * });
 */
export interface TrainContext<P = unknown, O = unknown, S = unknown> extends HookContext<S> {
  /** Completed epochs. */
  readonly epoch: number;
  /** Index of the mini-batch within the epoch. */
  readonly batchIndex: number;
  /** The total loss of the current mini-batch. */
  readonly loss: number;
  /** Its parts. */
  readonly losses: TrainLosses;
  /** The model parameters being fitted. */
  readonly parameters: P;
  /** The gradients, shaped like `parameters`. */
  readonly gradients: P;
  readonly optimizer: O;
  readonly lrScheduler: unknown;
  /** Named scalar metrics; hooks may add entries. */
  readonly metrics: Record<string, number>;
}

/**
 * A context the loop may update in place between dispatches (hooks see it read-only).
 *
 * @example
 * const ctx: MutableContext<HookContext<Stage>> = createContext({ stage: Stage.LOAD, control });
 * ctx.stepCount += 1;
 */
export type MutableContext<C> = { -readonly [K in keyof C]: C[K] };

/**
 * What {@link createContext} needs.
 *
 * @example
 * const init: ContextInit<Stage> = { stage: Stage.LOAD, control: new RunControl(), registry };
 */
export interface ContextInit<S> {
  readonly stage: S;
  readonly stepCount?: number;
  readonly workflow?: unknown;
  readonly globalRank?: number;
  /** Where `requestStop` records its request. */
  readonly control: RunControl;
  /** The registry whose running hook is named as `by` in stop requests. */
  readonly registry?: { readonly runningHook: string | null };
}

/**
 * Builds a context for a loop. The loop updates `stepCount` and `stage` in place, so a run allocates
 * one context, not one per dispatch. `requestStop` records `{ reason, by }` in `control`, with `by` the
 * registry's running hook (or `'user'`).
 *
 * @example
 * const control = new RunControl();
 * const ctx = createContext({ stage: Stage.LOAD, control, registry, workflow: 'etl' }, { rows: 0 });
 * ctx.stepCount = 7; ctx.stage = Stage.SAVE;
 * await registry.dispatch(Stage.SAVE, ctx);
 */
export function createContext<S, X extends object = Record<never, never>>(
  init: ContextInit<S>,
  extra?: X,
): MutableContext<HookContext<S>> & X {
  const { control, registry } = init;
  const base: MutableContext<HookContext<S>> = {
    stepCount: init.stepCount ?? 0,
    stage: init.stage,
    workflow: init.workflow,
    globalRank: init.globalRank ?? 0,
    requestStop: (reason: string) => control.requestStop(reason, registry?.runningHook ?? 'user'),
  };
  return Object.assign(base, extra);
}
