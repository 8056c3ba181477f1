// The body of trainer.fit(): epochs of mini-batch steps, each stage dispatched on the hook kernel. The
// order of stages and state changes here is the contract docs/training.md spells out; keep them in step.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { HookmdAbortError, HookmdError, HookmdTypeError } from '../errors.js';
import { HookError } from '../hooks/index.js';
import type { HookRegistry, MutableContext, RunControl, StopRequest } from '../hooks/index.js';
import type { EpochRecord, TrainingCheckpoint } from './checkpoint.js';
import { Predictions, type CheckpointWriter, type CheckpointWritten, type GradientClip, type LoadedCheckpoint, type TrainingHookContext } from './context.js';
import type { LossStats, TrainingSet } from './dataset.js';
import { validationMetrics } from './metrics.js';
import { metricsView } from './metric-names.js';
import type { Optimizer } from './optimizers/optimizer.js';
import { chainToVariables, runawayParameter, thetaOf, type TrainableSpace } from './trainable-space.js';
import type { LrScheduler } from './schedulers/scheduler.js';
import { CheckpointHook } from './hooks/checkpoint-hook.js';
import { epochOrder } from './shuffle.js';
import { TrainingStage } from './stage.js';
import type { ResolvedScalars } from './trainer-options.js';
import { showValue } from '../describe-value.js';

/** @internal Everything a checkpoint restores: the trainer's state between two steps. */
export interface FitState {
  /** The optimizer's variables u (ln θ for a pair model, θ for a network). */
  variables: Float64Array;
  /** θ(u). */
  theta: Float64Array;
  /** Completed epochs. */
  epoch: number;
  /** Mini-batches of the current epoch already done. */
  batchIndex: number;
  stepCount: number;
  epochLossSum: number;
  history: EpochRecord[];
  metrics: Record<string, number>;
  /** Systems trained on, over all steps. */
  samplesSeen: number;
  /** Their atoms. */
  atomsSeen: number;
}

/** @internal What hooks hand the loop through the context during a run, and what its getters read. */
export interface RunScratch {
  readonly pending: PendingSave[];
  /** Set by ctx.reportGradientClip at BEFORE_OPTIMIZER_STEP. */
  clip: GradientClip | null;
  /** This step's ∂L/∂u as the loss gave it (before update hooks), or null before the first step. */
  rawGradient: Float64Array | null;
  /** Its 2-norm once read (NaN until then). */
  gradNorm: number;
}

/** @internal A saveCheckpoint request, with the hook that made it (for errors). */
export interface PendingSave {
  readonly writer: CheckpointWriter;
  readonly hookName: string;
}

/** @internal What the loop works with. */
export interface FitParts {
  readonly registry: HookRegistry<typeof TrainingStage, TrainingHookContext>;
  readonly ctx: MutableContext<TrainingHookContext>;
  readonly control: RunControl;
  readonly state: FitState;
  readonly space: TrainableSpace;
  readonly train: TrainingSet;
  readonly validation: TrainingSet | null;
  readonly optimizer: Optimizer;
  readonly scheduler: LrScheduler | null;
  readonly scalars: ResolvedScalars;
  readonly scratch: RunScratch;
  readonly snapshot: () => TrainingCheckpoint;
  /** fit()'s AbortSignal: aborting ends the run after the current step (see {@link FitLoop.run}). */
  readonly signal: AbortSignal | undefined;
}

// Who stopped a run that its AbortSignal ended (RunControl's `by`).
const SIGNAL = 'signal';

// The longest stretch fit() runs without letting the event loop turn.
const YIELD_MS = 20;

/** @internal Runs the epochs of one fit(), from the state's counters to `scalars.epochs`. */
export class FitLoop {
  readonly #p: FitParts;
  readonly #gradient: Float64Array;
  readonly #numBatches: number;
  #lastYield = performance.now();
  // AFTER_TRAIN fired in this run (an aborted fit fires it before the abort is raised).
  #trainEnded = false;

