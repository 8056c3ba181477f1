// ReplicaExchangeHook: the Metropolis rule by hand, the swap of two systems (positions, forces, energies,
// velocities rescaled by sqrt(T_new/T_old)) on a batch, determinism from the seed, and the statistical check
// that replica exchange samples the canonical ensemble: at each temperature of a Langevin ladder, the
// potential energies sampled with exchanges have the distribution that a run at that temperature alone gives
// (two-sample Kolmogorov–Smirnov test on samples 100 steps apart, 20 Langevin relaxation times 1/γ).
import { describe, expect, it } from 'vitest';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import { DynamicsStage, exchangeProbability, initializeVelocities, Langevin, NoseHooverChain, ReplicaExchangeHook } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';

const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
const crystal = repeat(bulk('Ar', 'fcc', { a: 5.3, cubic: true }), 2);
const LADDER = [30, 38, 48];

/** The two-sample Kolmogorov–Smirnov statistic sup |F_a − F_b|. */
function ksStatistic(a: number[], b: number[]): number {
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < x.length && j < y.length) {
    const v = Math.min(x[i]!, y[j]!);
    while (i < x.length && x[i]! <= v) i++;
    while (j < y.length && y[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / x.length - j / y.length));
  }
  return d;
}

/** The critical value of that statistic at false-alarm rate α (asymptotic: c(α)·sqrt((n + m)/(n·m))). */
const ksCritical = (alpha: number, n: number, m: number): number => Math.sqrt(-Math.log(alpha / 2) / 2) * Math.sqrt((n + m) / (n * m));

/** Potential energies of each system, every `every` steps after `equilibrate` steps. */
async function sample(engine: Langevin | NoseHooverChain, batch: Batch, steps: number, every: number): Promise<number[][]> {
  await engine.run(batch, { steps: 2000 });
  const samples: number[][] = LADDER.map(() => []);
  engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: every, call: (ctx: { batch: Batch }) => ctx.batch.energy.forEach((e, s) => samples[s]!.push(e)) });
  await engine.run(batch, { steps });
  return samples;
}

const ladder = (seed: number): Batch => {
  const batch = Batch.fromSystems(LADDER.map(() => crystal));
  initializeVelocities(batch, { temperature: LADDER, seed });
  return batch;
};

