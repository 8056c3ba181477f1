// The body of trainer.fit(): epochs of mini-batch steps, each stage dispatched on the hook kernel. The
// order of stages and state changes here is the contract docs/training.md spells out; keep them in step.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

import { HookmdError, HookmdTypeError } from '../errors.js';
import { HookError } from '../hooks/index.js';
import type { HookRegistry, MutableContext, RunControl } from '../hooks/index.js';
import type { EpochRecord, TrainingCheckpoint } from './checkpoint.js';
import { Predictions, type CheckpointWriter, type TrainingHookContext } from './context.js';
import type { TrainingSet } from './dataset.js';
import { validationMetrics } from './metrics.js';
import type { Optimizer } from './optimizer.js';
import type { ParameterSpace, ParameterValues } from './parameters.js';
import type { LrScheduler } from './scheduler.js';
import { epochOrder } from './shuffle.js';
import { TrainingStage } from './stage.js';
import type { ResolvedScalars } from './trainer-options.js';

/** @internal Everything a checkpoint restores: the trainer's state between two steps. */
export interface FitState {
  /** u = ln θ, the optimizer's variables. */
  variables: Float64Array;
  /** θ = exp(u). */
  theta: Float64Array;
  /** Completed epochs. */
  epoch: number;
  /** Mini-batches of the current epoch already done. */
  batchIndex: number;
  stepCount: number;
  epochLossSum: number;
  history: EpochRecord[];
  metrics: Record<string, number>;
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
  readonly space: ParameterSpace;
  readonly train: TrainingSet;
  readonly validation: TrainingSet | null;
  readonly optimizer: Optimizer;
  readonly scheduler: LrScheduler | null;
  readonly scalars: ResolvedScalars;
  readonly pending: PendingSave[];
  readonly snapshot: () => TrainingCheckpoint;
}

// The longest stretch fit() runs without letting the event loop turn.
const YIELD_MS = 20;

/** @internal Runs the epochs of one fit(), from the state's counters to `scalars.epochs`. */
export class FitLoop {
  readonly #p: FitParts;
  readonly #gradient: Float64Array;
  readonly #numBatches: number;
  #lastYield = performance.now();

  constructor(parts: FitParts) {
    this.#p = parts;
    this.#gradient = new Float64Array(parts.space.names.length);
    this.#numBatches = Math.ceil(parts.train.size / parts.scalars.batchSize);
  }

