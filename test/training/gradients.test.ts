// The native loss gradient against central finite differences of the loss, for every model option that
// changes the pair term (shift, switch, species tables), every loss term, and both energy normalizations.
import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { LennardJones, Morse } from '../../lib/models/index.js';
import type { Model } from '../../lib/models/index.js';
import { getThreads, setThreads } from '../../lib/native/index.js';
import { ForceMatchingLoss } from '../../lib/training/index.js';
import type { LossWeights, ParameterValues } from '../../lib/training/index.js';
import { argonSet, label, randomCluster, strainedCrystal } from './argon-data.js';

const threads = getThreads();
afterAll(() => {
  setThreads(threads);
});

/** Max over parameters of |analytic − numeric| / max(|analytic|, |numeric|, floor). */
function worstGradientError(fm: ForceMatchingLoss, at: ParameterValues): { worst: number; gradient: ParameterValues } {
  const gradient = fm.evaluate({ parameters: at, gradient: true }).gradient!;
  const floor = 1e-6 * Math.max(...Object.values(gradient).map(Math.abs));
  let worst = 0;
  for (const name of fm.parameterNames) {
    const h = 1e-5 * at[name];
    const plus = fm.evaluate({ parameters: { ...at, [name]: at[name] + h } }).loss;
    const minus = fm.evaluate({ parameters: { ...at, [name]: at[name] - h } }).loss;
    const numeric = (plus - minus) / (2 * h);
    worst = Math.max(worst, Math.abs(gradient[name] - numeric) / Math.max(Math.abs(gradient[name]), Math.abs(numeric), floor));
  }
  return { worst, gradient };
}

const ALL_TERMS: LossWeights = { energy: 1, forces: 3, stress: 50, perAtomEnergy: true };

const cases: Array<{ name: string; reference: Model; start: Model; at: ParameterValues; weights: LossWeights }> = [
  {
    name: 'LJ, shifted',
    reference: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true }),
    start: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, shift: true }),
    at: { epsilon: 0.012, sigma: 3.3 },
    weights: ALL_TERMS,
  },
  {
    name: 'LJ, switched, energy per system',
    reference: new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, switchOn: 7 }),
    start: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, switchOn: 7 }),
    at: { epsilon: 0.009, sigma: 3.45 },
    weights: { ...ALL_TERMS, perAtomEnergy: false },
  },
  {
    name: 'Morse, shifted',
    reference: new Morse({ D: 0.0104, alpha: 1.2, r0: 3.8, cutoff: 8.5, shift: true }),
    start: new Morse({ D: 0.02, alpha: 1.0, r0: 3.6, cutoff: 8.5, shift: true }),
    at: { D: 0.012, alpha: 1.1, r0: 3.75 },
    weights: ALL_TERMS,
  },
  {
    name: 'Morse, switched',
    reference: new Morse({ D: 0.0104, alpha: 1.2, r0: 3.8, cutoff: 8.5, switchOn: 6.5 }),
    start: new Morse({ D: 0.02, alpha: 1.0, r0: 3.6, cutoff: 8.5, switchOn: 6.5 }),
    at: { D: 0.011, alpha: 1.25, r0: 3.9 },
    weights: ALL_TERMS,
  },
];