  constructor(parts: FitParts) {
    this.#p = parts;
    this.#gradient = new Float64Array(parts.space.size);
    this.#numBatches = Math.ceil(parts.train.size / parts.scalars.batchSize);
  }

  /**
   * One fit(): ON_CHECKPOINT_LOAD when it resumed (`loaded`), then BEFORE_TRAIN, the epochs and AFTER_TRAIN.
   * When the signal aborts, the run ends after the current step: each CheckpointHook saves the state (a
   * regular save point, with its stages), AFTER_TRAIN fires, and the run rejects with HookmdAbortError.
   */
  async run(loaded: LoadedCheckpoint | null): Promise<void> {
    const { state, ctx, control, scalars } = this.#p;
    ctx.parameters = this.#p.space.values(state.theta);
    if (loaded !== null) {
      ctx.loadedCheckpoint = loaded;
      await this.#fire(TrainingStage.ON_CHECKPOINT_LOAD);
      ctx.loadedCheckpoint = null;
    }
    await this.#fire(TrainingStage.BEFORE_TRAIN);
    this.#checkSignal();
    while (state.epoch < scalars.epochs && !control.stopRequested) {
      ctx.epoch = state.epoch;
      // A run resumed mid-epoch already fired this epoch's BEFORE_EPOCH.
      if (state.batchIndex === 0) await this.#fire(TrainingStage.BEFORE_EPOCH);
      const order = epochOrder(this.#p.train.size, scalars.seed, state.epoch, scalars.shuffle);
      while (state.batchIndex < this.#numBatches && !control.stopRequested) {
        const size = scalars.batchSize;
        const b = state.batchIndex;
        ctx.batchIndex = b;
        await this.step(order.slice(b * size, Math.min(order.length, (b + 1) * size)), (loss) => {
          state.epochLossSum += loss;
          state.batchIndex = b + 1;
        });
          this.#checkSignal();
          if (this.#validatesNow()) await this.#validate();
      }
      // An epoch that the signal cut short stays open, so that a resume finishes it (a hook's stop request
      // still closes the epoch it ends).
      if (state.batchIndex === this.#numBatches || control.stopped?.by !== SIGNAL) await this.#finishEpoch();
      this.#checkSignal();
    }
    const aborted = control.stopped?.by === SIGNAL;
    if (aborted) await this.#saveInterrupted((control.stopped as StopRequest).reason);
    ctx.epoch = state.epoch;
    ctx.stepCount = state.stepCount;
    this.#trainEnded = true;
    await this.#fire(TrainingStage.AFTER_TRAIN);
    if (aborted) {
      const reason = (control.stopped as StopRequest).reason;
      throw new HookmdAbortError(`Trainer.fit: aborted (${reason}) after optimizer step ${state.stepCount}, in epoch ${state.epoch}`, {
        reason, stepCount: state.stepCount, epoch: state.epoch, batchIndex: state.batchIndex,
      });
    }
  }

  // Turns an aborted signal into the run's stop request (kept apart from stops that hooks request).
  #checkSignal(): void {
    const { signal, control } = this.#p;
    if (signal?.aborted === true && !control.stopRequested) control.requestStop(String(signal.reason ?? 'aborted'), SIGNAL);
  }

  // Each enabled CheckpointHook saves the state after the last completed step, through a save point.
  async #saveInterrupted(reason: string): Promise<void> {
    const { registry, scratch } = this.#p;
    for (const handle of registry.handles()) {
      if (handle.enabled && handle.hook instanceof CheckpointHook) scratch.pending.push({ writer: handle.hook.interruptWriter(reason), hookName: handle.name });
    }
    await this.#savePoint();
  }

  /**
   * After a failed run, once every hook's onException ran: AFTER_TRAIN with `ctx.error` set (as
   * model_training_framework fires on_train_end in a finally), so that loggers and trackers close their
   * records of the run.
   */
  async afterFailure(error: unknown): Promise<void> {
    // An aborted fit has had its AFTER_TRAIN (the run ended, then the abort is raised): not a second one.
    if (this.#trainEnded) return;
    const { state, ctx } = this.#p;
    ctx.error = error;
    ctx.epoch = state.epoch;
    ctx.stepCount = state.stepCount;
    ctx.systems = null;
    ctx.predictions = null;
    await this.#fire(TrainingStage.AFTER_TRAIN);
  }

  // A validation within the epoch (validateEvery: { steps }): after every n-th optimizer step, unless the
  // epoch ends now (its own validation follows) or a stop was requested (the epoch closes with one).
  #validatesNow(): boolean {
    const { state, scalars, control, validation } = this.#p;
    const every = scalars.validateEverySteps;
    return every !== null && validation !== null && state.stepCount % every === 0 && state.batchIndex < this.#numBatches && !control.stopRequested;
  }

  /**
   * One optimizer step on `systems` (indices into the training set): the step's stages, the save point,
   * then stepCount + 1. `advance(loss)` runs between AFTER_STEP and the save point, for the epoch's
   * bookkeeping (so that a checkpoint taken there includes this step). Resolves to the step's loss.
   */
  async step(systems: Int32Array, advance: (loss: number) => void = () => {}): Promise<number> {
    const { state, ctx, space, train, optimizer, scratch } = this.#p;
    // Hooks get their own copy: the array the forward pass reads stays the trainer's.
    ctx.systems = systems.slice();
    state.samplesSeen += systems.length;
    for (const s of systems) state.atomsSeen += train.atomCounts[s];
    await this.#fire(TrainingStage.BEFORE_STEP);

    train.forward(state.theta, systems);
    ctx.predictions = this.#predictions(train, systems);
    ctx.activations = this.#activations(train);
    await this.#fire(TrainingStage.AFTER_FORWARD);
    ctx.activations = null;

    const stats = train.loss(this.#gradient);
    this.#checkLoss(stats);
    // Chain rule to the optimizer's variables: ∂L/∂u = θ·∂L/∂θ for u = ln θ.
    scratch.rawGradient = chainToVariables(space, state.theta, this.#gradient);
    scratch.gradNorm = Number.NaN;
    ctx.loss = stats.total;
    ctx.losses = Object.freeze({ energy: stats.energy, forces: stats.forces, stress: stats.stress });
    // The loss and its gradient come from one native pass: AFTER_LOSS (Lightning's on_after_backward) sees both.
    // Each stage gets records of its own: a network's arrays cannot be frozen, so AFTER_LOSS sees copies.
    ctx.gradients = Object.freeze(space.gradientRecord(scratch.rawGradient));
    await this.#fire(TrainingStage.AFTER_LOSS);

    ctx.gradients = space.gradientRecord(scratch.rawGradient);
    ctx.gradients = (await this.#fire(TrainingStage.BEFORE_OPTIMIZER_STEP)).gradients;
    const update = space.readGradients(ctx.gradients);
    ctx.gradients = Object.freeze({ ...ctx.gradients });
    if (scratch.clip !== null) {
      ctx.gradientClip = scratch.clip;
      scratch.clip = null;
      await this.#fire(TrainingStage.ON_GRADIENT_CLIP);
      ctx.gradientClip = null;
    }

    const before = state.variables.slice();
    optimizer.step(state.variables, update);
    thetaOf(space, state.variables, state.theta);
    this.#checkFinite(before, stats);
    ctx.parameters = space.values(state.theta);
    await this.#fire(TrainingStage.AFTER_OPTIMIZER_STEP);

    await this.#fire(TrainingStage.AFTER_STEP);
    ctx.systems = null;
    ctx.predictions = null;
    advance(stats.total);
    state.stepCount += 1;
    await this.#savePoint();
    ctx.stepCount = state.stepCount;
    await this.#breathe();
    return stats.total;
  }

  async #finishEpoch(): Promise<void> {
    const { state, ctx, optimizer, scheduler } = this.#p;
    state.metrics.train_loss = state.batchIndex > 0 ? state.epochLossSum / state.batchIndex : Number.NaN;
    await this.#validate();
    await this.#fire(TrainingStage.AFTER_EPOCH);
    // The epoch is complete: record it, then set the next epoch's learning rate.
    state.history.push(Object.freeze({ epoch: state.epoch, stepCount: state.stepCount, lr: optimizer.lr, metrics: Object.freeze({ ...state.metrics }) }));
    scheduler?.step(optimizer, state.metrics);
    state.epoch += 1;
    state.batchIndex = 0;
    state.epochLossSum = 0;
    await this.#savePoint();
    ctx.epoch = state.epoch;
  }

  // BEFORE_VALIDATION, the whole validation set evaluated into metrics.val_*, AFTER_VALIDATION (nothing
  // without a validation set).
  async #validate(): Promise<void> {
    const { state, ctx, validation } = this.#p;
    if (validation === null) return;
    await this.#fire(TrainingStage.BEFORE_VALIDATION);
    const all = Int32Array.from({ length: validation.size }, (_, k) => k);
    validation.forward(state.theta, all);
    const metrics = validationMetrics(validation.loss(null));
    Object.assign(state.metrics, metrics);
    ctx.predictions = this.#predictions(validation, all);
    ctx.validationMetrics = metricsView(Object.freeze(metrics));
    await this.#fire(TrainingStage.AFTER_VALIDATION);
    ctx.predictions = null;
    ctx.validationMetrics = null;
  }

  // Serves the saveCheckpoint requests made since the last save point: BEFORE_CHECKPOINT_SAVE (hooks may
  // add to checkpoint.extra), each writer, then ON_CHECKPOINT_SAVE once per file written.
  async #savePoint(): Promise<void> {
    const { ctx, scratch } = this.#p;
    if (scratch.pending.length === 0) return;
    const requests = scratch.pending.splice(0);
    const checkpoint = this.#p.snapshot();
    ctx.checkpoint = checkpoint;
    await this.#fire(TrainingStage.BEFORE_CHECKPOINT_SAVE);
    ctx.checkpoint = null;
    const metrics = Object.freeze({ ...checkpoint.metrics });
    for (const { writer, hookName } of requests) {
      let written: CheckpointWritten;
      try {
        written = await writer(checkpoint);
      } catch (cause) {
        const stage = TrainingStage.ON_CHECKPOINT_SAVE;
        throw new HookError('saveCheckpoint', { hookName, stage, stageName: stage, step: ctx.stepCount, cause, context: ctx });
      }
      for (const path of writtenPaths(written, hookName)) {
        ctx.savedCheckpoint = Object.freeze({ path, metrics, epoch: checkpoint.epoch, stepCount: checkpoint.stepCount, hookName });
        await this.#fire(TrainingStage.ON_CHECKPOINT_SAVE);
      }
      ctx.savedCheckpoint = null;
    }
  }

  #predictions(set: TrainingSet, systems: Int32Array): Predictions {
    const made = set.forwardCount;
    return new Predictions(systems.slice(), () => set.predictions(made));
  }

