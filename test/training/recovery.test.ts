// Parameter recovery: data made by hookmd's own LJ (ε = 0.0104 eV, σ = 3.40 Å, metal units) on random Ar
// clusters and strained crystals; fits started from ε = 0.02, σ = 3.0 must land within 1% of both.
import { describe, expect, it } from 'vitest';

import { LennardJones, Morse } from '../../lib/models/index.js';
import { Adam, CosineLR, GradientClipHook, SGD, Trainer } from '../../lib/training/index.js';
import { ARGON, argonSet } from './argon-data.js';

describe('parameter recovery', () => {
  it('recovers argon ε and σ within 1% from ε = 0.02, σ = 3.0 (Adam, cosine)', async () => {
    const truth = new LennardJones({ ...ARGON, cutoff: 8.5, shift: true });
    const trainer = new Trainer({
      model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
      train: argonSet(truth, { clusters: 12, crystals: 12, seed: 1 }),
      validation: argonSet(truth, { clusters: 4, crystals: 4, seed: 2 }),
      optimizer: new Adam({ lr: 0.05 }),
      lrScheduler: new CosineLR({ tMax: 60 }),
      epochs: 60,
      batchSize: 8,
      lossWeights: { energy: 1, forces: 1, stress: 1 },
      seed: 3,
    });
    const history = await trainer.fit();
    expect(Math.abs((history.parameters.epsilon as number) / ARGON.epsilon - 1)).toBeLessThan(0.01);
    expect(Math.abs((history.parameters.sigma as number) / ARGON.sigma - 1)).toBeLessThan(0.01);
    const last = history.epochs.at(-1)!.metrics;
    expect(last.val_forces_rmse).toBeLessThan(1e-3); // eV/Å
    expect(last.val_energy_mae).toBeLessThan(1e-3); // eV/atom
    // The fitted model reproduces the reference forces.
    expect(trainer.toModel().describe().pairs).toEqual({ default: { epsilon: (history.parameters.epsilon as number), sigma: (history.parameters.sigma as number), cutoff: 8.5 } });
  });

  it('recovers argon with SGD + momentum and gradient clipping too', async () => {
    const truth = new LennardJones({ ...ARGON, cutoff: 8.5, shift: true });
    const trainer = new Trainer({
      model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
      train: argonSet(truth, { clusters: 12, crystals: 12, seed: 1 }),
      optimizer: new SGD({ lr: 2, momentum: 0.9 }),
      lrScheduler: { type: 'Cosine', tMax: 60 },
      epochs: 60,
      batchSize: 8,
      lossWeights: { energy: 1, forces: 1, stress: 1 },
      hooks: [new GradientClipHook({ maxNorm: 0.05 })],
      seed: 3,
    });
    const parameters = (await trainer.fit()).parameters as Record<string, number>;
    expect(Math.abs(parameters.epsilon / ARGON.epsilon - 1)).toBeLessThan(0.01);
    expect(Math.abs(parameters.sigma / ARGON.sigma - 1)).toBeLessThan(0.01);
  });

  it('recovers Ar–Kr pair parameters', async () => {
    const pairs = (epsilon: number, sigma: number): Record<string, { epsilon: number; sigma: number }> => ({
      'Ar-Ar': { epsilon: 0.0104 * epsilon, sigma: 3.4 * sigma },
      'Kr-Kr': { epsilon: 0.0141 * epsilon, sigma: 3.65 * sigma },
      'Ar-Kr': { epsilon: 0.0121 * epsilon, sigma: 3.52 * sigma },
    });
    const truth = new LennardJones({ cutoff: 9, switchOn: 8, pairs: pairs(1, 1) });
    const trainer = new Trainer({
      model: new LennardJones({ cutoff: 9, switchOn: 8, pairs: pairs(1.3, 0.95) }),
      train: argonSet(truth, { clusters: 24, crystals: 0, seed: 4, symbols: ['Ar', 'Kr'], minDistance: 3.7 }),
      optimizer: { type: 'Adam', lr: 0.05 },
      lrScheduler: { type: 'Cosine', tMax: 100 },
      epochs: 100,
      batchSize: 6,
      lossWeights: { energy: 1, forces: 1 },
      seed: 9,
    });
    const parameters = (await trainer.fit()).parameters as Record<string, number>;
    const expected = pairs(1, 1);
    for (const [label, values] of Object.entries(expected)) {
      expect(Math.abs(parameters[`${label}.epsilon`] / values.epsilon - 1)).toBeLessThan(0.01);
      expect(Math.abs(parameters[`${label}.sigma`] / values.sigma - 1)).toBeLessThan(0.01);
    }
  });

  it('recovers Morse D, α and r0 within 1%', async () => {
    const truth = new Morse({ D: 0.0104, alpha: 1.3, r0: 3.8, cutoff: 8, shift: true });
    const trainer = new Trainer({
      model: new Morse({ D: 0.02, alpha: 1.0, r0: 3.5, cutoff: 8, shift: true }),
      train: argonSet(truth, { clusters: 10, crystals: 10, seed: 6 }),
      optimizer: new Adam({ lr: 0.05 }),
      lrScheduler: new CosineLR({ tMax: 80 }),
      epochs: 80,
      batchSize: 5,
      seed: 2,
    });
    const parameters = (await trainer.fit()).parameters as Record<string, number>;
    expect(Math.abs(parameters.D / 0.0104 - 1)).toBeLessThan(0.01);
    expect(Math.abs(parameters.alpha / 1.3 - 1)).toBeLessThan(0.01);
    expect(Math.abs(parameters.r0 / 3.8 - 1)).toBeLessThan(0.01);
  });
});
