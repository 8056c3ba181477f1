// GPU parity of the force-matching loss (issue 12, item 5): the cuda backend's PairLoss kernels against the
// cpu reference on the argon sets of test/training, and a fit that must land where cpu's does. Each side
// is a fresh copy of the library bound to its backend; the reference data are plain systems shared by
// both. Skips without a usable GPU; with HOOKMD_REQUIRE_CUDA=1 a missing GPU fails instead.
//
// Tolerances: every prediction within 1e-12 of its system's largest value of that kind (|E|, |F|, |σ|;
// cpu sums each atom's force along a half list and the GPU along a full one, so a component that cancels
// is judged against the forces it cancels), every gradient component within 1e-12 of the largest one, the
// loss within 1e-12 of itself. The fit: final parameters within 1e-8 of cpu's, relative.
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ARGON, argonSet, label, randomCluster, strainedCrystal } from '../training/argon-data.js';
import { loadCudaBinding, REQUIRE_CUDA } from './support.js';

type Hookmd = typeof import('../../lib/index.js');
type Dataset = typeof import('../../lib/training/dataset.js');
type Parameters = typeof import('../../lib/training/parameters.js');
type Weights = typeof import('../../lib/training/loss-weights.js');

interface Library {
  hookmd: Hookmd;
  TrainingSet: Dataset['TrainingSet'];
  ParameterSpace: Parameters['ParameterSpace'];
  resolveLossWeights: Weights['resolveLossWeights'];
}

const RTOL = 1e-12;
const FIT_RTOL = 1e-8;
const cudaAvailable = loadCudaBinding()?.backends().find((entry) => entry.name === 'cuda')?.available === true;

async function libraryOn(backend: 'cpu' | 'cuda'): Promise<Library> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  const { TrainingSet } = await import('../../lib/training/dataset.js');
  const { ParameterSpace } = await import('../../lib/training/parameters.js');
  const { resolveLossWeights } = await import('../../lib/training/loss-weights.js');
  return { hookmd, TrainingSet, ParameterSpace, resolveLossWeights };
}

type ModelOf = (hookmd: Hookmd) => InstanceType<Hookmd['LennardJones']> | InstanceType<Hookmd['Morse']>;
type Values = Record<string, number>;
const ALL_TERMS = { energy: 1, forces: 3, stress: 50, perAtomEnergy: true };

interface Evaluation {
  energy: Float64Array;
  forces: Float64Array;
  stress: Float64Array;
  gradient: Float64Array;
  loss: number;
  atoms: number[];
}

/** Predictions, loss and ∂L/∂θ of `systems[list]` at `at`, on one library. */
function evaluate(lib: Library, model: ModelOf, systems: readonly System[], at: Values, list: readonly number[], weights: object): Evaluation {
  const space = lib.ParameterSpace.fromModel(model(lib.hookmd), 'loss-parity');
  const set = new lib.TrainingSet(systems, space, lib.resolveLossWeights(weights, 'loss-parity'), 'metal', 'train');
  const theta = space.fromValues(at, 'loss-parity');
  set.forward(theta, Int32Array.from(list));
  const { energy, forces, stress } = set.predictions(set.forwardCount);
  const gradient = new Float64Array(theta.length);
  const loss = set.loss(gradient).total;
  return { energy, forces, stress, gradient, loss, atoms: list.map((s) => set.atomCounts[s]) };
}

/** Largest |actual − expected| over the scale of its block: the block's largest |expected|. */
function worstError(actual: Float64Array, expected: Float64Array, blockLengths: readonly number[]): number {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  let begin = 0;
  for (const length of blockLengths) {
    let scale = 0;
    for (let i = begin; i < begin + length; i++) scale = Math.max(scale, Math.abs(expected[i]));
    for (let i = begin; i < begin + length; i++) {
      const error = Math.abs(actual[i] - expected[i]);
      if (error > 0) worst = Math.max(worst, error / scale);
    }
    begin += length;
  }
  return worst;
}

/** Six noble gases with Lorentz–Berthelot pairs: 21 parameter rows, more than one backward block holds. */
const GASES: Record<string, { epsilon: number; sigma: number }> = {
  He: { epsilon: 0.00094, sigma: 2.64 }, Ne: { epsilon: 0.0031, sigma: 2.78 }, Ar: { epsilon: 0.0104, sigma: 3.4 },
  Kr: { epsilon: 0.0141, sigma: 3.65 }, Xe: { epsilon: 0.0192, sigma: 3.98 }, Rn: { epsilon: 0.0257, sigma: 4.17 },
};
function gasPairs(scale: number): Record<string, { epsilon: number; sigma: number }> {
  const names = Object.keys(GASES);
  const pairs: Record<string, { epsilon: number; sigma: number }> = {};
  names.forEach((a, i) => names.slice(i).forEach((b) => {
    pairs[`${a}-${b}`] = { epsilon: scale * Math.sqrt(GASES[a].epsilon * GASES[b].epsilon), sigma: (GASES[a].sigma + GASES[b].sigma) / 2 };
  }));
  return pairs;
}
const gasValues = (scale: number, stretch: number): Values =>
  Object.fromEntries(Object.entries(gasPairs(scale)).flatMap(([pair, p]) => [[`${pair}.epsilon`, p.epsilon], [`${pair}.sigma`, p.sigma * stretch]]));