describe('ReplicaExchangeHook', () => {
  it('accepts with min(1, exp((β_i − β_j)(E_i − E_j)))', () => {
    // β_i = 1, β_j = 0.5: the colder replica higher in energy always goes up; the other way with exp(−1).
    expect(exchangeProbability(1, 0.5, -10, -12)).toBe(1);
    expect(exchangeProbability(1, 0.5, -12, -10)).toBeCloseTo(Math.exp(-1), 15);
    expect(exchangeProbability(1, 1, -12, -10)).toBe(1);
  });

  it('an accepted swap exchanges positions, forces and energies, and rescales the velocities', () => {
    const batch = Batch.fromSystems([crystal, crystal]);
    initializeVelocities(batch, { temperature: [30, 60], seed: 4 });
    model.compute(batch);
    const n = 3 * crystal.positions.length;
    batch.positions[0] += 0.1;
    const [x, v, f] = [batch.positions.slice(), batch.velocities.slice(), batch.forces.slice()];
    // The colder system far higher in energy: exchanged with probability 1.
    batch.energy[0] = 1;
    batch.energy[1] = -1;
    const hook = new ReplicaExchangeHook({ temperatures: [30, 60], every: 1, seed: 0 });
    hook.call({ batch, stepCount: 7 } as never);
    expect(Array.from(batch.positions.subarray(0, n))).toEqual(Array.from(x.subarray(n)));
    expect(Array.from(batch.forces.subarray(n))).toEqual(Array.from(f.subarray(0, n)));
    expect(Array.from(batch.energy)).toEqual([-1, 1]);
    expect(batch.velocities[0]).toBeCloseTo(v[n]! * Math.sqrt(30 / 60), 14);
    expect(batch.velocities[n]).toBeCloseTo(v[0]! * Math.sqrt(60 / 30), 14);
    // Now the colder one is far lower: exp(−(1/kT30 − 1/kT60)·2 eV) underflows, and nothing moves.
    batch.energy[0] = -1;
    batch.energy[1] = 1;
    const before = batch.positions.slice();
    hook.call({ batch, stepCount: 8 } as never);
    hook.call({ batch, stepCount: 9 } as never);
    expect(batch.positions).toEqual(before);
    const report = hook.report();
    // Two systems have one pair, the even one: the odd round between attempts nothing.
    expect(report.attempts[0]?.[1]).toBe(2);
    expect(report.accepted[0]?.[1]).toBe(1);
    expect(report.replicaOf).toEqual([1, 0]);
    expect(report.trajectories).toEqual([[60, 60, 60], [30, 30, 30]]);
    // AFTER_STEP of step k exchanged the state after k + 1 steps.
    expect(report.steps).toEqual([8, 9, 10]);
  });

  it('refuses bad options, and systems that cannot exchange', () => {
    expect(() => new ReplicaExchangeHook({ temperatures: [30], every: 10 })).toThrow(/two temperatures or more/);
    expect(() => new ReplicaExchangeHook({ temperatures: [30, -1], every: 10 })).toThrow(/temperatures\[1\] must be a number > 0/);
    expect(() => new ReplicaExchangeHook({ temperatures: [30, 40], every: 0 })).toThrow(/every must be an integer >= 1/);
    const hook = new ReplicaExchangeHook({ temperatures: [30, 40], every: 1 });
    const other = Batch.fromSystems([crystal, { ...crystal, cell: [[10.7, 0, 0], [0, 10.6, 0], [0, 0, 10.6]] }]);
    expect(() => hook.call({ batch: other, stepCount: 0 } as never)).toThrow(/system 1 has other atoms, another order or another cell/);
    expect(() => hook.call({ batch: Batch.fromSystems([crystal]), stepCount: 0 } as never)).toThrow(/2 temperatures but the batch has 1 systems/);
  });

  it('is deterministic from its seed and the engine’s', async () => {
    const run = async (): Promise<unknown> => {
      const exchange = new ReplicaExchangeHook({ temperatures: LADDER, every: 20, seed: 5 });
      const batch = ladder(1);
      await new NoseHooverChain({ model, dt: 5, temperature: LADDER, tdamp: 500, hooks: [exchange] }).run(batch, { steps: 1000 });
      return { report: exchange.report(), energy: Array.from(batch.energy) };
    };
    const first = (await run()) as { report: { accepted: number[][] } };
    expect(first.report.accepted[0]?.[1]).toBeGreaterThan(0);
    expect(await run()).toEqual(first);
  });

  it('samples the potential energy at each temperature as a run at that temperature alone (KS, α = 1e-3 each)', async () => {
    const exchange = new ReplicaExchangeHook({ temperatures: LADDER, every: 20, seed: 3 });
    const withExchange = await sample(new Langevin({ model, dt: 5, temperature: LADDER, friction: 0.01, seed: 2, hooks: [exchange] }), ladder(1), 60000, 100);
    const alone = await sample(new Langevin({ model, dt: 5, temperature: LADDER, friction: 0.01, seed: 11 }), ladder(9), 60000, 100);
    const report = exchange.report();
    // The replicas really move along the ladder: every neighbour pair exchanges often.
    expect(report.acceptance[0]?.[1]).toBeGreaterThan(0.1);
    expect(report.acceptance[1]?.[2]).toBeGreaterThan(0.1);
    expect(new Set(report.trajectories[0]).size).toBe(LADDER.length);
    // Three tests at α = 1e-3 each: a correct sampler fails this with probability ≤ 0.3 % (samples 100 steps apart,
    // their lag-1 autocorrelation below 0.1, taken as independent).
    LADDER.forEach((t, s) => {
      const [a, b] = [withExchange[s] as number[], alone[s] as number[]];
      expect(ksStatistic(a, b), `T = ${t} K`).toBeLessThan(ksCritical(1e-3, a.length, b.length));
    });
    // The test can tell the temperatures apart: the coldest replica's energies are not the next one's.
    const [cold, warm] = [withExchange[0] as number[], alone[1] as number[]];
    expect(ksStatistic(cold, warm)).toBeGreaterThan(ksCritical(1e-3, cold.length, warm.length));
  });
});
