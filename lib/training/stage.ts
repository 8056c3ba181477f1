// The stages of a training run, in firing order (docs/training.md says exactly when each one fires).
// String values: a dynamics hook (numeric DynamicsStage) handed to a trainer is then a FOREIGN_STAGE error
// at registration, instead of silently firing at the training stage that shares its number.
import { HookmdTypeError } from '../errors.js';

/**
 * Where a training hook fires. `ON_VALIDATION_START` and `ON_VALIDATION_END` are other names of
 * `BEFORE_VALIDATION` and `AFTER_VALIDATION` (same values), for trainer users who know them so.
 *
 * @example
 * trainer.register({ stage: TrainingStage.AFTER_EPOCH, frequency: 1, call: (ctx) => console.log(ctx.epoch, ctx.metrics) });
 */
export enum TrainingStage {
  ON_CHECKPOINT_LOAD = 'ON_CHECKPOINT_LOAD',
  BEFORE_TRAIN = 'BEFORE_TRAIN',
  BEFORE_EPOCH = 'BEFORE_EPOCH',
  BEFORE_STEP = 'BEFORE_STEP',
  AFTER_FORWARD = 'AFTER_FORWARD',
  AFTER_LOSS = 'AFTER_LOSS',
  BEFORE_OPTIMIZER_STEP = 'BEFORE_OPTIMIZER_STEP',
  ON_GRADIENT_CLIP = 'ON_GRADIENT_CLIP',
  AFTER_OPTIMIZER_STEP = 'AFTER_OPTIMIZER_STEP',
  AFTER_STEP = 'AFTER_STEP',
  BEFORE_VALIDATION = 'BEFORE_VALIDATION',
  ON_VALIDATION_START = 'BEFORE_VALIDATION',
  AFTER_VALIDATION = 'AFTER_VALIDATION',
  ON_VALIDATION_END = 'AFTER_VALIDATION',
  AFTER_EPOCH = 'AFTER_EPOCH',
  BEFORE_CHECKPOINT_SAVE = 'BEFORE_CHECKPOINT_SAVE',
  ON_CHECKPOINT_SAVE = 'ON_CHECKPOINT_SAVE',
  AFTER_TRAIN = 'AFTER_TRAIN',
}

/**
 * Every stage, in firing order, once each (the ON_VALIDATION_* names are not repeated).
 *
 * @example
 * TRAINING_STAGES.indexOf(TrainingStage.AFTER_LOSS); // 5
 */
export const TRAINING_STAGES: readonly TrainingStage[] = Object.freeze([...new Set(Object.values(TrainingStage))]);

/**
 * The method names trainer users already write, and the stage each one names. They work besides the
 * generic `on` + camelCase stage name (`onAfterEpoch`); `onException` is the lifecycle method that
 * every hook may have (called when the run fails).
 *
 * @example
 * TRAINER_METHOD_ALIASES.onEpochEnd; // TrainingStage.AFTER_EPOCH
 */
export const TRAINER_METHOD_ALIASES: Readonly<Record<string, TrainingStage>> = Object.freeze({
  onTrainStart: TrainingStage.BEFORE_TRAIN,
  onTrainEnd: TrainingStage.AFTER_TRAIN,
  onEpochStart: TrainingStage.BEFORE_EPOCH,
  onEpochEnd: TrainingStage.AFTER_EPOCH,
  onBatchStart: TrainingStage.BEFORE_STEP,
  onBatchEnd: TrainingStage.AFTER_STEP,
  onValidationStart: TrainingStage.BEFORE_VALIDATION,
  onValidationEnd: TrainingStage.AFTER_VALIDATION,
  onCheckpointSave: TrainingStage.ON_CHECKPOINT_SAVE,
  onCheckpointLoad: TrainingStage.ON_CHECKPOINT_LOAD,
});

/**
 * A TrainingStage from its value or name (`'ON_VALIDATION_END'` too), for options and config files.
 *
 * @example
 * trainingStage('AFTER_EPOCH', 'LoggingHook'); // TrainingStage.AFTER_EPOCH
 */
export function trainingStage(value: unknown, owner: string, field: string = 'stage'): TrainingStage {
  if (typeof value === 'string' && Object.hasOwn(TrainingStage, value)) return TrainingStage[value as keyof typeof TrainingStage];
  throw new HookmdTypeError('INVALID_STAGE', `${owner}: ${field} must be a TrainingStage (${Object.keys(TrainingStage).join(', ')}), got ${JSON.stringify(value)}`, {
    field,
    value,
  });
}
