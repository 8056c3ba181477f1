// What training hooks receive: the kernel's TrainContext with the trainer's concrete types, plus the
// mini-batch, the predictions, the run metadata and the checkpoint being saved.
import type { Hook, HookLogger, HookRegistry, TrainContext } from '../hooks/index.js';
import type { Model } from '../models/index.js';
import type { NativePredictions } from '../native/training-binding.js';
import type { EpochRecord, TrainingCheckpoint } from './checkpoint.js';
import type { RunMetadata } from './metadata.js';
import type { Optimizer } from './optimizers/optimizer.js';
import type { ParameterTensors } from './trainable-space.js';
import type { LrScheduler } from './schedulers/scheduler.js';
import type { TrainingStage } from './stage.js';

/**
 * Predictions of one forward pass, fetched from native memory on first access. Each property is a copy:
 * a hook that writes into it changes nothing the loss sees (read-only observers by construction).
 *
 * @example
 * trainer.register({ stage: TrainingStage.AFTER_FORWARD, frequency: 1, call: (ctx) => parity.push(...ctx.predictions!.energy) });
 */
export class Predictions {
  /** Indices of the predicted systems in their data set, in the order of the arrays below. */
  readonly systems: Int32Array;
  readonly #fetch: () => NativePredictions;
  #data: NativePredictions | undefined;

  /** @internal */
  constructor(systems: Int32Array, fetch: () => NativePredictions) {
    this.systems = systems;
    this.#fetch = fetch;
  }

