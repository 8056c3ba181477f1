// Issue 28 item 6: BiasHook adds a bias potential's energy and forces at AFTER_COMPUTE, as nvalchemi's
// BiasedPotentialHook (upstream PR #159). The first block mirrors upstream's
// test/dynamics/test_bias_hook.py::TestBiasedPotentialHook; the rest checks the physics against outside
// references: finite differences of the bias energy, the minimum of LJ + restraint found by bisection, NVE
// conservation of the biased total energy, and the Boltzmann mean distance of a restrained dimer by quadrature.
import { describe, expect, it } from 'vitest';

import { Batch, type System } from '../../lib/data/index.js';
import {
  BiasHook, ConvergenceHook, coordinate, distance, DynamicsStage, FIRE, harmonic, initializeVelocities, Langevin, VelocityVerlet,
  type DynamicsHookContext,
} from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 });
const dimer = (r: number): System => ({ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [r, 0, 0]] });
const ljBatch = (systems: System[]): Batch => Batch.fromSystems(systems, { units: 'lj' });

/** What the hook adds to zero energies and forces: `[energy per system, forces]`. */
function added(hook: BiasHook, batch: Batch, extra: { workflow?: unknown; subStage?: number | null } = {}): [Float64Array, Float64Array] {
  batch.energy.fill(0);
  batch.forces.fill(0);
  hook.call({ batch, stepCount: 0, workflow: extra.workflow, subStage: extra.subStage ?? null } as unknown as DynamicsHookContext);
  return [batch.energy.slice(), batch.forces.slice()];
}

describe('as upstream test_bias_hook.py has it', () => {
  const threeSystems = (): Batch => ljBatch([dimer(1.1), dimer(1.2), dimer(1.3)]);

  it('a constant bias adds to energies and forces; a zero bias changes nothing', () => {
    const batch = threeSystems();
    batch.energy.set([1, 2, 3]);
    batch.forces.fill(0.25);
    const constant = new BiasHook({ bias: (b) => ({ energy: new Float64Array(b.numSystems).fill(0.5), forces: new Float64Array(3 * b.numAtoms).fill(0.1) }) });
    constant.call({ batch, stepCount: 0, workflow: undefined, subStage: null } as unknown as DynamicsHookContext);
    expect(Array.from(batch.energy)).toEqual([1.5, 2.5, 3.5]);
    expect(batch.forces.every((f) => f === 0.25 + 0.1)).toBe(true);
    const zero = new BiasHook({ bias: (b) => ({ energy: new Float64Array(b.numSystems), forces: new Float64Array(3 * b.numAtoms) }) });
    const [before, forces] = [batch.energy.slice(), batch.forces.slice()];
    zero.call({ batch, stepCount: 1, workflow: undefined, subStage: null } as unknown as DynamicsHookContext);
    expect(batch.energy).toEqual(before);
    expect(batch.forces).toEqual(forces);
  });

  it('a bias of the wrong shape, or not finite, is INVALID_BIAS', () => {
    const batch = threeSystems();
    const shaped = (energy: number, forces: number): BiasHook => new BiasHook({ bias: () => ({ energy: new Float64Array(energy), forces: new Float64Array(forces) }) });
    expect(() => added(shaped(1, 18), batch)).toThrow(expect.objectContaining({ code: 'INVALID_BIAS' }));
    expect(() => added(shaped(3, 3), batch)).toThrow(expect.objectContaining({ code: 'INVALID_BIAS' }));
    const nan = new BiasHook({ bias: (b) => ({ energy: new Float64Array(b.numSystems).fill(Number.NaN), forces: new Float64Array(3 * b.numAtoms) }) });
    expect(() => added(nan, batch)).toThrow(expect.objectContaining({ code: 'INVALID_BIAS' }));
  });

  it('fires at AFTER_COMPUTE, every step by default, or every `frequency` steps', () => {
    const hook = new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 1, center: 1 }) });
    expect([hook.stage, hook.frequency]).toEqual([DynamicsStage.AFTER_COMPUTE, 1]);
    expect(new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 1, center: 1 }), frequency: 5 }).frequency).toBe(5);
    expect(() => new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 1, center: 1 }), frequency: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_FREQUENCY' }));
    expect(() => new BiasHook({ cv: distance(0, 1) } as never)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => distance(0, 0)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => coordinate(0, 'w' as never)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => added(new BiasHook({ cv: distance(0, 5), potential: harmonic({ k: 1, center: 1 }) }), threeSystems())).toThrow(expect.objectContaining({ code: 'ATOM_OUT_OF_RANGE' }));
  });

  it('leaves finished systems alone, and on a FusedStage sub-stage biases that sub-stage\'s systems', () => {
    const batch = threeSystems();
    batch.status.set([0, 1, 2]);
    const hook = new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 10, center: 1 }) });
    const [running] = added(hook, batch, { workflow: { exitStatus: 2 } });
    expect(Array.from(running, (e) => e > 0)).toEqual([true, true, false]);
    const [subStage] = added(hook, batch, { workflow: { exitStatus: 2 }, subStage: 1 });
    expect(Array.from(subStage, (e) => e > 0)).toEqual([false, true, false]);
  });
});

