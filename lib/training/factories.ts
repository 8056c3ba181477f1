// Optimizers and schedulers from config entries: `{ type: 'Adam', lr: 0.05 }`, `{ type: 'Cosine', tMax: 60 }`.
// Type names are matched as the model names are (any case: adam, SGD, cosine, ReduceLROnPlateau as in
// PyTorch). Instances pass through unchanged, so options accept either form.
import { HookmdError, HookmdTypeError } from '../errors.js';
import { Vocabulary } from '../vocabulary.js';
import { Adam, type AdamOptions } from './optimizers/adam.js';
import { CosineLR, type CosineLROptions } from './schedulers/cosine-lr.js';
import type { Optimizer } from './optimizers/optimizer.js';
import { ReduceOnPlateau, type ReduceOnPlateauOptions } from './schedulers/reduce-on-plateau.js';
import type { LrScheduler } from './schedulers/scheduler.js';
import { SGD, type SGDOptions } from './optimizers/sgd.js';
import { StepLR, type StepLROptions } from './schedulers/step-lr.js';
import { showValue } from '../describe-value.js';

type OptimizerName = 'Adam' | 'SGD';
type SchedulerName = 'StepLR' | 'Cosine' | 'ReduceOnPlateau';

const OPTIMIZER_NAMES = new Vocabulary<OptimizerName>({ Adam: [], SGD: [] });
const SCHEDULER_NAMES = new Vocabulary<SchedulerName>({ StepLR: [], Cosine: ['CosineLR', 'CosineAnnealingLR'], ReduceOnPlateau: ['ReduceLROnPlateau'] });

const OPTIMIZERS: Readonly<Record<OptimizerName, (options: Record<string, unknown>) => Optimizer>> = {
  Adam: (options) => new Adam(options as AdamOptions),
  SGD: (options) => new SGD(options as SGDOptions),
};

const SCHEDULERS: Readonly<Record<SchedulerName, (options: Record<string, unknown>) => LrScheduler>> = {
  StepLR: (options) => new StepLR(options as unknown as StepLROptions),
  Cosine: (options) => new CosineLR(options as unknown as CosineLROptions),
  ReduceOnPlateau: (options) => new ReduceOnPlateau(options as ReduceOnPlateauOptions),
};

/**
 * An optimizer from an instance or `{ type: 'Adam' | 'SGD', ...options }`.
 *
 * @example
 * const adam = optimizerFrom({ type: 'Adam', lr: 0.02 }, 'Trainer');
 */
export function optimizerFrom(value: unknown, owner: string): Optimizer {
  if (value !== null && typeof value === 'object' && typeof (value as Optimizer).step === 'function' && typeof (value as Optimizer).stateDict === 'function') {
    return value as Optimizer;
  }
  return build(value, owner, 'optimizer', OPTIMIZER_NAMES, OPTIMIZERS, 'an optimizer (Adam, SGD)');
}

/**
 * A scheduler from an instance, `{ type: 'StepLR' | 'Cosine' | 'ReduceOnPlateau', ...options }`, or
 * null/undefined (none).
 *
 * @example
 * schedulerFrom({ type: 'Cosine', tMax: 100 }, 'Trainer');
 */
export function schedulerFrom(value: unknown, owner: string): LrScheduler | null {
  if (value === undefined || value === null) return null;
  if (typeof (value as LrScheduler).step === 'function' && typeof (value as LrScheduler).stateDict === 'function') return value as LrScheduler;
  return build(value, owner, 'lrScheduler', SCHEDULER_NAMES, SCHEDULERS, 'a scheduler (StepLR, CosineLR, ReduceOnPlateau)');
}

function build<K extends string, T>(
  value: unknown,
  owner: string,
  field: string,
  names: Vocabulary<K>,
  table: Readonly<Record<K, (options: Record<string, unknown>) => T>>,
  what: string,
): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HookmdTypeError(`INVALID_${field === 'optimizer' ? 'OPTIMIZER' : 'SCHEDULER'}`, `${owner}: ${field} must be ${what} or { type, ...options }`, {
      field,
      value,
    });
  }
  const { type, ...options } = value as Record<string, unknown>;
  const name = names.resolve(type);
  if (name === undefined) {
    throw new HookmdError(`UNKNOWN_${field === 'optimizer' ? 'OPTIMIZER' : 'SCHEDULER'}`, `${owner}: ${field}.type must be one of ${names.describe()}, got ${showValue(type)}`, {
      field: `${field}.type`,
      value: type,
    });
  }
  return table[name](options);
}
