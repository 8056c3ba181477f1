// Other libraries' method names on a method-style hook (issue 28, item 8): each fires at the stage it
// means, or registration fails with UNSUPPORTED_STAGE_METHOD naming the method to write instead, never a
// hook that registers silently and never fires.
import { describe, expect, it } from 'vitest';

import { DynamicsStage } from '../../lib/dynamics/index.js';
import { HookmdTypeError } from '../../lib/errors.js';
import { HookRegistry } from '../../lib/hooks/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { makeTrainer } from './fixtures.js';

const refusal = (register: () => unknown): { code: string; field: unknown; use: unknown; message: string } | 'registered' => {
  try {
    register();
  } catch (error) {
    expect(error).toBeInstanceOf(HookmdTypeError);
    const { code, details, message } = error as HookmdTypeError;
    return { code, field: details.field, use: details.use, message };
  }
  return 'registered';
};

describe('KempnerForge TrainingHook names (tests/unit/test_training_hooks.py, TestAllEvents.test_all_events_dispatch)', () => {
  it('onTrainBegin, onStepEnd, onEvalEnd, onCheckpointSave, onTrainEnd fire at the matching stages, in run order', async () => {
    const events: string[] = [];
    const note = (what: string) => (ctx: TrainingHookContext) => void events.push(`${what}@${ctx.stepCount}`);
    const hook = {
      name: 'AllEvents',
      onTrainBegin: note('train_begin'),
      onStepEnd: note('step_end'),
      onEvalEnd: note('eval_end'),
      onCheckpointSave: note('checkpoint_save'),
      onTrainEnd: note('train_end'),
      onBatchStart: (ctx: TrainingHookContext) => {
        if (ctx.stepCount === 1) ctx.saveCheckpoint(() => '/dev/null');
      },
    };
    const trainer = makeTrainer({ epochs: 1, hooks: [hook] });
    await trainer.fit();
    expect(events).toEqual([
      'train_begin@0', 'step_end@0', 'step_end@1', 'checkpoint_save@1', 'step_end@2', 'step_end@3', 'eval_end@4', 'train_end@4',
    ]);
    expect(trainer.hooks.list()[0].stages).toEqual(['BEFORE_TRAIN', 'BEFORE_STEP', 'AFTER_STEP', 'AFTER_VALIDATION', 'ON_CHECKPOINT_SAVE', 'AFTER_TRAIN']);
  });
});

describe("Lightning Callback and a HookManager's names (Lightning tests/tests_pytorch/models/test_hooks.py; model_training_framework tests/trainer/test_trainer_hooks.py)", () => {
  it('onEpochBegin, onTrainBatchEnd and onAfterBackward fire; onAfterBackward sees the gradients, as after loss.backward()', async () => {
    const events: string[] = [];
    const gradients: Array<Record<string, number> | null> = [];
    const hook = {
      onEpochBegin: (ctx: TrainingHookContext) => void events.push(`epoch_begin@e${ctx.epoch}`),
      onAfterBackward: (ctx: TrainingHookContext) => {
        events.push(`after_backward@${ctx.stepCount}`);
        gradients.push(ctx.gradients === null ? null : { ...(ctx.gradients as Record<string, number>) });
      },
      onTrainBatchEnd: (ctx: TrainingHookContext) => void events.push(`train_batch_end@${ctx.stepCount}`),
    };
    const trainer = makeTrainer({ epochs: 1, batchSize: 6, hooks: [hook] });
    await trainer.fit();
    expect(events).toEqual(['epoch_begin@e0', 'after_backward@0', 'train_batch_end@0', 'after_backward@1', 'train_batch_end@1']);
    for (const g of gradients) {
      expect(g).not.toBeNull();
      expect(Object.keys(g!).sort()).toEqual(['epsilon', 'sigma']);
      expect(Object.values(g!).every(Number.isFinite)).toBe(true);
    }
  });

  it('a method with no stage of its own (onValidationBatchEnd) is refused, naming what to write', () => {
    const trainer = makeTrainer({ epochs: 1 });
    const refused = refusal(() => trainer.register({ onValidationBatchEnd: () => {} }));
    expect(refused).toMatchObject({ code: 'UNSUPPORTED_STAGE_METHOD', field: 'onValidationBatchEnd', use: 'onValidationEnd' });
    expect(refusal(() => trainer.register({ onTestEnd: () => {} }))).toMatchObject({ use: 'onTrainEnd' });
    expect(trainer.hooks.list()).toEqual([]);
  });

  it('Python spellings (on_step_end, on_validation_batch_end) are refused with the camelCase method to write', () => {
    const trainer = makeTrainer({ epochs: 1 });
    const snake = refusal(() => trainer.register({ on_step_end: () => {} }));
    expect(snake).toMatchObject({ code: 'UNSUPPORTED_STAGE_METHOD', field: 'on_step_end', use: 'onStepEnd' });
    expect(snake !== 'registered' && snake.message).toContain('write onStepEnd');
    expect(refusal(() => trainer.register({ on_validation_batch_end: () => {} }))).toMatchObject({ use: 'onValidationEnd' });
    expect(refusal(() => trainer.register({ on_epoch_ends: () => {} }))).toMatchObject({ use: 'onEpochEnd' });
  });

  it('an engine refuses Python spellings too, and a camelCase name of another workflow still registers', () => {
    const registry = new HookRegistry(DynamicsStage);
    expect(refusal(() => registry.register({ on_after_step: () => {} }))).toMatchObject({ code: 'UNSUPPORTED_STAGE_METHOD', use: 'onAfterStep' });
    // One object may serve an engine and a trainer: its trainer methods do not stop it registering here.
    const shared = { onAfterStep: () => {}, onEpochEnd: () => {} };
    registry.register(shared);
    expect(registry.list()[0].stages).toEqual(['AFTER_STEP']);
  });
});