const arKr = (D: number, r0: number): Record<string, { D: number; alpha: number; r0: number }> => ({
  'Ar-Ar': { D, alpha: 1.2, r0 }, 'Kr-Kr': { D: 1.3 * D, alpha: 1.1, r0: r0 + 0.25 }, 'Ar-Kr': { D: 1.15 * D, alpha: 1.15, r0: r0 + 0.12 },
});

/** 2,048 strained, rattled argon atoms: two chunks of the GPU's per-block split. */
function bigCrystal(): System {
  const crystal = repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), [8, 8, 8]);
  const cell = (crystal.cell as number[][]).map((row, i) => row.map((x) => x * (1 + 0.01 * (i - 1))));
  const positions = (crystal.positions as number[][]).map((p) => p.map((x, c) => x * (1 + 0.01 * (c - 1))));
  return rattle({ ...crystal, cell, positions }, 0.08, 77);
}

interface ParityCase {
  name: string;
  systems: () => System[];
  model: ModelOf;
  at: Values;
  weights: object;
}

const cases: ParityCase[] = [
  {
    name: 'LJ, shifted',
    systems: () => argonSet(new LennardJones({ ...ARGON, cutoff: 8.5, shift: true }), { clusters: 6, crystals: 6, seed: 11 }),
    model: (h) => new h.LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
    at: { epsilon: 0.012, sigma: 3.3 },
    weights: ALL_TERMS,
  },
  {
    name: 'LJ, switched, energy per system',
    systems: () => argonSet(new LennardJones({ ...ARGON, cutoff: 8.5, switchOn: 7 }), { clusters: 6, crystals: 6, seed: 12 }),
    model: (h) => new h.LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, switchOn: 7 }),
    at: { epsilon: 0.009, sigma: 3.45 },
    weights: { ...ALL_TERMS, perAtomEnergy: false },
  },
  {
    name: 'Morse, shifted',
    systems: () => argonSet(new LennardJones({ ...ARGON, cutoff: 8.5, shift: true }), { clusters: 6, crystals: 6, seed: 13 }),
    model: (h) => new h.Morse({ D: 0.02, alpha: 1.0, r0: 3.6, cutoff: 8.5, shift: true }),
    at: { D: 0.012, alpha: 1.1, r0: 3.75 },
    weights: ALL_TERMS,
  },
  {
    name: 'Morse, switched',
    systems: () => argonSet(new LennardJones({ ...ARGON, cutoff: 8.5, switchOn: 6.5 }), { clusters: 6, crystals: 6, seed: 14 }),
    model: (h) => new h.Morse({ D: 0.02, alpha: 1.0, r0: 3.6, cutoff: 8.5, switchOn: 6.5 }),
    at: { D: 0.011, alpha: 1.25, r0: 3.9 },
    weights: ALL_TERMS,
  },
  {
    name: 'LJ, Ar–Kr table, switched',
    systems: () => label(new LennardJones({ cutoff: 9, switchOn: 8, pairs: { 'Ar-Ar': ARGON, 'Kr-Kr': { epsilon: 0.0141, sigma: 3.65 }, 'Ar-Kr': { epsilon: 0.0121, sigma: 3.52 } } }), [
      randomCluster(20, 3, ['Ar', 'Kr'], 3.7), randomCluster(16, 4, ['Kr', 'Ar', 'Ar'], 3.7), randomCluster(27, 5, ['Ar', 'Kr'], 3.7),
      strainedCrystal([0.01, -0.02, 0.015], 5, 'Ar'), strainedCrystal([-0.01, 0.02, 0.0], 6, 'Kr'),
    ]),
    model: (h) => new h.LennardJones({ cutoff: 9, switchOn: 8, pairs: { 'Ar-Ar': { epsilon: 0.02, sigma: 3.2 }, 'Kr-Kr': { epsilon: 0.02, sigma: 3.5 }, 'Ar-Kr': { epsilon: 0.02, sigma: 3.3 } } }),
    at: { 'Ar-Ar.epsilon': 0.011, 'Ar-Ar.sigma': 3.3, 'Kr-Kr.epsilon': 0.013, 'Kr-Kr.sigma': 3.7, 'Ar-Kr.epsilon': 0.012, 'Ar-Kr.sigma': 3.45 },
    weights: { energy: 1, forces: 1, stress: 1 },
  },
  {
    name: 'Morse, Ar–Kr table, switched',
    systems: () => label(new LennardJones({ cutoff: 9, switchOn: 8, pairs: { 'Ar-Ar': ARGON, 'Kr-Kr': { epsilon: 0.0141, sigma: 3.65 }, 'Ar-Kr': { epsilon: 0.0121, sigma: 3.52 } } }), [
      randomCluster(24, 6, ['Ar', 'Kr'], 3.7), randomCluster(18, 7, ['Kr', 'Ar'], 3.7), strainedCrystal([0.02, 0.0, -0.015], 8, 'Ar'),
    ]),
    model: (h) => new h.Morse({ cutoff: 9, switchOn: 8, pairs: arKr(0.02, 3.6) }),
    at: Object.fromEntries(Object.entries(arKr(0.012, 3.8)).flatMap(([pair, p]) => Object.entries(p).map(([name, v]) => [`${pair}.${name}`, v]))),
    weights: ALL_TERMS,
  },
  {
    name: 'LJ, six species (21 rows), shifted',
    systems: () => label(new LennardJones({ cutoff: 9, shift: true, pairs: gasPairs(1) }), [
      randomCluster(30, 21, Object.keys(GASES), 3.8), randomCluster(24, 22, ['Xe', 'He', 'Rn', 'Ne', 'Kr', 'Ar'], 3.8),
    ]),
    model: (h) => new h.LennardJones({ cutoff: 9, shift: true, pairs: gasPairs(1.5) }),
    at: gasValues(1.2, 0.97),
    weights: { energy: 1, forces: 1 },
  },
  {
    name: 'LJ, a 2,048-atom crystal among clusters',
    systems: () => [...argonSet(new LennardJones({ ...ARGON, cutoff: 8.5, shift: true }), { clusters: 3, crystals: 1, seed: 15 }),
      ...label(new LennardJones({ ...ARGON, cutoff: 8.5, shift: true }), [bigCrystal()])],
    model: (h) => new h.LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
    at: { epsilon: 0.012, sigma: 3.3 },
    weights: ALL_TERMS,
  },
];

