// Training hooks as trainer users write them (issue 16): method-style hooks and TrainingCallback, tiers,
// names, module-path hook types, error policies, checkpoint / validation / gradient-clip events, filename
// templates, EarlyStopping's strict and verbose, console logging, and the step context fields.
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import type { HookLogger } from '../../lib/hooks/index.js';
import {
  CheckpointHook,
  ConsoleLoggingHook,
  EarlyStoppingHook,
  FilenameTemplate,
  GradientClipHook,
  TrainingCallback,
  TrainingLoggingHook,
  TrainingStage,
  Trainer,
  checkpointFilename,
  decodeCheckpoint,
} from '../../lib/training/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { data, makeTrainer, removeTempDirs, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

const quiet = (): HookLogger & { warnings: string[]; infos: string[] } => {
  const warnings: string[] = [];
  const infos: string[] = [];
  return { warnings, infos, warn: (m) => void warnings.push(m), info: (m) => void infos.push(m) };
};

describe('1. method-style hooks', () => {
  it('fire at exactly the stages named by trainer aliases and by the generic on + camelCase names', async () => {
    const seen: string[] = [];
    const note = (what: string) => (ctx: TrainingHookContext) => void seen.push(`${what}@${ctx.stepCount}/e${ctx.epoch}`);
    const hook = {
      name: 'Lightning',
      onTrainStart: note('trainStart'),
      onEpochStart: note('epochStart'),
      onBatchEnd: note('batchEnd'),
      onAfterLoss: note('afterLoss'),
      onValidationEnd: note('validationEnd'),
      onEpochEnd: note('epochEnd'),
      onTrainEnd: note('trainEnd'),
    };
    const trainer = makeTrainer({ train: data().train.slice(0, 4), batchSize: 2, epochs: 1, hooks: [hook] });
    await trainer.fit();
    expect(seen).toEqual([
      'trainStart@0/e0', 'epochStart@0/e0', 'afterLoss@0/e0', 'batchEnd@0/e0', 'afterLoss@1/e0', 'batchEnd@1/e0',
      'validationEnd@2/e0', 'epochEnd@2/e0', 'trainEnd@2/e1',
    ]);
    expect(trainer.hooks.list()[0]).toMatchObject({
      name: 'Lightning', type: 'MethodHook', tier: 'user',
      stages: ['BEFORE_TRAIN', 'BEFORE_EPOCH', 'AFTER_LOSS', 'AFTER_STEP', 'AFTER_VALIDATION', 'AFTER_EPOCH', 'AFTER_TRAIN'],
    });
  });

  it('TrainingCallback: a subclass fires only where it overrides; frequency, order, name, errorPolicy and stateDict work', async () => {
    class CountSteps extends TrainingCallback {
      override name = 'CountSteps';
      override frequency = 2;
      steps: number[] = [];
      override onBatchEnd(ctx: TrainingHookContext): void {
        this.steps.push(ctx.stepCount);
      }
      stateDict(): unknown {
        return { steps: [...this.steps] };
      }
      loadStateDict(state: unknown): void {
        this.steps = [...(state as { steps: number[] }).steps];
      }
    }
    class Flaky extends TrainingCallback {
      override errorPolicy = 'warn' as const;
      override order = -1;
      override onEpochEnd(): void {
        throw new Error('flaky');
      }
    }
    const counter = new CountSteps();
    const logger = quiet();
    const trainer = makeTrainer({ epochs: 2, hooks: [counter, new Flaky()], logger });
    await trainer.fit();
    expect(counter.steps).toEqual([0, 2, 4, 6]);
    expect(trainer.hooks.list().map((row) => [row.name, row.stages, row.trigger, row.order])).toEqual([
      ['Flaky', ['AFTER_EPOCH'], 'every(1)', -1],
      ['CountSteps', ['AFTER_STEP'], 'every(2)', 0],
    ]);
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings[0]).toMatch(/hook 'Flaky' failed at stage AFTER_EPOCH.*flaky.*run goes on/);
    expect(trainer.checkpoint().hooks).toEqual({ CountSteps: { steps: [0, 2, 4, 6] } });
  });
});

