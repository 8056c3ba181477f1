// What training hooks receive: the kernel's TrainContext with the trainer's concrete types, plus the
// mini-batch, the predictions, the run metadata and the checkpoint being saved.
import type { Hook, TrainContext } from '../hooks/index.js';
import type { NativePredictions } from '../native/training-binding.js';
import type { TrainingCheckpoint } from './checkpoint.js';
import type { RunMetadata } from './metadata.js';
import type { Optimizer } from './optimizer.js';
import type { ParameterValues } from './parameters.js';
import type { LrScheduler } from './scheduler.js';
import type { TrainingStage } from './stage.js';
import type { Trainer } from './trainer.js';

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
 * Receives the checkpoint after ON_CHECKPOINT_SAVE (see {@link TrainingHookContext.saveCheckpoint}).
 *
 * @example
 * const writer: CheckpointWriter = (checkpoint) => writeFile('ckpt.json', encodeCheckpoint(checkpoint));
 */
export type CheckpointWriter = (checkpoint: TrainingCheckpoint) => void | Promise<void>;

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
export interface TrainingHookContext extends TrainContext<Readonly<ParameterValues>, Optimizer, TrainingStage> {
  /** The trainer (also `ctx.workflow`). */
  readonly trainer: Trainer;
  /** Mini-batches per epoch. */
  readonly numBatches: number;
  /** Indices of this step's systems in the training set (from BEFORE_STEP to AFTER_STEP; null elsewhere). */
  readonly systems: Int32Array | null;
  /** The last forward pass: the step's mini-batch, or the validation set at AFTER_VALIDATION; else null. */
  readonly predictions: Predictions | null;
  /**
   * ∂L/∂u by parameter name, u = ln θ (the optimizer's variables: θ·∂L/∂θ). A plain, writable object at
   * BEFORE_OPTIMIZER_STEP, where update hooks (GradientClipHook) change it; the optimizer then reads it.
   * Frozen at every other stage.
   */
  readonly gradients: ParameterValues;
  readonly lrScheduler: LrScheduler | null;
  readonly metadata: RunMetadata;
  /** At ON_CHECKPOINT_SAVE: the checkpoint about to be written; hooks may add entries to `checkpoint.extra`. */
  readonly checkpoint: TrainingCheckpoint | null;
  /**
   * Asks for a checkpoint at the next save point (after AFTER_STEP, or after AFTER_EPOCH and the scheduler
   * step): the trainer builds it, dispatches ON_CHECKPOINT_SAVE, then calls `writer` with it.
   */
  saveCheckpoint(writer: CheckpointWriter): void;
}

/**
 * A training hook.
 *
 * @example
 * const hook: TrainingHook = { stage: TrainingStage.AFTER_LOSS, frequency: 10, call: (ctx) => console.log(ctx.loss) };
 */
export type TrainingHook = Hook<TrainingStage, TrainingHookContext>;
