// Issue 27, item 8: divergence is an error. A loss (or gradient) that is not finite ends fit() with
// TRAINING_DIVERGED naming the epoch and the loss terms, and the trainer keeps the last finite parameters;
// a model whose compute gives a non-finite energy fails in compute, with a typed error.
import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { HookmdError } from '../../lib/errors.js';
import { LennardJones } from '../../lib/models/index.js';
import { GradientClipHook, SGD, Trainer, TrainingStage } from '../../lib/training/index.js';
import type { TrainingHook, TrainingHookContext } from '../../lib/training/index.js';
import { data, removeTempDirs, startModel } from './fixtures.js';

afterAll(removeTempDirs);

/** Records the parameters each step starts from. */
function parameterLog(): TrainingHook & { seen: Record<string, number>[] } {
  const seen: Record<string, number>[] = [];
  return {
    name: 'ParameterLog', stage: TrainingStage.BEFORE_STEP, frequency: 1, seen,
    call: (ctx: TrainingHookContext) => void seen.push({ ...(ctx.parameters as Record<string, number>) }),
  };
}

async function failure(trainer: Trainer): Promise<HookmdError> {
  const outcome: unknown = await trainer.fit().then((history) => history, (error: unknown) => error);
  if (!(outcome instanceof Error)) throw new Error(`fit returned normally with ${JSON.stringify(trainer.parameters)}`);
  return outcome as HookmdError;
}

describe('a training loss that is not finite', () => {
  // One reference energy of 1e200 eV makes the energy loss (its square) Infinity in the batch that holds it.
  const poisoned = (): ReturnType<typeof data>['train'] => data().train.map((s, i) => (i === 4 ? { ...s, energy: 1e200 } : s));

  it('ends fit with TRAINING_DIVERGED naming the epoch and the loss terms, even when clipping would hide it', async () => {
    const log = parameterLog();
    const trainer = new Trainer({
      model: startModel(), train: poisoned(), optimizer: new SGD({ lr: 0.01 }), epochs: 3, batchSize: 3, seed: 1, shuffle: false,
      hooks: [log, new GradientClipHook({ maxNorm: 1 })],
    });
    const error = await failure(trainer);
    expect(error.code).toBe('TRAINING_DIVERGED');
    // Without shuffling, system 4 is in the second batch of epoch 0.
    expect(error.details).toMatchObject({ epoch: 0, step: 1, losses: { total: Number.POSITIVE_INFINITY, energy: Number.POSITIVE_INFINITY } });
    expect(Number.isFinite((error.details as { losses: { forces: number } }).losses.forces)).toBe(true);
    expect(error.message).toMatch(/epoch 0\), the loss is Infinity/);
    // The parameters the diverging step started from: the last finite ones, not the starting ones.
    const last = log.seen.at(-1) as Record<string, number>;
    expect(last).not.toEqual(log.seen[0]);
    expect(trainer.parameters).toEqual(last);
    expect((error.details as { parameters: unknown }).parameters).toEqual(last);
  });
});

describe('a runaway optimizer step', () => {
  it('is TRAINING_DIVERGED, and the trainer keeps the parameters from before the step', async () => {
    const log = parameterLog();
    const trainer = new Trainer({ model: startModel(), train: data().train, optimizer: new SGD({ lr: 1e6 }), epochs: 1, batchSize: 3, seed: 1, hooks: [log] });
    const error = await failure(trainer);
    expect(error.code).toBe('TRAINING_DIVERGED');
    expect(error.details).toMatchObject({ epoch: 0, losses: { total: expect.any(Number) } });
    const parameters = trainer.parameters;
    for (const value of Object.values(parameters) as number[]) expect(Number.isFinite(value) && value > 0).toBe(true);
    expect(parameters).toEqual(log.seen.at(-1));
    // The kept parameters make a usable model.
    expect(() => trainer.toModel()).not.toThrow();
  });
});

describe('model.compute with a result that is not finite', () => {
  it('is NON_FINITE_RESULT from compute, naming the system and the field', () => {
    // ε = 1e300 eV: a pair at 4 Å has about −6e299 eV, a pair at 0.5 Å 4ε(σ/r)^12 ≈ 8.7e309 eV, past a double.
    const model = new LennardJones({ epsilon: 1e300, sigma: 3, cutoff: 8 });
    const ok = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [4, 0, 0]] };
    const hot = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0.5, 0, 0]] };
    const batch = Batch.fromSystems([ok, hot]);
    let error: HookmdError | undefined;
    try {
      model.compute(batch);
    } catch (e) {
      error = e as HookmdError;
    }
    expect(error?.code).toBe('NON_FINITE_RESULT');
    expect(error?.details).toMatchObject({ field: 'energy', index: 1 });
    expect(error?.message).toMatch(/system 1 .* has energy Infinity/);
  });
});
