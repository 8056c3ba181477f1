// Issue 13, items 3 and 10, and the ConvergenceHook criteria table of docs/dynamics.md.
import { describe, expect, it } from 'vitest';

import { Batch, ConvergenceHook, DynamicsStage, FIRE, JsModel, LennardJones } from '../../lib/index.js';
import type { ConvergenceCriterion, DynamicsHookContext } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

/** Forces chosen per atom: system 0 has 4 atoms of |F| = 1 each (√Σ|F|² = 2); system 1 one atom of |F| = 1.5. */
const fixedForces = new JsModel((batch) => {
  const forces = new Float64Array(3 * batch.numAtoms);
  const ptr = batch.ptr;
  for (let i = ptr[0]; i < ptr[1]; i++) forces[3 * i] = 1;
  for (let i = ptr[1]; i < ptr[2]; i++) forces[3 * i + 1] = i === ptr[1] ? -1.5 : 0;
  return { energy: new Float64Array(batch.numSystems), forces };
});
const line = (n: number): { symbols: string[]; positions: number[][] } => ({ symbols: Array(n).fill('Ar'), positions: Array.from({ length: n }, (_, i) => [2 * i, 0, 0]) });

function verdict(criterion: ConvergenceCriterion): number[] {
  const batch = Batch.fromSystems([line(4), line(2)], { units: 'lj' });
  const engine = new FIRE({ model: fixedForces, convergence: new ConvergenceHook({ criteria: [criterion] }) });
  engine.runSync(batch, { steps: 1 });
  return Array.from(batch.read('status'));
}

describe('reduceOp has nvalchemi\'s two-level meaning (item 3)', () => {
  it("'norm' is each atom's norm, then the max over atoms; 'systemNorm' the whole-system norm", () => {
    expect(verdict({ key: 'forces', threshold: 1.2, reduceOp: 'norm' })).toEqual([1, 0]);
    expect(verdict({ key: 'forces', threshold: 1.2, reduceOp: 'systemNorm' })).toEqual([0, 0]);
    expect(verdict({ key: 'forces', threshold: 1.6, reduceOp: 'systemNorm' })).toEqual([0, 1]);
  });

  it('without reduceOp an atom reduces to its largest component; min, sum and mean work within the atom', () => {
    expect(verdict({ key: 'forces', threshold: 0.5 })).toEqual([0, 1]);
    expect(verdict({ key: 'forces', threshold: -1, reduceOp: 'min' })).toEqual([0, 0]);
    expect(verdict({ key: 'forces', threshold: 0.2, reduceOp: 'sum' })).toEqual([0, 1]);
    expect(verdict({ key: 'forces', threshold: 0.34, reduceOp: 'mean' })).toEqual([1, 1]);
  });

  it('the JS evaluation (reduceDims) gives the native verdicts', () => {
    expect(verdict({ key: 'forces', threshold: 1.2, reduceOp: 'norm', reduceDims: -1 })).toEqual([1, 0]);
    expect(verdict({ key: 'forces', threshold: 1.6, reduceOp: 'norm', reduceDims: [0, 1] })).toEqual([0, 1]);
  });
});

describe('ConvergenceHook keys, detect-only, plain objects (item 10)', () => {
  it('any batch array, custom ones included, is a key', () => {
    const batch = Batch.fromSystems([line(2), line(2)], { units: 'lj' });
    const score = batch.registerField('score', { per: 'system' });
    score.set([0.1, 5]);
    const engine = new FIRE({ model: fixedForces, convergence: { criteria: [{ key: 'score', threshold: 1 }] } });
    engine.runSync(batch, { steps: 1 });
    expect(Array.from(batch.read('status'))).toEqual([1, 0]);
  });

  it('targetStatus: null reports converged systems once, without changing status', async () => {
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 3)]);
    const reported: number[] = [];
    const fire = new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: ConvergenceHook.fromFmax(1e-2, { targetStatus: null }) });
    fire.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => ctx.convergedMask?.forEach((m, s) => { if (m) reported.push(s); }) });
    const result = await fire.run(batch, { steps: 400 });
    expect(result.steps).toBe(400);
    expect(Array.from(batch.read('status'))).toEqual([0, 0]);
    expect([...reported].sort()).toEqual([0, 1]);
    expect(Array.from(result.converged)).toEqual([1, 1]);
  });
});

describe('the criteria table', () => {
  const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

  it('criteria are ANDed', async () => {
    const fmaxOnly = ljBatch([perturbedLj13(0.1)]);
    const steps = (await new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-2) }).run(fmaxOnly, { steps: 2000 })).steps;
    const both = ljBatch([perturbedLj13(0.1)]);
    const hook = new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: 1e-2 }, { key: 'energy', threshold: -1e9 }] });
    const result = await new FIRE({ model: model(), convergence: hook }).run(both, { steps: steps + 50 });
    expect(result.steps).toBe(steps + 50);
    expect(both.read('status')[0]).toBe(0);
  });

  it('energyChange compares with the previous check, and is never met at the first', async () => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    const first = new FIRE({ model: model(), convergence: { criteria: [{ key: 'energyChange', threshold: 1e9 }] } });
    expect((await first.run(batch, { steps: 10 })).steps).toBe(2);
  });

  it('customOp decides per system from the reduced values', async () => {
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 5)]);
    const hook = new ConvergenceHook({ criteria: [{ key: 'fmax', threshold: 0, customOp: (values) => Array.from(values, (_, s) => s === 1) }] });
    await new FIRE({ model: model(), convergence: hook }).run(batch, { steps: 3 });
    expect(Array.from(batch.read('status'))).toEqual([0, 1]);
  });

  it('sourceStatus and targetStatus chain checks', async () => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    const fire = new FIRE({
      model: model(), exitStatus: 2,
      convergence: [ConvergenceHook.fromFmax(1e-1, { sourceStatus: 0, targetStatus: 1 }), ConvergenceHook.fromFmax(1e-3, { sourceStatus: 1, targetStatus: 2 })],
    });
    const statuses: number[] = [];
    fire.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx) => { statuses.push(ctx.batch.read('status')[0]); } });
    await fire.run(batch, { steps: 2000 });
    expect(statuses).toEqual([1, 2]);
  });

  it('frequency > 1 checks only every frequency steps', async () => {
    const batch = ljBatch([perturbedLj13(0.1)]);
    const result = await new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e9, { frequency: 7 }) }).run(batch, { steps: 100 });
    expect(result.steps).toBe(1);
    const later = ljBatch([perturbedLj13(0.1)]);
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-2, { frequency: 7 }) });
    const every = await new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-2) }).run(ljBatch([perturbedLj13(0.1)]), { steps: 2000 });
    const sparse = await fire.run(later, { steps: 2000 });
    expect(sparse.steps % 7).toBe(1);
    expect(sparse.steps).toBeGreaterThanOrEqual(every.steps);
    expect(sparse.steps).toBeLessThan(every.steps + 7);
  });
});