describe('2. tiers', () => {
  it('a user hook registered after the built-ins runs first', async () => {
    // EarlyStopping monitors a metric that only the user hook writes: were the built-in first, the fit
    // would fail with METRIC_NOT_FOUND at the first epoch.
    const trainer = makeTrainer({ epochs: 2, hooks: [new EarlyStoppingHook({ monitor: 'user_score', patience: 5 })] });
    trainer.register({ stage: TrainingStage.AFTER_EPOCH, frequency: 1, name: 'Scorer', call: (ctx) => {
      ctx.metrics.user_score = ctx.metrics.val_loss;
    } });
    const history = await trainer.fit();
    expect(history.epochs).toHaveLength(2);
    expect(trainer.hooks.list().map((row) => [row.name, row.tier])).toEqual([['Scorer', 'user'], ['EarlyStoppingHook', 'builtin']]);
  });

  it('built-ins accept order within their tier', () => {
    const trainer = makeTrainer({
      hooks: [new EarlyStoppingHook({ order: 2 }), new CheckpointHook({ dirpath: tempDir('order'), order: 1 })],
    });
    expect(trainer.hooks.list().map((row) => [row.name, row.order])).toEqual([['CheckpointHook', 1], ['EarlyStoppingHook', 2]]);
  });
});

describe('3. names', () => {
  it("remove('EarlyStopping') works from a config-built trainer; duplicates are listed with #2", async () => {
    const { train, validation } = data();
    const trainer = Trainer.fromConfig({
      model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
      train, validation, epochs: 2, batchSize: 4, seed: 1,
      hooks: [
        { type: 'EarlyStoppingHook', monitor: 'val_loss', stoppingThreshold: 1e9 },
        { type: 'LearningRateMonitorHook' },
        { type: 'LearningRateMonitorHook', interval: 'step' },
      ],
    });
    expect(trainer.hooks.list().map((row) => [row.name, row.type, row.tier])).toEqual([
      ['EarlyStoppingHook', 'EarlyStoppingHook', 'builtin'],
      ['LearningRateMonitorHook', 'LearningRateMonitorHook', 'builtin'],
      ['LearningRateMonitorHook#2', 'LearningRateMonitorHook', 'builtin'],
    ]);
    trainer.hooks.remove('EarlyStopping');
    trainer.hooks.disable('LearningRateMonitorHook#2');
    // With EarlyStopping still there, the threshold would stop the run after the first epoch.
    const history = await trainer.fit();
    expect([history.epochs.length, history.stopped]).toEqual([2, undefined]);
    expect(trainer.hooks.get('LearningRateMonitorHook#2')?.enabled).toBe(false);
    expect(() => trainer.hooks.remove('EarlyStopping')).toThrow(expect.objectContaining({ code: 'UNKNOWN_HOOK_NAME' }));
  });
});

describe('4. plugins by module path', () => {
  it('Trainer.fromConfig loads a hook type from a module next to the config file', async () => {
    const dir = tempDir('module-hooks');
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'lib', 'my-hooks.js'), [
      'import { appendFileSync } from "node:fs";',
      'export class EpochMarker {',
      '  constructor(args) { this.file = args.file; this.name = "EpochMarker"; }',
      '  onEpochEnd(ctx) { appendFileSync(this.file, `epoch ${ctx.epoch}\\n`); }',
      '}',
      '',
    ].join('\n'));
    const { train } = data();
    const marks = join(dir, 'marks.txt');
    writeFileSync(join(dir, 'fit.json'), JSON.stringify({
      model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
      train, epochs: 2, batchSize: 6,
      hooks: [{ type: './lib/my-hooks.js#EpochMarker', file: marks, errorPolicy: 'warn' }],
    }));
    const trainer = Trainer.fromConfig(join(dir, 'fit.json'));
    expect(trainer.hooks.list().map((row) => [row.name, row.type, row.stages])).toEqual([['EpochMarker', 'EpochMarker', ['AFTER_EPOCH']]]);
    await trainer.fit();
    expect(readFileSync(marks, 'utf8')).toBe('epoch 0\nepoch 1\n');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5 }, train, epochs: 1, hooks: [{ type: './nope.js#X' }] }));
    expect(() => Trainer.fromConfig(join(dir, 'bad.json'))).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
  });
});