const skip = !cudaAvailable && !REQUIRE_CUDA;

describe.skipIf(skip)('PairLoss on cuda against cpu', () => {
  let cpu: Library;
  let cuda: Library;
  beforeAll(async () => {
    cpu = await libraryOn('cpu');
    cuda = await libraryOn('cuda');
  });

  it.each(cases)('predictions and gradients within 1e-12: $name', ({ systems, model, at, weights }) => {
    const data = systems();
    // The whole set, then a mini-batch in shuffled order with a repeat.
    const shuffled = data.map((_, s) => (s * 5 + 3) % data.length);
    for (const list of [data.map((_, s) => s), [...shuffled, shuffled[0]]]) {
      const want = evaluate(cpu, model, data, at, list, weights);
      const got = evaluate(cuda, model, data, at, list, weights);
      expect(got.atoms).toEqual(want.atoms);
      expect(worstError(got.energy, want.energy, list.map(() => 1))).toBeLessThan(RTOL);
      expect(worstError(got.forces, want.forces, want.atoms.map((n) => 3 * n))).toBeLessThan(RTOL);
      expect(worstError(got.stress, want.stress, list.map(() => 9))).toBeLessThan(RTOL);
      expect(worstError(got.gradient, want.gradient, [want.gradient.length])).toBeLessThan(RTOL);
      expect(Math.abs(got.loss - want.loss)).toBeLessThanOrEqual(RTOL * Math.abs(want.loss));
      expect(Array.from(want.gradient).some((g) => g !== 0)).toBe(true);
    }
  });

  it('fit recovers ε and σ as on cpu', async () => {
    const truth = new LennardJones({ ...ARGON, cutoff: 8.5, shift: true });
    const train = argonSet(truth, { clusters: 12, crystals: 12, seed: 1 });
    const validation = argonSet(truth, { clusters: 4, crystals: 4, seed: 2 });
    const fit = async ({ hookmd: h }: Library): Promise<{ epsilon: number; sigma: number }> => {
      const trainer = new h.Trainer({
        model: new h.LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
        train,
        validation,
        optimizer: new h.Adam({ lr: 0.05 }),
        lrScheduler: new h.CosineLR({ tMax: 60 }),
        epochs: 60,
        batchSize: 8,
        lossWeights: { energy: 1, forces: 1, stress: 1 },
        seed: 3,
      });
      const history = await trainer.fit();
      return { epsilon: history.parameters.epsilon as number, sigma: history.parameters.sigma as number };
    };
    const want = await fit(cpu);
    const got = await fit(cuda);
    expect(Math.abs(got.epsilon / ARGON.epsilon - 1)).toBeLessThan(0.01);
    expect(Math.abs(got.sigma / ARGON.sigma - 1)).toBeLessThan(0.01);
    expect(Math.abs(got.epsilon / want.epsilon - 1)).toBeLessThan(FIT_RTOL);
    expect(Math.abs(got.sigma / want.sigma - 1)).toBeLessThan(FIT_RTOL);
  });
});
