// The stages of a training run, in firing order (docs/training.md says exactly when each one fires).
// String values: a dynamics hook (numeric DynamicsStage) handed to a trainer is then a FOREIGN_STAGE error
// at registration, instead of silently firing at the training stage that shares its number.
import { HookmdTypeError } from '../errors.js';

/**
 * Where a training hook fires.
 *
 * @example
 * trainer.register({ stage: TrainingStage.AFTER_EPOCH, frequency: 1, call: (ctx) => console.log(ctx.epoch, ctx.metrics) });
 */
export enum TrainingStage {
  BEFORE_TRAIN = 'BEFORE_TRAIN',
  BEFORE_EPOCH = 'BEFORE_EPOCH',
  BEFORE_STEP = 'BEFORE_STEP',
  AFTER_FORWARD = 'AFTER_FORWARD',
  AFTER_LOSS = 'AFTER_LOSS',
  BEFORE_OPTIMIZER_STEP = 'BEFORE_OPTIMIZER_STEP',
  AFTER_OPTIMIZER_STEP = 'AFTER_OPTIMIZER_STEP',
  AFTER_STEP = 'AFTER_STEP',
  BEFORE_VALIDATION = 'BEFORE_VALIDATION',
  AFTER_VALIDATION = 'AFTER_VALIDATION',
  AFTER_EPOCH = 'AFTER_EPOCH',
  ON_CHECKPOINT_SAVE = 'ON_CHECKPOINT_SAVE',
  AFTER_TRAIN = 'AFTER_TRAIN',
}

/**
 * Every stage, in firing order.
 *
 * @example
 * TRAINING_STAGES.indexOf(TrainingStage.AFTER_LOSS); // 4
 */
export const TRAINING_STAGES: readonly TrainingStage[] = Object.freeze(Object.values(TrainingStage));

/**
 * A TrainingStage from its value or name, for options and config files.
 *
 * @example
 * trainingStage('AFTER_EPOCH', 'LoggingHook'); // TrainingStage.AFTER_EPOCH
 */
export function trainingStage(value: unknown, owner: string, field: string = 'stage'): TrainingStage {
  if (typeof value === 'string' && (TRAINING_STAGES as readonly string[]).includes(value)) return value as TrainingStage;
  throw new HookmdTypeError('INVALID_STAGE', `${owner}: ${field} must be a TrainingStage (${TRAINING_STAGES.join(', ')}), got ${JSON.stringify(value)}`, {
    field,
    value,
  });
}
