import { describe, expect, it } from 'vitest';

import { ConvergenceHook, DynamicsStage, FIRE, FIRE2, GradientDescent } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { LJ13_MINIMUM, ljBatch, perturbedLj13 } from './lj-systems.js';

// ASE 3.22's FIRE (ase.optimize.FIRE, defaults) with its LennardJones(epsilon=1, sigma=1, rc=10) on the
// same start (perturbedLj13(0.2)) took 129 steps to fmax 1e-4 and 114 to 1e-3 (run once with Debian's
// python3-ase, 2026-11-25; script in docs/dynamics.md).
const ASE_FIRE_STEPS_1E4 = 129;

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('FIRE', () => {
  it('relaxes 64 perturbed LJ13 clusters to the global minimum −44.326801 ε', async () => {
    const batch = ljBatch(Array.from({ length: 64 }, (_, i) => perturbedLj13(0.15, 0.1 * i)));
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-4) });
    const result = await fire.run(batch, { steps: 5000 });
    expect(Array.from(result.converged).every((c) => c === 1)).toBe(true);
    // cutoff 10σ exceeds every LJ13 distance, so without a shift the energy is the full LJ energy.
    for (const e of batch.read('energy')) expect(e).toBeCloseTo(LJ13_MINIMUM, 5);
  });

  it(`takes within ±10% of ASE's ${ASE_FIRE_STEPS_1E4} steps on the same input`, () => {
    const batch = ljBatch([perturbedLj13(0.2)]);
    const result = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-4) }).runSync(batch, { steps: 10_000 });
    expect(result.converged[0]).toBe(1);
    // ASE counts the steps before its convergence check passes; ours converge during the last step taken.
    expect(Math.abs(result.steps - ASE_FIRE_STEPS_1E4)).toBeLessThanOrEqual(0.1 * ASE_FIRE_STEPS_1E4);
  });

  it('the run ends early once every system has converged, and converged systems stay frozen bit for bit', () => {
    const batch = ljBatch([perturbedLj13(0.01), perturbedLj13(0.3, 2)]);
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-2) });
    let frozen: Float64Array | undefined;
    fire.register({
      stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: 'snapshot',
      call: (ctx) => {
        if (ctx.convergedMask?.[0] === 1 && frozen === undefined) frozen = ctx.batch.read('positions').slice(0, 39);
      },
    });
    const result = fire.runSync(batch, { steps: 10_000 });
    expect(result.steps).toBeLessThan(10_000);
    expect(Array.from(result.converged)).toEqual([1, 1]);
    expect(frozen).toBeDefined();
    expect(Array.from(batch.read('positions').slice(0, 39))).toEqual(Array.from(frozen as Float64Array));
  });
});

describe('FIRE2 and gradient descent', () => {
  it.each([
    ['FIRE2', () => new FIRE2({ model: model(), convergence: ConvergenceHook.fromFmax(1e-4) })],
    ['GradientDescent', () => new GradientDescent({ model: model(), stepSize: 0.001, convergence: ConvergenceHook.fromFmax(1e-4) })],
  ])('%s reaches the LJ13 minimum from a small perturbation', (_, make) => {
    const batch = ljBatch([perturbedLj13(0.05), perturbedLj13(0.05, 1.3)]);
    const result = make().runSync(batch, { steps: 20_000 });
    expect(Array.from(result.converged)).toEqual([1, 1]);
    for (const e of batch.read('energy')) expect(e).toBeCloseTo(LJ13_MINIMUM, 4);
  });
});
