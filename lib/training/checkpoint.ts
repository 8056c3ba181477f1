// The JSON training checkpoint: everything a fit needs to continue exactly where it stopped (the optimizer
// variables bit for bit, the optimizer and scheduler states, every hook's state, the counters and the
// history), plus the run metadata. Non-finite numbers (NaN losses, ±Infinity bests) are written as
// { "$number": "NaN" } so that they survive JSON.
import { readFileSync } from 'node:fs';

import { HookmdError } from '../errors.js';
import type { StateDict } from '../hooks/index.js';
import type { RunMetadata } from './metadata.js';
import type { PairModelSpec } from './parameters.js';
import { showValue } from '../describe-value.js';

/**
 * The `format` tag of a checkpoint file.
 *
 * @example
 * readCheckpoint('ckpt/last.json').format === CHECKPOINT_FORMAT; // true
 */
export const CHECKPOINT_FORMAT = 'hookmd.training-checkpoint';
const VERSION = 1;

/**
 * One completed epoch of a fit.
 *
 * @example
 * history.epochs.at(-1); // { epoch: 49, stepCount: 250, lr: 0.0012, metrics: { train_loss: …, val_loss: … } }
 */
export interface EpochRecord {
  /** Index of the epoch (0-based). */
  readonly epoch: number;
  /** Optimizer steps taken by its end. */
  readonly stepCount: number;
  /** The learning rate it trained with. */
  readonly lr: number;
  readonly metrics: Readonly<Record<string, number>>;
}

/**
 * A training checkpoint, as `trainer.checkpoint()` makes it and CheckpointHook writes it.
 *
 * @example
 * const checkpoint = decodeCheckpoint(readFileSync('ckpt/last.json', 'utf8'));
 * await new Trainer(options).fit({ resumeFrom: checkpoint });
 */
export interface TrainingCheckpoint {
  readonly format: typeof CHECKPOINT_FORMAT;
  readonly version: number;
  readonly metadata: RunMetadata;
  /** The model with the checkpoint's parameters (`modelFromSpec` rebuilds it). */
  readonly model: PairModelSpec | Readonly<Record<string, unknown>>;
  readonly parameterNames: readonly string[];
  /** θ by name, for people; `variables` is what a resume reads. */
  readonly parameters: Readonly<Record<string, number | readonly number[]>>;
  /** The optimizer's variables u = ln θ, exactly. */
  readonly variables: readonly number[];
  readonly optimizer: { readonly type: string; readonly state: Record<string, unknown> };
  readonly lrScheduler: { readonly type: string; readonly state: Record<string, unknown> } | null;
  /** `registry.stateDict()`: every stateful hook's state by state key. */
  readonly hooks: StateDict;
  /** Completed epochs; the next step belongs to epoch `epoch`. */
  readonly epoch: number;
  /** Mini-batches of epoch `epoch` already done (0 at an epoch boundary). */
  readonly batchIndex: number;
  readonly stepCount: number;
  /** Σ of the step losses of epoch `epoch` so far (its train_loss is their mean). */
  readonly epochLossSum: number;
  readonly history: readonly EpochRecord[];
  readonly metrics: Readonly<Record<string, number>>;
  /** Systems trained on so far (absent in checkpoints of hookmd before it counted them). */
  readonly samplesSeen?: number;
  /** Their atoms. */
  readonly atomsSeen?: number;
  readonly seed: number;
  /** Free room for hooks at BEFORE_CHECKPOINT_SAVE. */
  readonly extra: Record<string, unknown>;
}

/**
 * The checkpoint as JSON text (non-finite numbers encoded).
 *
 * @example
 * writeFileSync('ckpt.json', encodeCheckpoint(trainer.checkpoint()));
 */
export function encodeCheckpoint(checkpoint: TrainingCheckpoint): string {
  return JSON.stringify(checkpoint, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? { $number: String(value) } : value), 1);
}

/**
 * Parses checkpoint text and checks its shape; throws INVALID_CHECKPOINT naming the problem.
 *
 * @example
 * const checkpoint = decodeCheckpoint(text);
 */
export function decodeCheckpoint(text: string, source: string = 'checkpoint'): TrainingCheckpoint {
  let value: unknown;
  try {
    value = JSON.parse(text, (_key, v: unknown) => (isEncodedNumber(v) ? Number(v.$number) : v));
  } catch (error) {
    throw new HookmdError('INVALID_CHECKPOINT', `${source}: not JSON: ${(error as Error).message}`, { source }, { cause: error });
  }
  return checkCheckpoint(value, source);
}

/**
 * Reads and decodes a checkpoint file.
 *
 * @example
 * const checkpoint = readCheckpoint('checkpoints/last.json');
 */
export function readCheckpoint(path: string): TrainingCheckpoint {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HookmdError('CHECKPOINT_NOT_FOUND', `readCheckpoint: cannot read ${path}: ${(error as Error).message}`, { path }, { cause: error });
  }
  return decodeCheckpoint(text, path);
}

/** @internal Checks the shape of a parsed checkpoint (values are checked where they are loaded). */
export function checkCheckpoint(value: unknown, source: string): TrainingCheckpoint {
  const bad = (problem: string): never => {
    throw new HookmdError('INVALID_CHECKPOINT', `${source}: ${problem}`, { source });
  };
  if (value === null || typeof value !== 'object') return bad('a checkpoint must be an object');
  const c = value as Record<string, unknown>;
  if (c.format !== CHECKPOINT_FORMAT) return bad(`format must be '${CHECKPOINT_FORMAT}', got ${showValue(c.format)}`);
  if (c.version !== VERSION) return bad(`version ${showValue(c.version)} is not supported (this hookmd writes ${VERSION})`);
  for (const field of ['epoch', 'batchIndex', 'stepCount']) {
    if (!Number.isInteger(c[field]) || (c[field] as number) < 0) bad(`${field} must be an integer ≥ 0`);
  }
  if (typeof c.epochLossSum !== 'number' || typeof c.seed !== 'number') bad('epochLossSum and seed must be numbers');
  // A pair model has one variable per parameter name, a network one per entry of each named tensor.
  if (!Array.isArray(c.parameterNames) || !Array.isArray(c.variables) || c.variables.length < c.parameterNames.length) {
    bad('parameterNames and variables must be arrays, with a variable for each parameter at least');
  }
  if (!(c.variables as unknown[]).every((v) => typeof v === 'number')) bad('variables must be numbers');
  for (const field of ['samplesSeen', 'atomsSeen']) {
    if (c[field] !== undefined && (!Number.isInteger(c[field]) || (c[field] as number) < 0)) bad(`${field} must be an integer ≥ 0`);
  }
  if (c.optimizer === null || typeof c.optimizer !== 'object') bad('optimizer must be { type, state }');
  if (c.hooks === null || typeof c.hooks !== 'object') bad('hooks must be an object of hook states');
  if (!Array.isArray(c.history)) bad('history must be an array');
  if (c.metrics === null || typeof c.metrics !== 'object') bad('metrics must be an object');
  return value as TrainingCheckpoint;
}

/** @internal The format tag and version a new checkpoint carries. */
export const CHECKPOINT_HEADER: { readonly format: typeof CHECKPOINT_FORMAT; readonly version: number } = Object.freeze({ format: CHECKPOINT_FORMAT, version: VERSION });

function isEncodedNumber(value: unknown): value is { $number: string } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { $number?: unknown }).$number === 'string';
}
