// Shared fixtures of the trainer tests: small labelled argon sets (made once per test file) and a trainer
// factory whose defaults every test may override.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { Adam, CosineLR, Trainer } from '../../lib/training/index.js';
import type { TrainerOptions, TrainingHook, TrainingHookContext } from '../../lib/training/index.js';
import { TrainingStage } from '../../lib/training/index.js';
import { ARGON, argonSet } from './argon-data.js';

/** The model that labels the data. */
export const reference: LennardJones = new LennardJones({ ...ARGON, cutoff: 8.5, shift: true });

let cached: { train: System[]; validation: System[] } | undefined;

/** 11 training systems (4 clusters, 7 crystals) and 4 validation systems. */
export function data(): { train: System[]; validation: System[] } {
  cached ??= {
    train: argonSet(reference, { clusters: 4, crystals: 7, seed: 21 }),
    validation: argonSet(reference, { clusters: 2, crystals: 2, seed: 22 }),
  };
  return cached;
}

/** The starting model of the issue: ε = 0.02 eV, σ = 3.0 Å. */
export function startModel(): LennardJones {
  return new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true });
}

/** A trainer on `data()`: Adam(0.05), cosine over 8 epochs, batches of 3 (4 per epoch, the last one of 2). */
export function makeTrainer(overrides: Partial<TrainerOptions> = {}): Trainer {
  const { train, validation } = data();
  return new Trainer({
    model: startModel(),
    train,
    validation,
    optimizer: new Adam({ lr: 0.05 }),
    lrScheduler: new CosineLR({ tMax: 8 }),
    epochs: 8,
    batchSize: 3,
    lossWeights: { energy: 1, forces: 1, stress: 1 },
    seed: 5,
    ...overrides,
  });
}

const made: string[] = [];

/** A fresh temporary directory, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hookmd-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir() made (call it in afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A hook that sets ctx.metrics[name] from a script indexed by epoch, at AFTER_EPOCH (register it first). */
export function scriptedMetric(name: string, values: readonly number[]): TrainingHook {
  return {
    name: 'Script',
    stage: TrainingStage.AFTER_EPOCH,
    frequency: 1,
    call: (ctx: TrainingHookContext) => {
      ctx.metrics[name] = values[ctx.epoch];
    },
  };
}