  /** One energy per system (eV in metal units). */
  get energy(): Float64Array {
    return (this.#data ??= this.#fetch()).energy;
  }

  /** 3 per atom, system after system (eV/Å). */
  get forces(): Float64Array {
    return (this.#data ??= this.#fetch()).forces;
  }

  /** 9 per system, row-major (eV/Å³, ASE's sign; 0 without a cell). */
  get stress(): Float64Array {
    return (this.#data ??= this.#fetch()).stress;
  }
}

/**
 * Receives the checkpoint after BEFORE_CHECKPOINT_SAVE (see {@link TrainingHookContext.saveCheckpoint})
 * and returns the path(s) of the files it wrote, once they are durable; ON_CHECKPOINT_SAVE then fires once
 * per path.
 *
 * @example
 * const writer: CheckpointWriter = async (checkpoint) => {
 *   await writeFile('ckpt.json', encodeCheckpoint(checkpoint));
 *   return 'ckpt.json';
 * };
 */
export type CheckpointWriter = (checkpoint: TrainingCheckpoint) => CheckpointWritten | Promise<CheckpointWritten>;

/**
 * What a {@link CheckpointWriter} returns: the files it wrote (none for `undefined`).
 *
 * @example
 * const written: CheckpointWritten = ['ckpt/epoch=3.json', 'ckpt/last.json'];
 */
export type CheckpointWritten = void | string | readonly string[];

/**
 * At ON_CHECKPOINT_SAVE: the file just written (renamed into place after an fsync, so durable).
 *
 * @example
 * trainer.register({ onCheckpointSave: (ctx: TrainingHookContext) => upload(ctx.savedCheckpoint!.path) });
 */
export interface SavedCheckpoint {
  readonly path: string;
  /** The metrics when the checkpoint was taken. */
  readonly metrics: Readonly<Record<string, number>>;
  readonly epoch: number;
  readonly stepCount: number;
  /** The hook that asked for the checkpoint. */
  readonly hookName: string;
}

/**
 * At ON_CHECKPOINT_LOAD: the checkpoint a resumed fit() just loaded.
 *
 * @example
 * trainer.register({ onCheckpointLoad: (ctx: TrainingHookContext) => console.log(ctx.loadedCheckpoint!.path) });
 */
export interface LoadedCheckpoint {
  /** The file it came from, or null for a checkpoint object. */
  readonly path: string | null;
  readonly checkpoint: TrainingCheckpoint;
}

/**
 * At ON_GRADIENT_CLIP: the total norm of ∂L/∂(ln θ) before and after a clipping hook changed it.
 *
 * @example
 * trainer.register({ onGradientClip: (ctx: TrainingHookContext) => console.log(ctx.gradientClip!.normBefore) });
 */
export interface GradientClip {
  readonly normBefore: number;
  readonly normAfter: number;
  readonly normType: 2 | 'inf';
  /** The hook that clipped. */
  readonly by: string;
}

/**
 * The trainer as its hooks see it (`ctx.trainer`): what a hook may read, plus `toModel()` and
 * `checkpoint()`. `Trainer` implements it; `fit()` and `trainingStep()` are left out, since a hook runs
 * inside one. Declared here, below the Trainer, so that the context and the trainer do not import each other.
 *
 * @example
 * const logger: TrainingHook = { stage: TrainingStage.AFTER_EPOCH, frequency: 1, call: (ctx) => console.log(ctx.trainer.configHash) };
 */
export interface TrainerHandle {
  readonly hooks: HookRegistry<typeof TrainingStage, TrainingHookContext>;
  readonly optimizer: Optimizer;
  readonly lrScheduler: LrScheduler | null;
  readonly epochs: number;
  readonly batchSize: number;
  readonly seed: number;
  readonly shuffle: boolean;
  readonly units: 'metal' | 'lj';
  readonly parameterNames: readonly string[];
  readonly logger: HookLogger;
  readonly parameters: Readonly<ParameterTensors>;
  readonly stepCount: number;
  readonly epoch: number;
  readonly history: readonly EpochRecord[];
  readonly metadata: RunMetadata | null;
  readonly configHash: string;
  /** The model with the current parameters. */
  toModel(): Model;
  /** The trainer's state as a checkpoint, between two steps. */
  checkpoint(): TrainingCheckpoint;
}

/**
 * The context of every training hook. `stepCount` counts optimizer steps over the whole run (it is the
 * same at every stage of a step); `epoch` counts completed epochs (the same at every stage of an epoch).
 *
 * @example
 * const printer: TrainingHook = {
 *   stage: TrainingStage.AFTER_EPOCH, frequency: 1,
 *   call: (ctx) => console.log(ctx.epoch, ctx.stepCount, ctx.metrics.val_loss, ctx.parameters),
 * };
 */
export interface TrainingHookContext extends TrainContext<Readonly<ParameterTensors>, Optimizer, TrainingStage> {
  /** The trainer (also `ctx.workflow`). */
  readonly trainer: TrainerHandle;
  /** Mini-batches per epoch. */
  readonly numBatches: number;
  /** Indices of this step's systems in the training set (from BEFORE_STEP to AFTER_STEP; null elsewhere). */
  readonly systems: Int32Array | null;
  /** The last forward pass: the step's mini-batch, or the validation set at AFTER_VALIDATION; else null. */
  readonly predictions: Predictions | null;
  /**
   * At AFTER_FORWARD, for a network (MLIAP.network): each layer's node values for every atom of the step's
   * systems (atoms × nodes, atoms in the order of `predictions.forces`), keyed `layers.0`, `layers.1`, …
   * (the output layer last), after the forward pass and before the loss. Copies in a frozen record:
   * writing to them changes nothing in the fit. Null at other stages and for a pair model.
   */
  readonly activations: Readonly<Record<string, Float64Array>> | null;
  /**
   * ∂L/∂u by parameter name, u = ln θ (the optimizer's variables: θ·∂L/∂θ). A plain, writable object at
   * BEFORE_OPTIMIZER_STEP, where update hooks (GradientClipHook) change it; the optimizer then reads it.
   * Frozen at every other stage.
   */
  readonly gradients: ParameterTensors;
  readonly lrScheduler: LrScheduler | null;
  readonly metadata: RunMetadata;
  /** At BEFORE_CHECKPOINT_SAVE: the checkpoint about to be written; hooks may add entries to `checkpoint.extra`. */
  readonly checkpoint: TrainingCheckpoint | null;
  /** At ON_CHECKPOINT_SAVE: the file just written, with the metrics it was taken with; else null. */
  readonly savedCheckpoint: SavedCheckpoint | null;
  /** At ON_CHECKPOINT_LOAD: the checkpoint a resumed fit() loaded; else null. */
  readonly loadedCheckpoint: LoadedCheckpoint | null;
  /** At ON_VALIDATION_END (AFTER_VALIDATION): the validation metrics (`val_loss`, `val_forces_rmse`, …); else null. */
  readonly validationMetrics: Readonly<Record<string, number>> | null;
  /** At ON_GRADIENT_CLIP: the norms before and after clipping; else null. */
  readonly gradientClip: GradientClip | null;
  /**
   * The 2-norm of this step's ∂L/∂(ln θ) as the loss gave it, before any hook changed the gradients;
   * computed on first read (NaN before the first AFTER_LOSS).
   */
  readonly gradNorm: number;
  /** Systems trained on so far (all steps of all fits), this step's included from BEFORE_STEP on. */
  readonly samplesSeen: number;
  /** Atoms of those systems. */
  readonly atomsSeen: number;
  /** The learning rate now: the first parameter group's (KempnerForge's `ctx.lr`, a number). */
  readonly lr: number;
  /**
   * The learning rate of each parameter group, by group name. hookmd's optimizers have one group,
   * `'default'`, holding every parameter.
   */
  readonly lrs: Readonly<Record<string, number>>;
  /**
   * The model being trained, with the current parameters (KempnerForge's and Lightning's `model`): a
   * LennardJones or Morse like the trainer's, built on first read after each update, so a hook can run
   * it (`ctx.model.compute(batch)`). Changing it changes nothing in the fit.
   */
  readonly model: Model;
  /**
   * At AFTER_TRAIN after a failure: the error that ended the run (a HookError naming the hook,
   * TRAINING_DIVERGED, …), after every hook's onException; null in a run that did not fail.
   */
  readonly error: unknown;
  /** The trainer's logger (TrainerOptions.logger): where hooks warn, so that a caller can silence them. */
  readonly logger: HookLogger;
  /**
   * Asks for a checkpoint at the next save point (after AFTER_STEP, or after AFTER_EPOCH and the scheduler
   * step): the trainer builds it, dispatches BEFORE_CHECKPOINT_SAVE, calls `writer` with it, then
   * dispatches ON_CHECKPOINT_SAVE for each file the writer returns.
   */
  saveCheckpoint(writer: CheckpointWriter): void;
  /**
   * For clipping hooks at BEFORE_OPTIMIZER_STEP: records the norms before and after clipping; the trainer
   * then dispatches ON_GRADIENT_CLIP.
   */
  reportGradientClip(normBefore: number, normAfter: number, normType: 2 | 'inf'): void;
}

/**
 * A training hook.
 *
 * @example
 * const hook: TrainingHook = { stage: TrainingStage.AFTER_LOSS, frequency: 10, call: (ctx) => console.log(ctx.loss) };
 */
export type TrainingHook = Hook<TrainingStage, TrainingHookContext>;