describe('ForceMatchingLoss gradients', () => {
  it.each(cases)('match central finite differences: $name', ({ reference, start, at, weights }) => {
    const systems = argonSet(reference, { clusters: 3, crystals: 3, seed: 11 });
    const fm = new ForceMatchingLoss({ model: start as LennardJones, systems, weights });
    const { worst, gradient } = worstGradientError(fm, at);
    expect(Object.values(gradient).every((g) => Math.abs(g) > 0)).toBe(true);
    expect(worst).toBeLessThan(1e-6);
  });

  it('match finite differences per species pair (Ar–Kr table, each term alone)', () => {
    const pairs = (scale: number): Record<string, { epsilon: number; sigma: number }> => ({
      'Ar-Ar': { epsilon: 0.0104 * scale, sigma: 3.4 },
      'Kr-Kr': { epsilon: 0.0141 * scale, sigma: 3.65 },
      'Ar-Kr': { epsilon: 0.0121 * scale, sigma: 3.52 },
    });
    const reference = new LennardJones({ cutoff: 9, shift: true, pairs: pairs(1) });
    const mixed = [randomCluster(20, 3, ['Ar', 'Kr'], 3.4), randomCluster(16, 4, ['Kr', 'Ar', 'Ar'], 3.4), strainedCrystal([0.01, -0.02, 0.015], 5, 'Ar')];
    const systems = label(reference, mixed);
    const at: ParameterValues = {
      'Ar-Ar.epsilon': 0.011, 'Ar-Ar.sigma': 3.3, 'Kr-Kr.epsilon': 0.013, 'Kr-Kr.sigma': 3.7, 'Ar-Kr.epsilon': 0.012, 'Ar-Kr.sigma': 3.45,
    };
    for (const weights of [{ energy: 1, forces: 0 }, { energy: 0, forces: 1 }, { energy: 0, forces: 0, stress: 1 }]) {
      const fm = new ForceMatchingLoss({ model: new LennardJones({ cutoff: 9, shift: true, pairs: pairs(1.5) }), systems, weights });
      expect(fm.parameterNames).toEqual(Object.keys(at));
      expect(worstGradientError(fm, at).worst).toBeLessThan(1e-6);
    }
  });

  it('are zero, with zero loss, at the parameters that made the data', () => {
    const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true });
    const systems = argonSet(model, { clusters: 4, crystals: 4, seed: 5 });
    const fm = new ForceMatchingLoss({ model, systems, weights: ALL_TERMS });
    const result = fm.evaluate({ gradient: true });
    expect(result.loss).toBeLessThan(1e-24);
    for (const g of Object.values(result.gradient!)) expect(Math.abs(g)).toBeLessThan(1e-10);
    expect(result.metrics.forcesMae).toBeLessThan(1e-12);
  });

  it('predict what the model computes', () => {
    const model = new Morse({ D: 0.0104, alpha: 1.2, r0: 3.8, cutoff: 8.5, switchOn: 6.5 });
    const systems = argonSet(model, { clusters: 2, crystals: 2, seed: 8 });
    const other = new Morse({ D: 0.02, alpha: 1.0, r0: 3.6, cutoff: 8.5, switchOn: 6.5 });
    const fm = new ForceMatchingLoss({ model: other, systems, weights: { energy: 1, forces: 1, stress: 1, perAtomEnergy: false } });
    // The loss against the reference equals the one computed by hand from the other model's predictions.
    const batch = Batch.fromSystems(systems);
    other.compute(batch, { stress: true });
    let energy = 0;
    let forces = 0;
    let stress = 0;
    const ref = systems.map((s) => s.energy!);
    for (let s = 0; s < systems.length; s++) energy += (batch.energy[s] - ref[s]) ** 2;
    const refForces = systems.flatMap((s) => (s.forces as number[][]).flat());
    for (let k = 0; k < refForces.length; k++) forces += (batch.forces[k] - refForces[k]) ** 2;
    const stressed = systems.map((s, i) => [s, i] as const).filter(([s]) => s.stress !== undefined);
    for (const [s, i] of stressed) (s.stress as number[][]).flat().forEach((v, c) => (stress += (batch.stress[9 * i + c] - v) ** 2));
    const result = fm.evaluate();
    expect(Math.abs(result.losses.energy / (energy / systems.length) - 1)).toBeLessThan(1e-10);
    expect(Math.abs(result.losses.forces / (forces / refForces.length) - 1)).toBeLessThan(1e-10);
    expect(Math.abs(result.losses.stress / (stress / (9 * stressed.length)) - 1)).toBeLessThan(1e-10);
  });

  it('do not depend on the thread count, bit for bit', () => {
    const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, switchOn: 7 });
    const systems = argonSet(model, { clusters: 6, crystals: 6, seed: 9 });
    const run = (n: number): number[] => {
      setThreads(n);
      const fm = new ForceMatchingLoss({ model: new LennardJones({ epsilon: 0.02, sigma: 3.0, cutoff: 8.5, switchOn: 7 }), systems, weights: ALL_TERMS });
      const r = fm.evaluate({ gradient: true, systems: [3, 1, 4, 1, 5, 9, 2, 6] });
      return [r.loss, ...Object.values(r.gradient!), r.metrics.energyMae, r.metrics.forcesRmse];
    };
    const one = run(1);
    const many = run(Math.max(2, threads));
    expect(many).toStrictEqual(one);
  });
});
