// Trainer run control as the trainers hookmd's training API follows have it (issue 28, item 7): ctx.model,
// ctx.lr a number and ctx.lrs per group, validateEvery { steps }, and AFTER_TRAIN in a finally with ctx.error.
import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { HookError } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { TrainingStage } from '../../lib/training/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { data, makeTrainer, removeTempDirs } from './fixtures.js';

afterAll(removeTempDirs);

describe('the step context (KempnerForge tests/unit/test_training_hooks.py, TestStepContext.test_ctx_fields)', () => {
  it('ctx.lr is the learning rate as a number, ctx.lrs holds each group, and both follow the scheduler', async () => {
    const seen: Array<{ epoch: number; lr: unknown; lrs: Record<string, number> }> = [];
    const trainer = makeTrainer({
      epochs: 3,
      hooks: [{ name: 'lr', onEpochEnd: (ctx: TrainingHookContext) => void seen.push({ epoch: ctx.epoch, lr: ctx.lr, lrs: { ...ctx.lrs } }) }],
    });
    const history = await trainer.fit();
    expect(seen.map((row) => typeof row.lr)).toEqual(['number', 'number', 'number']);
    // The cosine schedule lowers the rate each epoch: the hook sees what the epoch trained with.
    expect(seen.map((row) => row.lr)).toEqual(history.epochs.map((epoch) => epoch.lr));
    expect(new Set(seen.map((row) => row.lr)).size).toBe(3);
    for (const row of seen) expect(row.lrs).toEqual({ default: row.lr });
  });

  it('ctx.model is the model with the parameters of the moment, one object per parameter set', async () => {
    const system = data().train[0];
    const energyAt = (model: LennardJones): number => {
      const batch = Batch.fromSystems([system]);
      model.compute(batch, { forces: false });
      return batch.energy[0];
    };
    const checks: Array<{ energy: number; expected: number; same: boolean }> = [];
    const trainer = makeTrainer({
      epochs: 1,
      hooks: [{
        name: 'model',
        onAfterOptimizerStep: (ctx: TrainingHookContext) => {
          const model = ctx.model;
          expect(model).toBeInstanceOf(LennardJones);
          const { epsilon, sigma } = ctx.parameters as Record<string, number>;
          const expected = new LennardJones({ epsilon, sigma, cutoff: 8.5, shift: true });
          checks.push({ energy: energyAt(model as LennardJones), expected: energyAt(expected), same: ctx.model === model });
        },
      }],
    });
    await trainer.fit();
    expect(checks.length).toBe(4);
    for (const check of checks) {
      expect(check.same).toBe(true);
      expect(check.energy).toBe(check.expected);
    }
    // Each step's update gives a new model: the energies differ from step to step.
    expect(new Set(checks.map((check) => check.energy)).size).toBe(4);
  });
});

describe('validateEvery: { steps } (Lightning tests/tests_pytorch/trainer/flags/test_val_check_interval.py, val_check_interval as an int)', () => {
  const validations = async (steps: number | undefined): Promise<{ at: number[]; parameters: unknown; losses: number[] }> => {
    const at: number[] = [];
    const losses: number[] = [];
    const trainer = makeTrainer({
      epochs: 2,
      ...(steps === undefined ? {} : { validateEvery: { steps } }),
      hooks: [{
        name: 'val',
        onValidationEnd: (ctx: TrainingHookContext) => {
          at.push(ctx.stepCount);
          losses.push(ctx.validationMetrics!.val_loss);
        },
      }],
    });
    const history = await trainer.fit();
    return { at, parameters: history.parameters, losses };
  };

  it('validates after every n-th optimizer step and at each epoch end, once when both fall together', async () => {
    // 11 systems in batches of 3: 4 optimizer steps an epoch, 8 in two epochs.
    const plain = await validations(undefined);
    expect(plain.at).toEqual([4, 8]);
    const every2 = await validations(2);
    expect(every2.at).toEqual([2, 4, 6, 8]);
    const every3 = await validations(3);
    expect(every3.at).toEqual([3, 4, 6, 8]);
    // Each validation sees the parameters of its moment, and validating changes nothing in the fit.
    expect(new Set(every2.losses).size).toBe(4);
    expect(every2.parameters).toEqual(plain.parameters);
    expect([every2.losses[1], every2.losses[3]]).toEqual(plain.losses);
  });

  it('refuses a bad interval, an unknown key and a missing validation set, naming the field', () => {
    const codeOf = (options: object): unknown => {
      try {
        makeTrainer(options);
      } catch (error) {
        return [(error as { code: string }).code, (error as { details: { field: string } }).details.field];
      }
      return 'accepted';
    };
    expect(codeOf({ validateEvery: { steps: 0 } })).toEqual(['INVALID_OPTIONS', 'validateEvery.steps']);
    expect(codeOf({ validateEvery: { steps: 1.5 } })).toEqual(['INVALID_OPTIONS', 'validateEvery.steps']);
    expect(codeOf({ validateEvery: { step: 2 } })).toEqual(['UNKNOWN_OPTION', 'validateEvery.step']);
    expect(codeOf({ validateEvery: { steps: 2 }, validation: undefined })).toEqual(['INVALID_OPTIONS', 'validateEvery']);
  });
});

describe('AFTER_TRAIN in a finally (model_training_framework fires on_train_end in a finally; KempnerForge TestAllEvents ends every run with on_train_end)', () => {
  it('fires once after a failure, after every onException and before close, with ctx.error; the error propagates', async () => {
    const events: string[] = [];
    let error: unknown = 'unset';
    const failing = {
      name: 'failing',
      onBatchEnd: (ctx: TrainingHookContext) => {
        if (ctx.stepCount === 1) throw new Error('boom');
      },
    };
    const tracker = {
      name: 'tracker',
      onException: () => void events.push('onException'),
      onTrainEnd: (ctx: TrainingHookContext) => {
        events.push(`onTrainEnd@${ctx.stepCount}`);
        error = ctx.error;
      },
      close: () => void events.push('close'),
    };
    const trainer = makeTrainer({ epochs: 1, hooks: [failing, tracker] });
    const thrown = await trainer.fit().then(() => null, (e: unknown) => e);
    expect(thrown).toBeInstanceOf(HookError);
    expect((thrown as HookError).hookName).toBe('failing');
    expect(events).toEqual(['onException', 'onTrainEnd@1', 'close']);
    expect(error).toBe(thrown);
  });

  it('keeps ctx.error null in a run that ends well, and a failing AFTER_TRAIN after a failure is logged, not thrown over the cause', async () => {
    let error: unknown = 'unset';
    const ok = makeTrainer({ epochs: 1, hooks: [{ name: 'end', onTrainEnd: (ctx: TrainingHookContext) => void (error = ctx.error) }] });
    await ok.fit();
    expect(error).toBeNull();

    const warnings: string[] = [];
    const trainer = makeTrainer({
      epochs: 1,
      logger: { warn: (message) => void warnings.push(message), info: () => {} },
      hooks: [
        { name: 'failing', stage: TrainingStage.AFTER_STEP, frequency: 1, call: () => { throw new Error('first'); } },
        { name: 'end', onTrainEnd: () => { throw new Error('second'); } },
      ],
    });
    const thrown = await trainer.fit().then(() => null, (e: unknown) => e);
    expect((thrown as HookError).hookName).toBe('failing');
    expect(warnings.some((message) => message.includes('failed run'))).toBe(true);
  });
});