  async run(): Promise<void> {
    const { state, ctx, control, scalars } = this.#p;
    ctx.parameters = this.#p.space.values(state.theta);
    await this.#fire(TrainingStage.BEFORE_TRAIN);
    while (state.epoch < scalars.epochs && !control.stopRequested) {
      ctx.epoch = state.epoch;
      // A run resumed mid-epoch already fired this epoch's BEFORE_EPOCH.
      if (state.batchIndex === 0) await this.#fire(TrainingStage.BEFORE_EPOCH);
      const order = epochOrder(this.#p.train.size, scalars.seed, state.epoch, scalars.shuffle);
      while (state.batchIndex < this.#numBatches && !control.stopRequested) {
        await this.#step(order);
      }
      await this.#finishEpoch();
    }
    ctx.epoch = state.epoch;
    ctx.stepCount = state.stepCount;
    await this.#fire(TrainingStage.AFTER_TRAIN);
  }

  async #step(order: Int32Array): Promise<void> {
    const { state, ctx, space, train, optimizer } = this.#p;
    const size = this.#p.scalars.batchSize;
    const b = state.batchIndex;
    const systems = order.slice(b * size, Math.min(order.length, (b + 1) * size));
    ctx.batchIndex = b;
    // Hooks get their own copy: the array the forward pass reads stays the trainer's.
    ctx.systems = systems.slice();
    await this.#fire(TrainingStage.BEFORE_STEP);

    train.forward(state.theta, systems);
    ctx.predictions = this.#predictions(train, systems);
    await this.#fire(TrainingStage.AFTER_FORWARD);

    const stats = train.loss(this.#gradient);
    ctx.loss = stats.total;
    ctx.losses = Object.freeze({ energy: stats.energy, forces: stats.forces, stress: stats.stress });
    await this.#fire(TrainingStage.AFTER_LOSS);

    // Chain rule to the optimizer's variables: ∂L/∂u = θ·∂L/∂θ for u = ln θ.
    const gradients: ParameterValues = {};
    space.names.forEach((name, p) => {
      gradients[name] = state.theta[p] * this.#gradient[p];
    });
    ctx.gradients = gradients;
    await this.#fire(TrainingStage.BEFORE_OPTIMIZER_STEP);
    const update = this.#readGradients(ctx.gradients);
    ctx.gradients = Object.freeze({ ...ctx.gradients });

    optimizer.step(state.variables, update);
    for (let p = 0; p < state.theta.length; p++) state.theta[p] = Math.exp(state.variables[p]);
    this.#checkFinite();
    ctx.parameters = space.values(state.theta);
    await this.#fire(TrainingStage.AFTER_OPTIMIZER_STEP);

    state.epochLossSum += stats.total;
    await this.#fire(TrainingStage.AFTER_STEP);
    ctx.systems = null;
    ctx.predictions = null;
    state.batchIndex = b + 1;
    state.stepCount += 1;
    await this.#savePoint();
    ctx.stepCount = state.stepCount;
    await this.#breathe();
  }

  async #finishEpoch(): Promise<void> {
    const { state, ctx, optimizer, scheduler, validation } = this.#p;
    state.metrics.train_loss = state.batchIndex > 0 ? state.epochLossSum / state.batchIndex : Number.NaN;
    if (validation !== null) {
      await this.#fire(TrainingStage.BEFORE_VALIDATION);
      const all = Int32Array.from({ length: validation.size }, (_, k) => k);
      validation.forward(state.theta, all);
      Object.assign(state.metrics, validationMetrics(validation.loss(null)));
      ctx.predictions = this.#predictions(validation, all);
      await this.#fire(TrainingStage.AFTER_VALIDATION);
      ctx.predictions = null;
    }
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

  // Serves the saveCheckpoint requests made since the last save point.
  async #savePoint(): Promise<void> {
    const { ctx, pending } = this.#p;
    if (pending.length === 0) return;
    const requests = pending.splice(0);
    const checkpoint = this.#p.snapshot();
    ctx.checkpoint = checkpoint;
    await this.#fire(TrainingStage.ON_CHECKPOINT_SAVE);
    ctx.checkpoint = null;
    for (const { writer, hookName } of requests) {
      try {
        await writer(checkpoint);
      } catch (cause) {
        const stage = TrainingStage.ON_CHECKPOINT_SAVE;
        throw new HookError('saveCheckpoint', { hookName, stage, stageName: stage, step: ctx.stepCount, cause, context: ctx });
      }
    }
  }

  #predictions(set: TrainingSet, systems: Int32Array): Predictions {
    const made = set.forwardCount;
    return new Predictions(systems.slice(), () => set.predictions(made));
  }

  // exp(u) overflows to ∞ (or underflows to 0) only after a runaway step: stop with the reason rather than
  // let the next forward pass refuse the parameters.
  #checkFinite(): void {
    const { state, space, ctx } = this.#p;
    const p = state.theta.findIndex((value) => !(Number.isFinite(value) && value > 0));
    if (p < 0) return;
    const name = space.names[p];
    throw new HookmdError(
      'TRAINING_DIVERGED',
      `Trainer: after optimizer step ${ctx.stepCount} (epoch ${ctx.epoch}), ${name} = ${state.theta[p]} (ln θ = ${state.variables[p]}); ` +
        'the fit diverged: lower the learning rate, clip the gradients (GradientClipHook) or rescale the loss weights',
      { field: name, value: state.theta[p], step: ctx.stepCount, epoch: ctx.epoch, loss: ctx.loss },
    );
  }

  #readGradients(gradients: unknown): Float64Array {
    const names = this.#p.space.names;
    if (gradients === null || typeof gradients !== 'object') {
      throw new HookmdTypeError('INVALID_GRADIENT', 'Trainer: ctx.gradients must stay an object of numbers by parameter name', { field: 'gradients', value: gradients });
    }
    return Float64Array.from(names, (name) => {
      const value = (gradients as Record<string, unknown>)[name];
      if (typeof value !== 'number') {
        throw new HookmdTypeError('INVALID_GRADIENT', `Trainer: gradients['${name}'] must be a number after BEFORE_OPTIMIZER_STEP, got ${JSON.stringify(value)}`, {
          field: name,
          value,
        });
      }
      return value;
    });
  }

  async #fire(stage: TrainingStage): Promise<void> {
    const { ctx, registry } = this.#p;
    ctx.stage = stage;
    const pending = registry.dispatch(stage, ctx);
    if (pending !== undefined) await pending;
  }

  async #breathe(): Promise<void> {
    if (performance.now() - this.#lastYield < YIELD_MS) return;
    await yieldToEventLoop();
    this.#lastYield = performance.now();
  }
}
