// The stages of a training run, in firing order (docs/training.md says exactly when each one fires).
// String values: a dynamics hook (numeric DynamicsStage) handed to a trainer is then a FOREIGN_STAGE error
// at registration, instead of silently firing at the training stage that shares its number.
import { HookmdTypeError } from '../errors.js';
import type { MethodHint } from '../hooks/index.js';
import { showValue } from '../describe-value.js';

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
 * The method names trainer users already write, and the stage each one names: those of Lightning's
 * `Callback`, Hugging Face's `TrainerCallback`, Keras callbacks, KempnerForge's `TrainingHook` and
 * model_training_framework's `TrainerHooks`, in camelCase. They work besides the generic `on` + camelCase
 * stage name (`onAfterEpoch`); `onException` is the lifecycle method that every hook may have (called
 * when the run fails). Two of them for one stage in one hook are AMBIGUOUS_STAGE_METHOD.
 *
 * @example
 * TRAINER_METHOD_ALIASES.onStepEnd; // TrainingStage.AFTER_STEP (KempnerForge's on_step_end)
 */
export const TRAINER_METHOD_ALIASES: Readonly<Record<string, TrainingStage>> = Object.freeze({
  onTrainStart: TrainingStage.BEFORE_TRAIN,
  // nvalchemi's training stages and seed 001's names.
  onTrainingStart: TrainingStage.BEFORE_TRAIN,
  onBeforeTraining: TrainingStage.BEFORE_TRAIN,
  onTrainingEnd: TrainingStage.AFTER_TRAIN,
  onAfterTraining: TrainingStage.AFTER_TRAIN,
  onBeforeBatch: TrainingStage.BEFORE_STEP,
  onAfterBatch: TrainingStage.AFTER_STEP,
  onTrainBegin: TrainingStage.BEFORE_TRAIN,
  onFitStart: TrainingStage.BEFORE_TRAIN,
  onTrainEnd: TrainingStage.AFTER_TRAIN,
  onFitEnd: TrainingStage.AFTER_TRAIN,
  onEpochStart: TrainingStage.BEFORE_EPOCH,
  onEpochBegin: TrainingStage.BEFORE_EPOCH,
  onTrainEpochStart: TrainingStage.BEFORE_EPOCH,
  onEpochEnd: TrainingStage.AFTER_EPOCH,
  onTrainEpochEnd: TrainingStage.AFTER_EPOCH,
  onBatchStart: TrainingStage.BEFORE_STEP,
  onBatchBegin: TrainingStage.BEFORE_STEP,
  onTrainBatchStart: TrainingStage.BEFORE_STEP,
  onTrainBatchBegin: TrainingStage.BEFORE_STEP,
  onStepBegin: TrainingStage.BEFORE_STEP,
  onBatchEnd: TrainingStage.AFTER_STEP,
  onTrainBatchEnd: TrainingStage.AFTER_STEP,
  onStepEnd: TrainingStage.AFTER_STEP,
  onAfterBackward: TrainingStage.AFTER_LOSS,
  onPreOptimizerStep: TrainingStage.BEFORE_OPTIMIZER_STEP,
  onOptimizerStep: TrainingStage.AFTER_OPTIMIZER_STEP,
  onValidationStart: TrainingStage.BEFORE_VALIDATION,
  onEvalStart: TrainingStage.BEFORE_VALIDATION,
  onEvalBegin: TrainingStage.BEFORE_VALIDATION,
  onValidationEnd: TrainingStage.AFTER_VALIDATION,
  onEvalEnd: TrainingStage.AFTER_VALIDATION,
  onEvaluate: TrainingStage.AFTER_VALIDATION,
  onSaveCheckpoint: TrainingStage.BEFORE_CHECKPOINT_SAVE,
  onCheckpointSave: TrainingStage.ON_CHECKPOINT_SAVE,
  onSave: TrainingStage.ON_CHECKPOINT_SAVE,
  onCheckpointLoad: TrainingStage.ON_CHECKPOINT_LOAD,
  onLoadCheckpoint: TrainingStage.ON_CHECKPOINT_LOAD,
});