describe('forces are minus the gradient of the bias energy (central differences)', () => {
  const cube = (a: number): number[][] => [[a, 0, 0], [0, a, 0], [0, 0, a]];
  const triclinic: number[][] = [[4, 0, 0], [1.2, 3.8, 0], [-0.7, 0.9, 4.1]];
  const cases: ReadonlyArray<[string, () => BiasHook, System]> = [
    ['distance, free cluster', () => new BiasHook({ cv: distance(0, 2), potential: harmonic({ k: 7, center: 1.1 }) }),
      { symbols: ['Ar', 'Ar', 'Ar'], positions: [[0.1, 0.2, -0.3], [1, 0.4, 0.2], [1.3, -0.8, 0.9]] }],
    ['distance across a periodic boundary (nearest image)', () => new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 3, center: 0.5 }) }),
      { symbols: ['Ar', 'Ar'], positions: [[0.3, 4.8, 2], [4.6, 0.1, 2.2]], cell: cube(5), pbc: [true, true, true] }],
    ['distance in a triclinic cell', () => new BiasHook({ cv: distance(1, 0), potential: harmonic({ k: 2, center: 1.9 }) }),
      { symbols: ['Ar', 'Ar'], positions: [[0.2, 0.3, 0.1], [4.9, 3.9, 3.8]], cell: triclinic, pbc: [true, true, true] }],
    ['coordinate z', () => new BiasHook({ cv: coordinate(1, 'z'), potential: harmonic({ k: 4, center: 0.25 }) }),
      { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0.3, -0.2, 1.7]] }],
  ];

  it.each(cases)('%s', (_, make, system) => {
    const hook = make();
    const batch = ljBatch([system]);
    const [, forces] = added(hook, batch);
    const h = 1e-6;
    const x = batch.read('positions').slice();
    const energyAt = (k: number, shift: number): number => {
      const moved = x.slice();
      moved[k] += shift;
      batch.positions.set(moved);
      return added(hook, batch)[0][0];
    };
    for (let k = 0; k < x.length; k++) {
      const numeric = -(energyAt(k, h) - energyAt(k, -h)) / (2 * h);
      expect(Math.abs(forces[k] - numeric)).toBeLessThan(1e-7 * Math.max(1, Math.abs(numeric)));
    }
    // The test has teeth: the bias is not zero here.
    expect(forces.some((f) => Math.abs(f) > 1e-3)).toBe(true);
  });
});

// U_LJ(r) = 4(r⁻¹² − r⁻⁶) (σ = ε = 1, inside the cutoff) and its force −dU/dr.
const ljEnergy = (r: number): number => 4 * (r ** -12 - r ** -6);
const ljForce = (r: number): number => 24 * (2 * r ** -13 - r ** -7);

