// The small-system path (docs/dynamics.md, "Small systems"): batches of free clusters of at most 32 atoms run
// whole chunks of steps per system, all pairs, no neighbor list. It must take exactly the steps of the general
// path, system by system: where every pair of a cluster stays within the cutoff (the pair order of the
// general path's lists then is the small path's) both give the same bits (positions, velocities, energies,
// status), so every system converged at the same step. HOOKMD_SMALL_SYSTEMS=0 keeps the general path.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  Batch, ConvergenceHook, DynamicsStage, FIRE, FIRE2, GradientDescent, Langevin, LennardJones, MaxForceClampHook, Morse, VelocityVerlet,
  initializeVelocities, type System,
} from '../../lib/index.js';
import type { Dynamics } from '../../lib/dynamics/index.js';
import { activeBackend } from '../../lib/native/index.js';
import { rattledLj13 } from '../backends/ledger-scenarios.js';

// Bits are compared on one CPU build: cpu, or mirror with its emulation of the (still dark) device kernel.
// The GPU's sums differ in rounding; test/backends/small-system-parity.test.ts compares its step counts.
const onGpu = activeBackend() === 'cuda';

beforeAll(() => {
  process.env.HOOKMD_CUDA_UNVERIFIED = '1';
});

afterEach(() => {
  delete process.env.HOOKMD_SMALL_SYSTEMS;
});

interface Outcome {
  steps: number;
  converged: number[];
  positions: Float64Array;
  velocities: Float64Array;
  forces: Float64Array;
  energy: Float64Array;
  status: Int32Array;
  /** `convergedAt()` after the run: the step each system converged at, as the engine reports it. */
  convergedAt: number[];
  /** Neighbor lists built: the general path rebuilds them as atoms move, the small path never. */
  builds: number;
}

/** Runs `engine(model)` on a fresh batch of `systems` on the chosen path. */
async function relax(small: boolean, systems: System[], engine: (model: LennardJones | Morse) => Dynamics, steps: number,
  { model = () => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }) as LennardJones | Morse, temperature = 0 } = {}): Promise<Outcome> {
  process.env.HOOKMD_SMALL_SYSTEMS = small ? '1' : '0';
  const batch = Batch.fromSystems(systems, { units: 'lj' });
  if (temperature > 0) initializeVelocities(batch, { temperature, seed: 5 });
  const potential = model();
  const dynamics = engine(potential);
  const result = await dynamics.run(batch, { steps });
  return {
    steps: result.steps, converged: Array.from(result.converged),
    positions: batch.read('positions').slice(), velocities: batch.read('velocities').slice(), forces: batch.read('forces').slice(),
    energy: batch.read('energy').slice(), status: batch.read('status').slice(), convergedAt: Array.from(dynamics.convergedAt()), builds: potential.neighborStats().builds,
  };
}

function expectSameBits(small: Outcome, general: Outcome): void {
  expect(small.steps).toBe(general.steps);
  expect(small.converged).toEqual(general.converged);
  expect(small.convergedAt).toEqual(general.convergedAt);
  expect(Array.from(small.status)).toEqual(Array.from(general.status));
  for (const field of ['positions', 'velocities', 'forces', 'energy'] as const) {
    const mismatch = small[field].findIndex((value, k) => !Object.is(value, general[field][k]));
    expect({ field, mismatch }).toEqual({ field, mismatch: -1 });
  }
}

const fmax = (threshold: number): ConvergenceHook => ConvergenceHook.fromFmax(threshold);

