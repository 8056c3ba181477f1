// TrainingCallback: a base class with a no-op method per training stage, for TypeScript users who write
// hooks the way Lightning's Callback or Hugging Face's TrainerCallback are written. It is only a typing
// aid: any object with such methods is a hook (docs/hooks.md, "Method-style hooks"). The no-ops are
// marked, so a subclass fires only at the stages it overrides.
import { HookmdTypeError } from '../errors.js';
import { markNoopMethods, type ErrorPolicy, type Trigger } from '../hooks/index.js';
import type { TrainingHookContext } from './context.js';
import type { TrainingStage } from './stage.js';

type Result = void | Promise<void>;

/**
 * Extend it and override the stages you need; register the instance with `trainer.register` or
 * `hooks: [...]`. `frequency`, `trigger`, `order`, `name`, `errorPolicy`, `stateDict` and
 * `loadStateDict` work as on any hook; `super('my_custom_hook')` names the hook.
 *
 * @example
 * class PrintLoss extends TrainingCallback {
 *   override onEpochEnd(ctx: TrainingHookContext): void {
 *     console.log(ctx.epoch, ctx.metrics.train_loss);
 *   }
 * }
 * new Trainer({ model, train, epochs: 10, hooks: [new PrintLoss()] });
 */
export class TrainingCallback {
  frequency?: number;
  trigger?: Trigger;
  order?: number;
  name?: string;
  errorPolicy?: ErrorPolicy;

  /**
   * `name` names the hook (`super('my_custom_hook')`, as seed 003 and upstream's callbacks name theirs):
   * the name `registry.list()`, errors and checkpoints show; without it, the class name.
   */
  constructor(name?: string) {
    if (name !== undefined) {
      if (typeof name !== 'string' || name === '') {
        throw new HookmdTypeError('INVALID_OPTIONS', `${new.target.name}: the name given to TrainingCallback must be a non-empty string, got ${typeof name === 'string' ? '""' : typeof name}`, { field: 'name', value: name });
      }
      this.name = name;
    }
  }

  /** At BEFORE_TRAIN. */
  onTrainStart(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_TRAIN. */
  onTrainEnd(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At BEFORE_EPOCH. */
  onEpochStart(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_EPOCH. */
  onEpochEnd(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At BEFORE_STEP (one mini-batch). */
  onBatchStart(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_STEP. */
  onBatchEnd(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_FORWARD. */
  onAfterForward(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_LOSS. */
  onAfterLoss(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At BEFORE_OPTIMIZER_STEP (ctx.gradients is writable). */
  onBeforeOptimizerStep(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At ON_GRADIENT_CLIP (ctx.gradientClip). */
  onGradientClip(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At AFTER_OPTIMIZER_STEP. */
  onAfterOptimizerStep(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At ON_VALIDATION_START (BEFORE_VALIDATION). */
  onValidationStart(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At ON_VALIDATION_END (AFTER_VALIDATION; ctx.validationMetrics). */
  onValidationEnd(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At BEFORE_CHECKPOINT_SAVE (ctx.checkpoint, whose `extra` hooks may fill). */
  onBeforeCheckpointSave(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At ON_CHECKPOINT_SAVE, once per file written (ctx.savedCheckpoint). */
  onCheckpointSave(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** At ON_CHECKPOINT_LOAD, when fit() resumed (ctx.loadedCheckpoint). */
  onCheckpointLoad(_ctx: TrainingHookContext, _stage: TrainingStage): Result {}
  /** When the run fails, before the hooks close (the lifecycle method of every hook). */
  onException(_error: unknown, _ctx: TrainingHookContext | undefined): Result {}
}

markNoopMethods(TrainingCallback.prototype);