describe('in an engine', () => {
  it('FIRE relaxes a restrained dimer to where the LJ force balances the restraint (bisection), from the first step', async () => {
    const k = 5;
    const center = 2;
    // −dU_LJ/dr = k(r − center): bisection on [1.0, 2.0], where the left side falls from + to below the right.
    let [lo, hi] = [1.0, 2.0];
    for (let n = 0; n < 200; n++) {
      const mid = 0.5 * (lo + hi);
      if (ljForce(mid) - k * (mid - center) > 0) lo = mid;
      else hi = mid;
    }
    const batch = ljBatch([dimer(1.2)]);
    const fire = new FIRE({ model: lj(), hooks: [new BiasHook({ cv: distance(0, 1), potential: harmonic({ k, center }) })], convergence: ConvergenceHook.fromFmax(1e-9) });
    const result = await fire.run(batch, { steps: 20_000 });
    expect(result.converged[0]).toBe(1);
    const x = batch.read('positions');
    const r = Math.hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2]);
    expect(r).toBeCloseTo(lo, 8);
    // Without the restraint the dimer would sit at 2^(1/6); the relaxed energy holds the bias.
    expect(Math.abs(r - 2 ** (1 / 6))).toBeGreaterThan(0.05);
    expect(batch.read('energy')[0]).toBeCloseTo(ljEnergy(lo) + 0.5 * k * (lo - center) ** 2, 8);
  });

  it('NVE conserves the biased total energy (model + bias + kinetic)', async () => {
    const batch = ljBatch([dimer(1.15)]);
    batch.velocities.set([0.3, 0.2, -0.1, -0.3, -0.2, 0.1]);
    const totals: number[] = [];
    const md = new VelocityVerlet({ model: lj(), dt: 0.001, hooks: [new BiasHook({ cv: distance(0, 1), potential: harmonic({ k: 30, center: 1.6 }) })] });
    md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx) => { totals.push(ctx.scalars.totalEnergy[0]); } });
    await md.run(batch, { steps: 4000 });
    const spread = Math.max(...totals) - Math.min(...totals);
    expect(spread).toBeLessThan(2e-4);
    // The restraint does work: the potential part swings by far more than the total's spread.
    const x = batch.read('positions');
    expect(Math.hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2])).toBeLessThan(2.4);
  });
});

describe('a restrained dimer samples the Boltzmann distribution (umbrella windows on a distance)', () => {
  it('its mean distance in each window matches the analytic value, by quadrature of r²·exp(−β(U_LJ + U_bias))', async () => {
    const T = 1;
    const k = 20;
    const centers = [1.3, 1.7];
    const perWindow = 16;
    // ⟨r⟩ = ∫ r³ e^{−βW} dr / ∫ r² e^{−βW} dr, W(r) = U_LJ(r) + ½k(r − c)², by Simpson's rule on [0.6, 3].
    const analytic = centers.map((c) => {
      const n = 24_000;
      const [a, b] = [0.6, 3];
      const h = (b - a) / n;
      let [num, den] = [0, 0];
      for (let i = 0; i <= n; i++) {
        const r = a + i * h;
        const weight = i === 0 || i === n ? 1 : i % 2 === 1 ? 4 : 2;
        const boltzmann = r * r * Math.exp(-(ljEnergy(r) + 0.5 * k * (r - c) ** 2) / T);
        num += weight * r * boltzmann;
        den += weight * boltzmann;
      }
      return num / den;
    });
    const systems = centers.flatMap((c) => Array.from({ length: perWindow }, () => dimer(c)));
    const batch = ljBatch(systems);
    initializeVelocities(batch, { temperature: T, seed: 11 });
    const windowCenter = systems.map((_, s) => centers[Math.floor(s / perWindow)]);
    const md = new Langevin({
      model: lj(), dt: 0.005, temperature: T, friction: 5, seed: 7,
      hooks: [new BiasHook({ cv: distance(0, 1), potential: harmonic({ k, center: windowCenter }) })],
    });
    await md.run(batch, { steps: 1000 });
    const sums = [0, 0];
    let samples = 0;
    md.register({
      stage: DynamicsStage.AFTER_STEP, frequency: 10,
      call: (ctx) => {
        const x = ctx.batch.read('positions');
        for (let s = 0; s < systems.length; s++) {
          const i = 6 * s;
          sums[Math.floor(s / perWindow)] += Math.hypot(x[i + 3] - x[i], x[i + 4] - x[i + 1], x[i + 5] - x[i + 2]);
        }
        samples++;
      },
    });
    await md.run(batch, { steps: 15_000 });
    const means = sums.map((sum) => sum / (samples * perWindow));
    // 16 dimers × 1500 samples per window, 10 steps apart (r decorrelates in about 0.2 τ = 40 steps), σ_r ≈ 0.2:
    // the standard error is about 0.003. Forgetting the r² of the 3-D measure would shift each mean by ~0.07.
    means.forEach((mean, w) => expect(Math.abs(mean - analytic[w])).toBeLessThan(0.01));
    // The windows hold the dimer apart from its unbiased mean, which the LJ well alone would give.
    expect(analytic[1] - analytic[0]).toBeGreaterThan(0.3);
  });
});