describe('5. error policies', () => {
  it("an 'ignore' hook that throws changes nothing", async () => {
    const run = async (withBad: boolean): Promise<unknown> => {
      const logger = quiet();
      const bad = { name: 'Bad', errorPolicy: 'ignore' as const, onBatchEnd: () => {
        throw new Error('ignored');
      }, onEpochEnd: async () => {
        throw new Error('ignored too');
      } };
      const trainer = makeTrainer({ epochs: 2, logger, hooks: withBad ? [bad] : [] });
      const history = await trainer.fit();
      return { epochs: history.epochs, parameters: history.parameters, stepCount: history.stepCount, warnings: logger.warnings };
    };
    const clean = await run(false);
    expect(await run(true)).toEqual(clean);
  });

  it('built-ins take errorPolicy, from code and from config; warnings go to the trainer logger', async () => {
    const logger = quiet();
    const { train } = data();
    // No validation set: val_loss is missing, which EarlyStopping reports as a failure of the hook.
    const trainer = Trainer.fromConfig({
      model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
      train, epochs: 2, batchSize: 6, hooks: [{ type: 'EarlyStoppingHook', errorPolicy: 'warn' }],
    }, { logger });
    await trainer.fit();
    expect(logger.warnings).toHaveLength(2);
    expect(logger.warnings[0]).toMatch(/EarlyStoppingHook.*metric 'val_loss' is not available/);
    const disabled = makeTrainer({ validation: undefined, epochs: 2, logger, hooks: [new EarlyStoppingHook({ errorPolicy: 'disable' })] });
    await disabled.fit();
    expect(disabled.hooks.size).toBe(0);
    expect(() => new EarlyStoppingHook({ errorPolicy: 'maybe' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('6. checkpoint events', () => {
  it('ON_CHECKPOINT_SAVE fires after the file is durable, with its path and metrics: an upload-after-save hook works', async () => {
    const dir = tempDir('upload');
    const uploads = join(dir, 'bucket');
    mkdirSync(uploads);
    const saved: Array<{ path: string; epoch: number; valLoss: number }> = [];
    const uploader = {
      name: 'Uploader',
      onCheckpointSave: (ctx: TrainingHookContext) => {
        const { path, metrics, epoch } = ctx.savedCheckpoint!;
        // The file is complete: it decodes, and holds the epoch the event names.
        expect(decodeCheckpoint(readFileSync(path, 'utf8')).epoch).toBe(epoch);
        copyFileSync(path, join(uploads, basename(path)));
        saved.push({ path: basename(path), epoch, valLoss: metrics.val_loss });
      },
    };
    const trainer = makeTrainer({ epochs: 2, hooks: [uploader, new CheckpointHook({ dirpath: join(dir, 'ckpt'), saveLast: true, saveTopK: -1 })] });
    const history = await trainer.fit();
    expect(saved.map((s) => [s.path, s.epoch])).toEqual([
      ['epoch=0-step=4.json', 1], ['last.json', 1], ['epoch=1-step=8.json', 2], ['last.json', 2],
    ]);
    expect(saved[2].valLoss).toBe(history.epochs[1].metrics.val_loss);
    expect(existsSync(join(uploads, 'epoch=1-step=8.json'))).toBe(true);
  });

  it('ON_CHECKPOINT_LOAD fires on resume with the path and the loaded state', async () => {
    const dir = tempDir('load');
    const first = makeTrainer({ epochs: 1, hooks: [new CheckpointHook({ dirpath: dir, saveLast: true })] });
    await first.fit();
    const loads: Array<[string | null, number]> = [];
    const watcher = { onCheckpointLoad: (ctx: TrainingHookContext) => void loads.push([ctx.loadedCheckpoint!.path, ctx.loadedCheckpoint!.checkpoint.epoch]) };
    const second = makeTrainer({ epochs: 2, hooks: [watcher] });
    await second.fit({ resumeFrom: join(dir, 'last.json') });
    await makeTrainer({ epochs: 2, hooks: [watcher] }).fit({ resumeFrom: first.checkpoint() });
    expect(loads).toEqual([[join(dir, 'last.json'), 1], [null, 1]]);
  });
});

describe('7. validation and gradient-clip events', () => {
  it('ON_VALIDATION_START / ON_VALIDATION_END carry the validation metrics; ON_GRADIENT_CLIP the norms before and after', async () => {
    const events: string[] = [];
    const clips: Array<{ before: number; after: number; by: string }> = [];
    const hook = {
      onValidationStart: (ctx: TrainingHookContext) => void events.push(`start:${ctx.validationMetrics === null}`),
      onValidationEnd: (ctx: TrainingHookContext) => void events.push(`end:${Object.keys(ctx.validationMetrics!).sort().join(',')}`),
      onGradientClip: (ctx: TrainingHookContext) => void clips.push({ before: ctx.gradientClip!.normBefore, after: ctx.gradientClip!.normAfter, by: ctx.gradientClip!.by }),
    };
    const trainer = makeTrainer({ epochs: 1, hooks: [hook, new GradientClipHook({ maxNorm: 1e-9 })] });
    await trainer.fit();
    expect(events).toEqual(['start:true', 'end:val_energy_mae,val_energy_rmse,val_forces_mae,val_forces_rmse,val_loss,val_stress_mae,val_stress_rmse']);
    expect(clips).toHaveLength(4);
    for (const clip of clips) {
      expect(clip.before).toBeGreaterThan(1e-6);
      expect(clip.after).toBeCloseTo(1e-9, 12);
      expect(clip.by).toBe('GradientClipHook');
    }
  });
});

describe('8. checkpoint filename templates', () => {
  it('"epoch_{epoch}_loss_{val/loss:.2f}" gives epoch_3_loss_0.12', () => {
    expect(checkpointFilename('epoch_{epoch}_loss_{val/loss:.2f}', { epoch: 3, val_loss: 0.1234 }, 'CheckpointHook')).toBe('epoch_3_loss_0.12');
    const template = new FilenameTemplate('epoch_{epoch}_loss_{val/loss:.2f}', 'CheckpointHook');
    expect(template.format({ epoch: 3, 'val/loss': 0.1234 })).toBe('epoch_3_loss_0.12');
  });

  it('takes :.3e and :04d, autoInsertMetricName, and writes / as _', () => {
    const values = { epoch: 7, step: 42, lr: 0.000123456, val_loss: 0.5 };
    expect(new FilenameTemplate('{epoch:04d}-{lr:.3e}', 'x').format(values)).toBe('0007-1.235e-04');
    expect(new FilenameTemplate('{epoch}-{val/loss:.1f}', 'x', { autoInsertMetricName: true }).format(values)).toBe('epoch=7-val_loss=0.5');
  });

  it('an unknown key is a typed error at construction, never at save time', async () => {
    expect(() => new CheckpointHook({ filename: 'e{epoch}-{val_los:.2f}' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_TEMPLATE_KEY' }));
    expect(() => new CheckpointHook({ filename: 'e{epoch:.2q}' })).toThrow(expect.objectContaining({ code: 'INVALID_FILENAME_TEMPLATE' }));
    // A declared metric no hook wrote: the save still succeeds, the field reads 'nan'.
    const dir = tempDir('template');
    const keep = new CheckpointHook({ dirpath: dir, filename: 'e{epoch}-{my/score:.2f}', metrics: ['my/score'] });
    await makeTrainer({ epochs: 1, hooks: [keep] }).fit();
    expect(basename(keep.bestModelPath!)).toBe('e0-nan.json');
  });

  it("metrics named 'val/loss' work as monitors", async () => {
    const dir = tempDir('slash');
    const scorer = { onEpochEnd: (ctx: TrainingHookContext) => void (ctx.metrics['val/score'] = 10 - ctx.epoch) };
    const keep = new CheckpointHook({ dirpath: dir, monitor: 'val/score', filename: 'e{epoch}-{val/score:.1f}', metrics: ['val/score'] });
    await makeTrainer({ epochs: 2, hooks: [scorer, keep] }).fit();
    expect(basename(keep.bestModelPath!)).toBe('e1-9.0.json');
  });
});

describe('9. early stopping strict and verbose', () => {
  it('strict: false tolerates a missing metric with a warning; verbose reports improvements and the stop', async () => {
    const logger = quiet();
    const lenient = new EarlyStoppingHook({ monitor: 'absent', strict: false });
    await makeTrainer({ epochs: 2, logger, hooks: [lenient] }).fit();
    expect(logger.warnings).toEqual([
      "EarlyStoppingHook: metric 'absent' is not available at epoch 0; skipping the check (strict: false)",
      "EarlyStoppingHook: metric 'absent' is not available at epoch 1; skipping the check (strict: false)",
    ]);
    await expect(makeTrainer({ epochs: 1, logger, hooks: [new EarlyStoppingHook({ monitor: 'absent' })] }).fit())
      .rejects.toMatchObject({ cause: expect.objectContaining({ code: 'METRIC_NOT_FOUND' }) });
    const chatty = quiet();
    // No later epoch can beat the first by 1e9: the second check stops the run (patience 1).
    const history = await makeTrainer({ epochs: 3, logger: chatty, hooks: [new EarlyStoppingHook({ patience: 1, minDelta: 1e9, verbose: true })] }).fit();
    expect(history.stopped?.by).toBe('EarlyStoppingHook');
    expect(chatty.infos).toHaveLength(2);
    expect(chatty.infos[0]).toMatch(/^EarlyStoppingHook: val_loss improved to .* at epoch 0$/);
    expect(chatty.infos[1]).toMatch(/^EarlyStoppingHook: stopping at epoch 1: val_loss did not improve in the last 1 checks/);
  });
});

describe('10. console logging without code', () => {
  it('ConsoleLoggingHook (and TrainingLoggingHook without a path) print the metadata and one line per epoch', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const { train, validation } = data();
      const trainer = Trainer.fromConfig({
        model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
        train, validation, epochs: 2, batchSize: 6, hooks: [{ type: 'ConsoleLoggingHook' }],
      });
      const history = await trainer.fit();
      expect(lines).toHaveLength(3);
      expect(lines[0]).toBe(`run ${history.metadata.runId} · commit ${history.metadata.gitCommit} · config ${history.metadata.configHash.slice(0, 12)} · hooks: ConsoleLoggingHook`);
      expect(lines[1]).toMatch(/^epoch 0 · step 2 · lr 0\.01 · loss .* · train_loss .* · val_loss /);
      lines.length = 0;
      await makeTrainer({ epochs: 1, hooks: [new TrainingLoggingHook()] }).fit();
      expect(lines).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
    expect(() => new ConsoleLoggingHook({ path: 'x.csv' } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION' }));
  });
});

describe('11. step context fields', () => {
  it('gradNorm on every step (lazily), samplesSeen and atomsSeen, lrs per parameter group', async () => {
    const rows: Array<{ gradNorm: number; expected: number; samples: number; atoms: number; lr: Record<string, number> }> = [];
    const probe = {
      onAfterLoss: () => {},
      onBeforeOptimizerStep: (ctx: TrainingHookContext) => {
        const expected = Math.hypot(...(Object.values(ctx.gradients) as number[]));
        rows.push({ gradNorm: ctx.gradNorm, expected, samples: ctx.samplesSeen, atoms: ctx.atomsSeen, lr: { ...ctx.lrs } });
      },
    };
    const { train } = data();
    const trainer = makeTrainer({ epochs: 2, hooks: [probe] });
    const history = await trainer.fit();
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(row.gradNorm).toBeCloseTo(row.expected, 12);
    const atomsPerEpoch = train.reduce((sum, s) => sum + s.positions.length, 0);
    expect(rows.at(-1)!.samples).toBe(2 * train.length);
    expect(trainer.checkpoint()).toMatchObject({ samplesSeen: 2 * train.length, atomsSeen: 2 * atomsPerEpoch });
    expect(rows[0].lr).toEqual({ default: 0.05 });
    expect(rows[4].lr).toEqual({ default: history.epochs[1].lr });
  });

  it('samplesSeen and atomsSeen survive a resume, and are derived for checkpoints written without them', async () => {
    const whole = makeTrainer({ epochs: 2 });
    await whole.fit();
    const dir = tempDir('seen');
    const half = makeTrainer({ epochs: 2, hooks: [new CheckpointHook({ dirpath: dir, everyNSteps: 6, saveLast: true })] });
    half.register({ stage: TrainingStage.AFTER_STEP, frequency: 1, call: (ctx) => {
      if (ctx.stepCount === 5) ctx.requestStop('half way');
    } });
    await half.fit();
    const saved = JSON.parse(readFileSync(join(dir, 'last.json'), 'utf8')) as Record<string, unknown>;
    expect(saved.samplesSeen).toBeGreaterThan(0);
    for (const checkpoint of [saved, { ...saved, samplesSeen: undefined, atomsSeen: undefined }]) {
      const resumed = makeTrainer({ epochs: 2 });
      await resumed.fit({ resumeFrom: decodeCheckpoint(JSON.stringify(checkpoint)) });
      expect([resumed.checkpoint().samplesSeen, resumed.checkpoint().atomsSeen]).toEqual([whole.checkpoint().samplesSeen, whole.checkpoint().atomsSeen]);
    }
  });

  it('gradNorm is computed only when read: an accessor on the context', async () => {
    let descriptor: PropertyDescriptor | undefined;
    await makeTrainer({ epochs: 1, hooks: [{ onTrainStart: (ctx: TrainingHookContext) => void (descriptor = Object.getOwnPropertyDescriptor(ctx, 'gradNorm')) }] }).fit();
    expect(typeof descriptor?.get).toBe('function');
    expect('value' in (descriptor ?? {})).toBe(false);
  });

  it('trainer.trainingStep(batch) drives the same steps as fit(), for a user loop', async () => {
    const fitted = makeTrainer({ epochs: 1, shuffle: false, lrScheduler: null });
    await fitted.fit();
    const seen: number[] = [];
    const own = makeTrainer({ epochs: 1, shuffle: false, lrScheduler: null, hooks: [{ onBatchEnd: (ctx: TrainingHookContext) => void seen.push(ctx.stepCount) }] });
    const results = [];
    for (const batch of [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10]]) results.push(await own.trainingStep(batch));
    expect(own.parameters).toEqual(fitted.parameters);
    expect([own.stepCount, seen, results.at(-1)!.stepCount]).toEqual([4, [0, 1, 2, 3], 4]);
    expect(results[0].gradNorm).toBeGreaterThan(0);
    await expect(own.trainingStep([11])).rejects.toMatchObject({ code: 'INVALID_BATCH' });
    await expect(own.trainingStep([])).rejects.toMatchObject({ code: 'INVALID_BATCH' });
  });
});
