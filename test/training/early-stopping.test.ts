// EarlyStoppingHook on scripted metric sequences: the run must end at exactly the epoch that the patience,
// thresholds or finiteness check say.
import { describe, expect, it } from 'vitest';

import { EarlyStoppingHook } from '../../lib/training/index.js';
import type { EarlyStoppingOptions } from '../../lib/training/index.js';
import { makeTrainer, scriptedMetric } from './fixtures.js';

async function stopEpoch(values: readonly number[], options: EarlyStoppingOptions): Promise<{ epochs: number; stop: EarlyStoppingHook; reason?: string; by?: string }> {
  const stop = new EarlyStoppingHook({ monitor: 'score', ...options });
  const history = await makeTrainer({ validation: undefined, epochs: values.length, hooks: [scriptedMetric('score', values), stop] }).fit();
  return { epochs: history.epochs.length, stop, reason: history.stopped?.reason, by: history.stopped?.by };
}

describe('EarlyStoppingHook', () => {
  it('stops when the metric has not improved by more than minDelta for `patience` epochs', async () => {
    // Best 0.70 at epoch 2; 0.695 and 0.69 do not beat it by more than 0.01; the third miss is epoch 5.
    const result = await stopEpoch([1.0, 0.8, 0.7, 0.695, 0.69, 0.71, 0.2, 0.1], { patience: 3, minDelta: 0.01 });
    expect(result.epochs).toBe(6);
    expect(result.stop.stoppedEpoch).toBe(5);
    expect(result.stop.bestScore).toBe(0.7);
    expect(result.by).toBe('EarlyStoppingHook');
    expect(result.reason).toBe('score did not improve in the last 3 checks; the best was 0.7');
  });

  it('resets the patience on every improvement', async () => {
    const result = await stopEpoch([5, 4, 4.5, 4.4, 3, 3.1, 3.2, 3.3, 2], { patience: 3 });
    expect(result.epochs).toBe(8);
    expect(result.stop.wait).toBe(3);
  });

  it('runs every epoch when the metric keeps improving', async () => {
    const result = await stopEpoch([5, 4, 3, 2, 1], { patience: 1 });
    expect(result.epochs).toBe(5);
    expect(result.by).toBeUndefined();
  });

  it("watches for increases in mode 'max'", async () => {
    const result = await stopEpoch([0.1, 0.5, 0.4, 0.3, 0.9], { mode: 'max', patience: 2 });
    expect(result.epochs).toBe(4);
  });

  it('stops at the stopping threshold, at the divergence threshold, and on a non-finite value', async () => {
    expect((await stopEpoch([3, 2, 0.5, 0.1], { patience: 9, stoppingThreshold: 1 })).epochs).toBe(3);
    expect((await stopEpoch([3, 2, 7, 1], { patience: 9, divergenceThreshold: 5 })).epochs).toBe(3);
    const nan = await stopEpoch([3, Number.NaN, 1], { patience: 9 });
    expect(nan.epochs).toBe(2);
    expect(nan.reason).toBe('score = NaN is not finite; the best was 3');
    expect((await stopEpoch([3, Number.NaN, 1], { patience: 9, checkFinite: false })).epochs).toBe(3);
  });

  it('fails with METRIC_NOT_FOUND when the monitored metric does not exist', async () => {
    const error = await makeTrainer({ validation: undefined, epochs: 2, hooks: [new EarlyStoppingHook({ monitor: 'val_loss' })] }).fit().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HOOK_FAILED', hookName: 'EarlyStoppingHook', stage: 'AFTER_EPOCH' });
    expect((error as { cause: { code: string; message: string } }).cause.code).toBe('METRIC_NOT_FOUND');
    expect((error as { cause: { message: string } }).cause.message).toContain('metrics: train_loss');
  });

  it('validates its options', () => {
    expect(() => new EarlyStoppingHook({ patience: 0 })).toThrow(/patience must be an integer ≥ 1|patience must be ≥ 1/);
    expect(() => new EarlyStoppingHook({ mode: 'lowest' as never })).toThrow(/mode must be 'min' or 'max'/);
    expect(() => new EarlyStoppingHook({ stage: 'SOMETIME' as never })).toThrow(/stage must be a TrainingStage/);
  });
});