  // Each layer's node values, keyed layers.0, layers.1, …: copies of native memory, so that what a hook
  // does to them cannot reach the loss (null for a model without layers).
  #activations(set: TrainingSet): Readonly<Record<string, Float64Array>> | null {
    const layers = set.activations(set.forwardCount);
    return layers === null ? null : Object.freeze(Object.fromEntries(layers.map((values, l) => [`layers.${l}`, values])));
  }

  // A loss (or its gradient) that is not finite gives the optimizer nothing to follow: stop before the step,
  // so the parameters stay the last finite ones.
  #checkLoss(stats: LossStats): void {
    const terms = lossTerms(stats);
    const term = Object.entries(terms).find(([, value]) => !Number.isFinite(value));
    const p = this.#gradient.findIndex((value) => !Number.isFinite(value));
    if (term === undefined && p < 0) return;
    const what = term !== undefined ? `the ${term[0] === 'total' ? 'loss' : `${term[0]} loss`} is ${term[1]}` : `∂L/∂${this.#p.space.scalarName(p)} is ${this.#gradient[p]}`;
    throw this.#diverged(`at step ${this.#p.ctx.stepCount} (epoch ${this.#p.ctx.epoch}), ${what}`, terms);
  }

  // exp(u) overflows to ∞ (or underflows to 0) only after a runaway step: undo that step, so the trainer
  // keeps the last finite parameters, and stop with the reason.
  #checkFinite(before: Float64Array, stats: LossStats): void {
    const { state, space } = this.#p;
    const p = runawayParameter(space, state.theta);
    if (p < 0) return;
    const name = space.scalarName(p);
    const reached = space.variables === 'ln' ? `${name} = ${state.theta[p]} (ln θ = ${state.variables[p]})` : `${name} = ${state.theta[p]}`;
    state.variables.set(before);
    thetaOf(space, state.variables, state.theta);
    throw this.#diverged(`after optimizer step ${this.#p.ctx.stepCount} (epoch ${this.#p.ctx.epoch}), ${reached}`, lossTerms(stats));
  }

  /** TRAINING_DIVERGED with the epoch, the step, the loss terms and the (last finite) parameters kept. */
  #diverged(where: string, losses: Readonly<Record<string, number>>): HookmdError {
    const { ctx, space, state } = this.#p;
    const parameters = space.values(state.theta);
    ctx.parameters = parameters;
    return new HookmdError(
      'TRAINING_DIVERGED',
      `Trainer: ${where}; the fit diverged and keeps its last finite parameters (${space.variables === 'ln' ? Object.entries(parameters).map(([k, v]) => `${k} = ${v}`).join(', ') : space.names.join(', ')}): ` +
        'lower the learning rate, clip the gradients (GradientClipHook), rescale the loss weights or check the reference data',
      { epoch: ctx.epoch, step: ctx.stepCount, losses, parameters },
    );
  }

  /**
   * Dispatches `stage` with a context of its own (docs/hooks.md, rule 5), a copy of the run's: a hook that
   * keeps its ctx keeps what it saw. Returns it, for what hooks may replace (BEFORE_OPTIMIZER_STEP's gradients).
   */
  async #fire(stage: TrainingStage): Promise<TrainingHookContext> {
    const { ctx, registry } = this.#p;
    ctx.stage = stage;
    // Data by value; the lazy and live values (gradNorm, lr, model) stay getters.
    const local = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as TrainingHookContext;
    const pending = registry.dispatch(stage, local);
    if (pending !== undefined) await pending;
    return local;
  }

  async #breathe(): Promise<void> {
    if (performance.now() - this.#lastYield < YIELD_MS) return;
    await yieldToEventLoop();
    this.#lastYield = performance.now();
  }
}

// The paths a writer returned, checked: a writer that returns something else is a bug to name.
function writtenPaths(written: CheckpointWritten, hookName: string): readonly string[] {
  if (written === undefined) return [];
  const paths = typeof written === 'string' ? [written] : written;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
    throw new HookmdTypeError('INVALID_CHECKPOINT_WRITER', `saveCheckpoint: the writer of hook '${hookName}' must return the written path(s) or nothing, got ${showValue(written)}`, {
      field: 'writer',
      value: written,
    });
  }
  return paths;
}

/** The loss terms a TRAINING_DIVERGED error reports. */
function lossTerms(stats: LossStats): Record<string, number> {
  return { total: stats.total, energy: stats.energy, forces: stats.forces, stress: stats.stress };
}
