// CheckpointHook's top-k bookkeeping, and resuming from its JSON checkpoints: at an epoch boundary and
// mid-epoch after a crash, the resumed fit must match the uninterrupted one bit for bit.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  CheckpointHook,
  EarlyStoppingHook,
  TrainingLoggingHook,
  TrainingStage,
  checkpointFilename,
  decodeCheckpoint,
  encodeCheckpoint,
  modelFromSpec,
  readCheckpoint,
} from '../../lib/training/index.js';
import type { TrainingHook, TrainingHookContext, TrainingHistory } from '../../lib/training/index.js';
import { makeTrainer, removeTempDirs, scriptedMetric, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

function bits(values: Readonly<Record<string, number>>): string[] {
  return Object.values(values).map((v) => Buffer.from(Float64Array.of(v).buffer).toString('hex'));
}

describe('CheckpointHook bookkeeping', () => {
  it('keeps the k best checkpoints by the monitored metric, deleting those that drop out', async () => {
    const dir = tempDir('topk');
    const keep = new CheckpointHook({ dirpath: dir, monitor: 'score', saveTopK: 2, saveLast: true, filename: 'e{epoch:02d}-{score:.1f}', metrics: ['score'] });
    const seen: string[][] = [];
    const watch: TrainingHook = {
      // In the built-in tier with a higher order: it reads what the CheckpointHook just decided.
      name: 'Watch', stage: TrainingStage.AFTER_EPOCH, frequency: 1, tier: 'builtin', order: 1,
      call: () => void seen.push(keep.kept.map((k) => k.path.slice(dir.length + 1))),
    };
    await makeTrainer({ validation: undefined, epochs: 6, hooks: [scriptedMetric('score', [5, 3, 4, 1, 2, 6]), keep, watch] }).fit();
    expect(seen).toEqual([
      ['e00-5.0.json'],
      ['e01-3.0.json', 'e00-5.0.json'],
      ['e01-3.0.json', 'e02-4.0.json'],
      ['e03-1.0.json', 'e01-3.0.json'],
      ['e03-1.0.json', 'e04-2.0.json'],
      ['e03-1.0.json', 'e04-2.0.json'],
    ]);
    expect(readdirSync(dir).sort()).toEqual(['e03-1.0.json', 'e04-2.0.json', 'last.json']);
    expect(keep.bestModelPath).toBe(join(dir, 'e03-1.0.json'));
    expect(keep.bestModelScore).toBe(1);
    // Each file records the bookkeeping as it stood once that file existed.
    const best = readCheckpoint(join(dir, 'e03-1.0.json'));
    expect(best.epoch).toBe(4);
    expect(best.metrics.score).toBe(1);
    const [, state] = Object.entries(best.hooks).find(([key]) => key.startsWith('CheckpointHook'))!;
    expect((state as { kept: Array<{ path: string }> }).kept.map((k) => k.path)).toEqual([
      join(dir, 'e03-1.0.json'),
      join(dir, 'e01-3.0.json'),
    ]);
    const last = readCheckpoint(join(dir, 'last.json'));
    expect(last.epoch).toBe(6);
    expect(modelFromSpec(last.model, 'test').describe().pairs).toEqual({ default: { ...last.parameters, cutoff: 8.5 } });
  });

  it('without a monitor keeps the latest (saveTopK 1) or every checkpoint (saveTopK −1); saveTopK 0 writes only last.json', async () => {
    const latest = tempDir('latest');
    const all = tempDir('all');
    const none = tempDir('none');
    await makeTrainer({
      validation: undefined, epochs: 3,
      hooks: [
        new CheckpointHook({ dirpath: latest, name: 'latest' }),
        new CheckpointHook({ dirpath: all, saveTopK: -1, name: 'all' }),
        new CheckpointHook({ dirpath: none, saveTopK: 0, saveLast: true, name: 'none' }),
      ],
    }).fit();
    expect(readdirSync(latest)).toEqual(['epoch=2-step=12.json']);
    expect(readdirSync(all).sort()).toEqual(['epoch=0-step=4.json', 'epoch=1-step=8.json', 'epoch=2-step=12.json']);
    expect(readdirSync(none)).toEqual(['last.json']);
  });

  it('saves every n steps, and on exception', async () => {
    const dir = tempDir('steps');
    const boom: TrainingHook = { name: 'Boom', stage: TrainingStage.BEFORE_STEP, frequency: 1, call: (ctx) => { if (ctx.stepCount === 7) throw new Error('crash'); } };
    const hook = new CheckpointHook({ dirpath: dir, everyNSteps: 3, saveTopK: -1, saveOnException: true });
    await expect(makeTrainer({ hooks: [hook, boom] }).fit()).rejects.toThrow(/crash/);
    expect(readdirSync(dir).sort()).toEqual(['epoch=0-step=3.json', 'epoch=1-step=6.json', 'on-exception.json']);
    const crashed = readCheckpoint(join(dir, 'on-exception.json'));
    expect(crashed.extra.exception).toEqual({ message: expect.stringContaining('crash'), stage: 'BEFORE_STEP', step: 7 });
    expect(crashed.stepCount).toBe(7);
  });

  it('fills filename templates', () => {
    expect(checkpointFilename('fit-{epoch:03d}-{val_loss:.3f}-{step}', { epoch: 7, step: 40, val_loss: 0.012345 }, 'x')).toBe('fit-007-0.012-40');
    expect(() => checkpointFilename('{nope}', { epoch: 1 }, 'CheckpointHook')).toThrow(expect.objectContaining({ code: 'UNKNOWN_TEMPLATE_KEY' }));
  });

  it('round-trips non-finite numbers through JSON', () => {
    const text = encodeCheckpoint({ ...makeTrainer({ epochs: 1 }).checkpoint(), metrics: { a: Number.NaN, b: Infinity, c: -Infinity, d: 1 } });
    expect(decodeCheckpoint(text).metrics).toEqual({ a: Number.NaN, b: Infinity, c: -Infinity, d: 1 });
    expect(() => decodeCheckpoint('{"format": "other"}')).toThrow(/format must be/);
  });
});

describe('resume', () => {
  // A fit with stateful hooks: early stopping (never triggered) and a csv log; the checkpoint hook under test.
  const hooks = (dir: string, checkpoint: CheckpointHook): TrainingHook[] => [
    new EarlyStoppingHook({ monitor: 'val_loss', patience: 50 }) as unknown as TrainingHook,
    new TrainingLoggingHook({ path: join(dir, 'log.csv') }) as unknown as TrainingHook,
    checkpoint as unknown as TrainingHook,
  ];
  const compare = (resumed: TrainingHistory, full: TrainingHistory): void => {
    expect(bits(resumed.parameters as Record<string, number>)).toEqual(bits(full.parameters as Record<string, number>));
    expect(resumed.stepCount).toBe(full.stepCount);
    expect(resumed.epochs).toStrictEqual(full.epochs);
  };

  it('from an epoch checkpoint matches the uninterrupted run bit for bit', async () => {
    const full = await makeTrainer({ hooks: hooks(tempDir('full'), new CheckpointHook({ dirpath: tempDir('full-ckpt'), saveLast: true })) }).fit();
    const dir = tempDir('resume');
    const first = await makeTrainer({ epochs: 3, hooks: hooks(dir, new CheckpointHook({ dirpath: dir, saveLast: true })) }).fit();
    expect(first.epochs).toHaveLength(3);
    const resumed = await makeTrainer({ hooks: hooks(dir, new CheckpointHook({ dirpath: dir, saveLast: true })) }).fit({ resumeFrom: join(dir, 'last.json') });
    compare(resumed, full);
    expect(resumed.metadata.resumedFrom).toBe(first.metadata.runId);
    // The log was appended to, under the same header: one row per epoch of both runs.
    const rows = readFileSync(join(dir, 'log.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(1 + 8);
    expect(rows.slice(1).map((row) => Number(row.split(',')[0]))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('from a mid-epoch checkpoint after a crash matches the uninterrupted run bit for bit', async () => {
    const full = await makeTrainer().fit();
    const dir = tempDir('crash');
    // 4 steps per epoch: the step-10 checkpoint sits in epoch 2 after 2 of its 4 batches.
    const crash: TrainingHook = { name: 'Crash', stage: TrainingStage.AFTER_LOSS, frequency: 1, call: (ctx: TrainingHookContext) => { if (ctx.stepCount === 13) throw new Error('power cut'); } };
    const checkpoints = (): CheckpointHook => new CheckpointHook({ dirpath: dir, everyNSteps: 5, saveLast: true });
    await expect(makeTrainer({ hooks: [checkpoints(), crash] }).fit()).rejects.toThrow(/power cut/);
    const saved = readCheckpoint(join(dir, 'last.json'));
    expect([saved.epoch, saved.batchIndex, saved.stepCount]).toEqual([2, 2, 10]);
    const resumed = await makeTrainer({ hooks: [checkpoints()] }).fit({ resumeFrom: saved });
    compare(resumed, full);
  });

  it('refuses a checkpoint of another parameter set or optimizer', async () => {
    const dir = tempDir('mismatch');
    await makeTrainer({ epochs: 1, hooks: [new CheckpointHook({ dirpath: dir, saveLast: true })] }).fit();
    const path = join(dir, 'last.json');
    await expect(makeTrainer({ optimizer: { type: 'SGD' } }).fit({ resumeFrom: path })).rejects.toMatchObject({ code: 'CHECKPOINT_MISMATCH' });
    await expect(makeTrainer().fit({ resumeFrom: join(dir, 'missing.json') })).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    expect(existsSync(path)).toBe(true);
  });
});
