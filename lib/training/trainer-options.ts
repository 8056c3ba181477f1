// The Trainer's options: their types, defaults and validation (once, at construction).
import type { System } from '../data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { AnyHook, AnyMethodHook, HookLogger } from '../hooks/index.js';
import type { MLIAPNetwork, PairModel } from '../models/index.js';
import type { TrainingCheckpoint } from './checkpoint.js';
import type { LossWeights } from './loss-weights.js';
import { checkKeys, integerOption } from './options.js';
import type { Optimizer } from './optimizers/optimizer.js';
import type { LrScheduler } from './schedulers/scheduler.js';
import { showValue } from '../describe-value.js';

/**
 * Options of `new Trainer`.
 *
 * @example
 * const options: TrainerOptions = {
 *   model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
 *   train, validation, optimizer: new Adam({ lr: 0.02 }), lrScheduler: new CosineLR({ tMax: 60 }),
 *   epochs: 60, batchSize: 8, lossWeights: { energy: 1, forces: 1 }, hooks: [new EarlyStoppingHook()], seed: 7,
 * };
 */
export interface TrainerOptions {
  /**
   * The model to fit: a LennardJones or Morse, whose parameters are the starting point (cutoffs, shift,
   * switch and skin stay fixed), or an `MLIAP.network(...)`, whose weights start from its seed.
   */
  model: PairModel | MLIAPNetwork;
  /** Reference systems, each with `energy`, `forces` and/or `stress` (3×3, 9 values, or ASE's Voigt 6). */
  train: readonly System[];
  /** Systems for the per-epoch validation metrics (optional). */
  validation?: readonly System[];
  /** Adam, SGD, or `{ type: 'Adam' | 'SGD', ...options }` (default `new Adam()`, lr 0.01). */
  optimizer?: Optimizer | Readonly<Record<string, unknown>>;
  /** StepLR, CosineLR, ReduceOnPlateau, or `{ type: 'StepLR' | 'Cosine' | 'ReduceOnPlateau', ... }` (default none). */
  lrScheduler?: LrScheduler | Readonly<Record<string, unknown>> | null;
  /** Total epochs (integer ≥ 1); a resumed fit runs until this many are complete. */
  epochs: number;
  /** Systems per mini-batch (default 32; the last batch of an epoch may be smaller). */
  batchSize?: number;
  lossWeights?: LossWeights;
  /** Hooks to register, in order: stage hooks or method-style hooks (`{ onEpochEnd(ctx) {…} }`). */
  hooks?: ReadonlyArray<AnyHook | AnyMethodHook>;
  /**
   * Where hook failures under errorPolicy 'warn' | 'disable', hook warnings (EarlyStoppingHook with
   * `strict: false`) and verbose reports (`info`) go (default `console`); `{ warn: () => {} }` silences them.
   */
  logger?: HookLogger;
  /** Seeds the per-epoch shuffle (integer, default 0): equal seeds give equal runs, bit for bit. */
  seed?: number;
  /** Shuffle the training set every epoch (default true). */
  shuffle?: boolean;
  /** Units of the systems (default 'metal'). */
  units?: 'metal' | 'lj';
  /**
   * Validate every `steps` optimizer steps as well as at each epoch end (Lightning's `val_check_interval`,
   * KempnerForge's `eval.interval`); needs `validation`. Default: at epoch ends only.
   */
  validateEvery?: { readonly steps: number };
}

/**
 * Options of `trainer.fit()`.
 *
 * @example
 * await trainer.fit({ resumeFrom: 'checkpoints/last.json' });
 * await trainer.fit({ signal: AbortSignal.timeout(3_600_000) });
 */
export interface FitOptions {
  /** A checkpoint (file path or object) to continue from. */
  resumeFrom?: string | TrainingCheckpoint;
  /**
   * Aborting it ends the fit after the current optimizer step: every CheckpointHook writes the state
   * (`interrupted.json`, and `last.json` with saveLast), AFTER_TRAIN fires, the hooks close, and fit()
   * rejects with HookmdAbortError (code ABORTED); `resumeFrom` that checkpoint continues exactly.
   */
  signal?: AbortSignal;
}

/** @internal The scalar options with their defaults. */
export interface ResolvedScalars {
  readonly epochs: number;
  readonly batchSize: number;
  readonly seed: number;
  readonly shuffle: boolean;
  readonly units: 'metal' | 'lj';
  /** Optimizer steps between validations within an epoch, or null for epoch ends only. */
  readonly validateEverySteps: number | null;
}

const KNOWN = ['model', 'train', 'validation', 'optimizer', 'lrScheduler', 'epochs', 'batchSize', 'lossWeights', 'hooks', 'seed', 'shuffle', 'units', 'logger', 'validateEvery'];

/** @internal Checks the option object's keys and the scalar options. */
export function resolveScalars(options: unknown): ResolvedScalars {
  const given = checkKeys('Trainer', options, KNOWN);
  if (given.epochs === undefined) {
    throw new HookmdTypeError('INVALID_OPTIONS', 'Trainer: epochs is required (the total number of epochs to train)', { field: 'epochs' });
  }
  const seed = given.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw new HookmdRangeError('INVALID_OPTIONS', `Trainer: seed must be a safe integer, got ${showValue(seed)}`, { field: 'seed', value: seed });
  }
  const shuffle = given.shuffle ?? true;
  if (typeof shuffle !== 'boolean') {
    throw new HookmdTypeError('INVALID_OPTIONS', `Trainer: shuffle must be a boolean, got ${showValue(shuffle)}`, { field: 'shuffle', value: shuffle });
  }
  const units = given.units ?? 'metal';
  if (units !== 'metal' && units !== 'lj') {
    throw new HookmdTypeError('INVALID_OPTIONS', `Trainer: units must be 'metal' or 'lj', got ${showValue(units)}`, { field: 'units', value: units });
  }
  const logger = given.logger as { warn?: unknown; info?: unknown } | undefined;
  if (logger !== undefined && (logger === null || typeof logger.warn !== 'function' || (logger.info !== undefined && typeof logger.info !== 'function'))) {
    throw new HookmdTypeError('INVALID_OPTIONS', 'Trainer: logger must have a warn(message, error?) function (and optionally info(message))', { field: 'logger', value: logger });
  }
  if (given.hooks !== undefined && !Array.isArray(given.hooks)) {
    throw new HookmdTypeError('INVALID_OPTIONS', 'Trainer: hooks must be an array of hooks', { field: 'hooks', value: given.hooks });
  }
  return {
    epochs: integerOption('Trainer', 'epochs', given.epochs, 1),
    batchSize: integerOption('Trainer', 'batchSize', given.batchSize ?? 32, 1),
    seed,
    shuffle,
    units,
    validateEverySteps: validateEvery(given.validateEvery, given.validation),
  };
}

function validateEvery(value: unknown, validation: unknown): number | null {
  if (value === undefined) return null;
  const { steps } = checkKeys('Trainer', value, ['steps'], 'validateEvery.');
  if (validation === undefined) {
    throw new HookmdTypeError('INVALID_OPTIONS', 'Trainer: validateEvery needs a validation set (the validation option)', { field: 'validateEvery', value });
  }
  return integerOption('Trainer', 'validateEvery.steps', steps, 1);
}