const ONE_PASS = 'hookmd evaluates the whole validation set in one pass, with no validation batches or epochs';
const NO_TEST_LOOP = 'the Trainer has no test or predict loop: after fit(), evaluate trainer.toModel() on your test set';

/**
 * Trainer methods of those libraries that name no stage of hookmd's training loop, with the method to
 * use instead: a hook that has one is UNSUPPORTED_STAGE_METHOD, not a hook that silently never fires.
 *
 * @example
 * TRAINER_METHOD_HINTS.onValidationBatchEnd.use; // 'onValidationEnd'
 */
export const TRAINER_METHOD_HINTS: Readonly<Record<string, MethodHint>> = Object.freeze({
  onValidationBatchStart: { use: 'onValidationStart', why: ONE_PASS },
  onValidationBatchEnd: { use: 'onValidationEnd', why: `${ONE_PASS} (ctx.predictions holds the whole set's)` },
  onValidationEpochStart: { use: 'onValidationStart', why: ONE_PASS },
  onValidationEpochEnd: { use: 'onValidationEnd', why: ONE_PASS },
  onBeforeForward: { use: 'onBatchStart', why: 'the forward pass follows BEFORE_STEP directly' },
  onBeforeBackward: { use: 'onAfterLoss', why: 'the loss and its gradient come from one native pass, and AFTER_LOSS sees both' },
  onBeforeZeroGrad: { use: 'onBeforeOptimizerStep', why: 'no gradients are kept between steps, so none are zeroed' },
  onSubstepEnd: { use: 'onAfterLoss', why: 'there is no gradient accumulation: each mini-batch is one optimizer step' },
  onLog: { use: 'onBatchEnd', why: 'there is no log event: read ctx.metrics and ctx.loss at the step or epoch stages' },
  onSetup: { use: 'onTrainStart', why: 'hooks are registered on a trainer that is already set up: BEFORE_TRAIN is the first stage (nvalchemi\'s SETUP has no counterpart)' },
  onBeforeLoss: { use: 'onAfterForward', why: 'the loss follows the forward pass directly: AFTER_FORWARD is the last stage before it (nvalchemi\'s BEFORE_LOSS)' },
  onInitStart: { use: 'onTrainStart', why: 'hooks are registered on a trainer that is already constructed' },
  onInitEnd: { use: 'onTrainStart', why: 'hooks are registered on a trainer that is already constructed' },
  onSanityCheckStart: { use: 'onTrainStart', why: 'there is no sanity-check pass' },
  onSanityCheckEnd: { use: 'onTrainStart', why: 'there is no sanity-check pass' },
  onTestStart: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestBegin: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestEnd: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestBatchStart: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestBatchBegin: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestBatchEnd: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestEpochStart: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onTestEpochEnd: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictStart: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictBegin: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictEnd: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictBatchStart: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictBatchEnd: { use: 'onTrainEnd', why: NO_TEST_LOOP },
  onPredictionStep: { use: 'onValidationEnd', why: ONE_PASS },
});

/**
 * A TrainingStage from its value or name (`'ON_VALIDATION_END'` too), for options and config files.
 *
 * @example
 * trainingStage('AFTER_EPOCH', 'LoggingHook'); // TrainingStage.AFTER_EPOCH
 */
export function trainingStage(value: unknown, owner: string, field: string = 'stage'): TrainingStage {
  if (typeof value === 'string' && Object.hasOwn(TrainingStage, value)) return TrainingStage[value as keyof typeof TrainingStage];
  throw new HookmdTypeError('INVALID_STAGE', `${owner}: ${field} must be a TrainingStage (${Object.keys(TrainingStage).join(', ')}), got ${showValue(value)}`, {
    field,
    value,
  });
}
