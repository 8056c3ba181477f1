// The context a run's hooks share (one per fit() or trainingStep(), updated in place by the loop). The
// fields that cost something to compute (gradNorm, model) or that follow the trainer's state (samplesSeen,
// atomsSeen, lr, lrs) are accessors, so that they cost nothing unless a hook reads them.
import { HookmdTypeError } from '../errors.js';
import { createContext, type HookRegistry, type MutableContext, type RunControl } from '../hooks/index.js';
import type { Model } from '../models/index.js';
import type { GradientClip, TrainerHandle, TrainingHookContext } from './context.js';
import type { FitState, RunScratch } from './fit-loop.js';
import { gradientNorm } from './hooks/gradient-stats.js';
import type { RunMetadata } from './metadata.js';
import type { ParameterTensors } from './trainable-space.js';
import { TrainingStage } from './stage.js';
import { metricsView } from './metric-names.js';

type PendingWriter = Parameters<TrainingHookContext['saveCheckpoint']>[0];

/** @internal What a run's context is made of. */
export interface RunContextParts {
  readonly trainer: TrainerHandle;
  readonly registry: HookRegistry<typeof TrainingStage, TrainingHookContext>;
  readonly control: RunControl;
  readonly scratch: RunScratch;
  readonly metadata: RunMetadata;
  readonly state: FitState;
  readonly numBatches: number;
}

/** @internal The context of one run, with `requestStop`, `saveCheckpoint` and `reportGradientClip` wired to it. */
export function trainingContext(parts: RunContextParts): MutableContext<TrainingHookContext> {
  const { trainer, registry, control, scratch, metadata, state } = parts;
  const optimizer = trainer.optimizer;
  const extra = {
    trainer,
    epoch: state.epoch,
    batchIndex: state.batchIndex,
    numBatches: parts.numBatches,
    loss: Number.NaN,
    losses: Object.freeze({ energy: Number.NaN, forces: Number.NaN, stress: Number.NaN }),
    parameters: trainer.parameters,
    gradients: Object.freeze({}) as ParameterTensors,
    optimizer,
    lrScheduler: trainer.lrScheduler,
    // `val/loss` (Lightning's spelling, which the monitors take) reads `val_loss`.
    metrics: metricsView(state.metrics),
    systems: null,
    predictions: null,
    activations: null,
    metadata,
    checkpoint: null,
    savedCheckpoint: null,
    loadedCheckpoint: null,
    validationMetrics: null,
    gradientClip: null,
    error: null as unknown,
    logger: trainer.logger,
    saveCheckpoint: (writer: PendingWriter) => {
      if (typeof writer !== 'function') {
        throw new HookmdTypeError('INVALID_ARGUMENT', 'saveCheckpoint: writer must be a function (checkpoint) => path(s) written', { field: 'writer', value: writer });
      }
      scratch.pending.push({ writer, hookName: registry.runningHook ?? 'user' });
    },
    reportGradientClip: (normBefore: number, normAfter: number, normType: 2 | 'inf') => {
      const clip: GradientClip = Object.freeze({ normBefore, normAfter, normType, by: registry.runningHook ?? 'user' });
      scratch.clip = clip;
    },
  };
  const ctx = createContext({ stage: TrainingStage.BEFORE_TRAIN, stepCount: state.stepCount, workflow: trainer, control, registry }, extra);
  // One model per parameter set: the loop replaces ctx.parameters whenever θ changes.
  let built: { readonly parameters: unknown; readonly model: Model } | null = null;
  const currentModel = (parameters: unknown): Model => {
    if (built === null || built.parameters !== parameters) built = { parameters, model: trainer.toModel() };
    return built.model;
  };
  // Defined after createContext: its Object.assign would evaluate getters once, now.
  Object.defineProperties(ctx, {
    gradNorm: {
      enumerable: true,
      get: (): number => {
        if (Number.isNaN(scratch.gradNorm) && scratch.rawGradient !== null) scratch.gradNorm = gradientNorm([...scratch.rawGradient], 2);
        return scratch.gradNorm;
      },
    },
    samplesSeen: { enumerable: true, get: (): number => state.samplesSeen },
    atomsSeen: { enumerable: true, get: (): number => state.atomsSeen },
    lr: { enumerable: true, get: (): number => optimizer.lr },
    lrs: { enumerable: true, get: (): Readonly<Record<string, number>> => Object.freeze({ default: optimizer.lr }) },
    model: { enumerable: true, get: (): Model => currentModel(ctx.parameters) },
  });
  return ctx as unknown as MutableContext<TrainingHookContext>;
}
