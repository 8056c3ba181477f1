// Config-driven trainers: a JSON or YAML file (or object) with data as extxyz paths and hooks by type name
// must give the same trainer, the same config hash and the same fit as the trainer built in code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';

import type { System } from '../../lib/data/index.js';
import { readExtxyz, writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import {
  Adam,
  CheckpointHook,
  CosineLR,
  EarlyStoppingHook,
  GradientClipHook,
  LearningRateMonitorHook,
  Trainer,
  TrainingLoggingHook,
} from '../../lib/training/index.js';
import { data, removeTempDirs, tempDir } from './fixtures.js';

afterAll(removeTempDirs);

const dir = tempDir('config');
let train: System[];
let validation: System[];

const config = {
  model: { type: 'LennardJones', epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true },
  train: 'train.xyz',
  validation: 'validation.xyz',
  optimizer: { type: 'Adam', lr: 0.05 },
  lrScheduler: { type: 'Cosine', tMax: 5 },
  epochs: 5,
  batchSize: 4,
  lossWeights: { energy: 1, forces: 2, stress: 1 },
  seed: 11,
  hooks: [
    { type: 'GradientClipHook', maxNorm: 1 },
    { type: 'EarlyStoppingHook', monitor: 'val_loss', patience: 4 },
    { type: 'LearningRateMonitorHook' },
    { type: 'TrainingLoggingHook', path: join(dir, 'log.csv') },
    { type: 'CheckpointHook', dirpath: join(dir, 'ckpt'), enabled: false },
  ],
};

beforeAll(async () => {
  await writeExtxyz(join(dir, 'train.xyz'), data().train);
  await writeExtxyz(join(dir, 'validation.xyz'), data().validation);
  train = readExtxyz(join(dir, 'train.xyz'));
  validation = readExtxyz(join(dir, 'validation.xyz'));
});

function inCode(): Trainer {
  const trainer = new Trainer({
    model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
    train,
    validation,
    optimizer: new Adam({ lr: 0.05 }),
    lrScheduler: new CosineLR({ tMax: 5 }),
    epochs: 5,
    batchSize: 4,
    lossWeights: { energy: 1, forces: 2, stress: 1 },
    seed: 11,
    hooks: [
      new GradientClipHook({ maxNorm: 1 }),
      new EarlyStoppingHook({ monitor: 'val_loss', patience: 4 }),
      new LearningRateMonitorHook(),
      new TrainingLoggingHook({ path: join(dir, 'log.csv') }),
    ],
  });
  trainer.register(new CheckpointHook({ dirpath: join(dir, 'ckpt') })).disable();
  return trainer;
}

describe('Trainer.fromConfig', () => {
  it('builds from a JSON file the trainer built in code: same config, hash, hooks and fit', async () => {
    writeFileSync(join(dir, 'fit.json'), JSON.stringify(config));
    const fromFile = Trainer.fromConfig(join(dir, 'fit.json'));
    const coded = inCode();
    expect(fromFile.config).toStrictEqual(coded.config);
    expect(fromFile.configHash).toBe(coded.configHash);
    expect(fromFile.hooks.list()).toStrictEqual(coded.hooks.list());
    expect(fromFile.hooks.list().at(-1)).toMatchObject({ name: 'CheckpointHook', enabled: false });
    const [a, b] = [await fromFile.fit(), await coded.fit()];
    expect(a.parameters).toStrictEqual(b.parameters);
    expect(a.epochs).toStrictEqual(b.epochs);
    expect(a.metadata.configHash).toBe(b.metadata.configHash);
    expect(a.metadata.hooks.map((h) => h.enabled)).toEqual([true, true, true, true, false]);
  });

  it('reads YAML the same way, and objects with data given inline', () => {
    writeFileSync(join(dir, 'fit.yaml'), toYaml(config));
    const coded = inCode();
    expect(Trainer.fromConfig(join(dir, 'fit.yaml')).configHash).toBe(coded.configHash);
    expect(Trainer.fromConfig({ ...config, train, validation } as never).configHash).toBe(coded.configHash);
  });

  it('gives a different hash for a different config', () => {
    const other = Trainer.fromConfig({ ...config, train, validation, seed: 12 } as never);
    expect(other.configHash).not.toBe(inCode().configHash);
  });

  it('rejects unknown hooks, keys, models and unreadable files with typed errors', () => {
    const codeOf = (source: unknown): string => {
      try {
        Trainer.fromConfig(source as never);
      } catch (error) {
        return (error as { code: string }).code;
      }
      return 'no error';
    };
    const base = { ...config, train, validation };
    expect(codeOf({ ...base, hooks: [{ type: 'NoSuchHook' }] })).toBe('UNKNOWN_HOOK');
    expect(codeOf({ ...base, hooks: [{ type: 'EarlyStoppingHook', patience: 0 }] })).toBe('INVALID_OPTIONS');
    expect(codeOf({ ...base, optimiser: {} })).toBe('UNKNOWN_OPTION');
    expect(codeOf({ ...base, model: { type: 'Buckingham' } })).toBe('UNSUPPORTED_MODEL');
    expect(codeOf({ ...base, train: 42 })).toBe('INVALID_CONFIG');
    expect(codeOf(join(dir, 'missing.yaml'))).toBe('CONFIG_NOT_FOUND');
    writeFileSync(join(dir, 'broken.json'), '{ "epochs": ');
    expect(codeOf(join(dir, 'broken.json'))).toBe('INVALID_CONFIG');
  });
});