describe.skipIf(onGpu)('the small-system path takes the general path\'s steps, bit for bit', () => {
  it('FIRE on 2,000 rattled LJ13: every system converges at the same step, with no neighbor list after the first', async () => {
    const clusters = rattledLj13(2000);
    const fire = (model: LennardJones | Morse): Dynamics => new FIRE({ model, convergence: fmax(1e-3) });
    const small = await relax(true, clusters, fire, 5000);
    const general = await relax(false, clusters, fire, 5000);
    expectSameBits(small, general);
    expect(small.converged.every((c) => c === 1)).toBe(true);
    // The start compute builds each list once; the small path never again, the general path as atoms move.
    expect(small.builds).toBe(2000);
    expect(general.builds).toBeGreaterThan(2000);
  }, 300_000);

  it('FIRE2 and gradient descent, stopped before every system converged', async () => {
    const clusters = rattledLj13(300, 0.1, 7);
    for (const engine of [
      (model: LennardJones | Morse): Dynamics => new FIRE2({ model, convergence: fmax(1e-3) }),
      (model: LennardJones | Morse): Dynamics => new GradientDescent({ model, stepSize: 0.005, convergence: fmax(1e-2) }),
    ]) {
      const small = await relax(true, clusters, engine, 60);
      expectSameBits(small, await relax(false, clusters, engine, 60));
      expect(small.builds).toBe(300);
    }
  }, 120_000);

  it('VelocityVerlet and Langevin on clusters of 2 to 32 atoms, two species, a smooth switch and Morse', async () => {
    const clusters: System[] = Array.from({ length: 120 }, (_, k) => {
      const n = 2 + (k % 31);
      const side = Math.ceil(Math.cbrt(n));
      const positions = Array.from({ length: n }, (_, i) => [1.12 * (i % side) + 0.03 * Math.sin(k + i), 1.12 * (Math.floor(i / side) % side), 1.12 * Math.floor(i / (side * side))]);
      return { symbols: positions.map((_, i) => (i % 3 === 0 ? 'Kr' : 'Ar')), positions };
    });
    const mixture = (): LennardJones => new LennardJones({
      pairs: { 'Ar-Ar': { epsilon: 1, sigma: 1, cutoff: 8 }, 'Ar-Kr': { epsilon: 1.2, sigma: 1.05, cutoff: 8 }, 'Kr-Kr': { epsilon: 1.4, sigma: 1.1, cutoff: 8 } },
      switchOn: 7,
    });
    const morse = (): Morse => new Morse({ D: 1, alpha: 1.5, r0: 1.1, cutoff: 8 });
    const engines = [
      (model: LennardJones | Morse): Dynamics => new VelocityVerlet({ model, dt: 0.002 }),
      (model: LennardJones | Morse): Dynamics => new Langevin({ model, dt: 0.002, temperature: 0.5, friction: 0.5, seed: 9 }),
    ];
    for (const engine of engines) {
      for (const model of [mixture, morse]) {
        const small = await relax(true, clusters, engine, 150, { model, temperature: 0.3 });
        expectSameBits(small, await relax(false, clusters, engine, 150, { model, temperature: 0.3 }));
        expect(small.builds).toBe(120);
      }
    }
  }, 300_000);

  it('with a cutoff inside the clusters, pairs crossing it sum in another order: the same trajectories to rounding', async () => {
    const clusters = rattledLj13(200, 0.1, 11).map((system) => ({ ...system, positions: system.positions.map((p) => p.map((x) => 1.4 * x)) }));
    const engine = (model: LennardJones | Morse): Dynamics => new VelocityVerlet({ model, dt: 0.002 });
    const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const [small, general] = [await relax(true, clusters, engine, 40, { model, temperature: 0.5 }), await relax(false, clusters, engine, 40, { model, temperature: 0.5 })];
    const worst = small.positions.reduce((largest, x, k) => Math.max(largest, Math.abs(x - general.positions[k])), 0);
    expect(worst).toBeLessThan(1e-10);
  }, 60_000);

  it('several convergence checks on schedules, including energy and temperature criteria', async () => {
    const clusters = rattledLj13(200, 0.12, 3);
    const engine = (model: LennardJones | Morse): Dynamics => new FIRE({
      model,
      convergence: [
        new ConvergenceHook({ criteria: [{ key: 'forces', threshold: 5e-3, reduceOp: 'norm' }, { key: 'energy', threshold: -44.0, reduceOp: 'sum' }], frequency: 3 }),
        new ConvergenceHook({ criteria: [{ key: 'velocities', threshold: 1e-4, reduceOp: 'max' }, { key: 'kineticEnergy', threshold: 1e-8, reduceOp: 'sum' }], frequency: 2 }),
      ],
    });
    const small = await relax(true, clusters, engine, 400);
    expectSameBits(small, await relax(false, clusters, engine, 400));
    expect(small.builds).toBe(200);
  }, 120_000);
});

describe.skipIf(onGpu)('the small-system path steps aside', () => {
  const relaxBoth = async (systems: System[], engine: (model: LennardJones | Morse) => Dynamics, steps: number): Promise<Outcome> => {
    const small = await relax(true, systems, engine, steps);
    expectSameBits(small, await relax(false, systems, engine, steps));
    return small;
  };
  const fire = (model: LennardJones | Morse): Dynamics => new FIRE({ model, convergence: fmax(1e-3) });

  it('for a periodic system or one of 33 atoms in the batch: the general path rebuilds lists', async () => {
    const periodic = { ...rattledLj13(1)[0], cell: [6, 6, 6], pbc: true };
    expect((await relaxBoth([...rattledLj13(20), periodic], fire, 200)).builds).toBeGreaterThan(21);
    const big: System = { symbols: Array(33).fill('Ar'), positions: Array.from({ length: 33 }, (_, i) => [1.1 * (i % 4), 1.1 * (Math.floor(i / 4) % 4), 1.1 * Math.floor(i / 16)]) };
    expect((await relaxBoth([...rattledLj13(20), big], fire, 200)).builds).toBeGreaterThan(21);
  }, 120_000);

  it('for a native hook, or a JS hook at ON_CONVERGE', async () => {
    const clamped = (model: LennardJones | Morse): Dynamics => new FIRE({ model, convergence: fmax(1e-3), hooks: [new MaxForceClampHook({ maxForce: 50 })] });
    expect((await relaxBoth(rattledLj13(30), clamped, 300)).builds).toBeGreaterThan(30);
    const listened = (model: LennardJones | Morse): Dynamics => new FIRE({ model, convergence: fmax(1e-3), hooks: [{ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: () => undefined }] });
    expect((await relaxBoth(rattledLj13(30), listened, 300)).builds).toBeGreaterThan(30);
  }, 120_000);

  it('positions that overflow mid-run fail as on the general path, and a misspelt HOOKMD_SMALL_SYSTEMS is a typed error', async () => {
    // Two steps of 10 τ at 1e307 σ/τ: the second takes the atom past the largest double.
    const runaway: System = { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1.5, 0, 0]], velocities: [[1e307, 0, 0], [0, 0, 0]] };
    const flying = (model: LennardJones | Morse): Dynamics => new VelocityVerlet({ model, dt: 10 });
    const failure = async (small: boolean): Promise<unknown> => relax(small, [...rattledLj13(3), runaway], flying, 5).catch((error: unknown) => error);
    const [small, general] = [await failure(true), await failure(false)];
    expect(general).toMatchObject({ code: expect.stringMatching(/INVALID_POSITIONS|NUMERICAL_BLOWUP/) });
    expect(small).toMatchObject({ code: (general as { code: string }).code, message: (general as Error).message });
    process.env.HOOKMD_SMALL_SYSTEMS = 'yes';
    const batch = Batch.fromSystems(rattledLj13(2), { units: 'lj' });
    await expect(new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }) }).run(batch, { steps: 5 })).rejects.toMatchObject({ code: 'INVALID_ENVIRONMENT' });
  }, 60_000);
});
