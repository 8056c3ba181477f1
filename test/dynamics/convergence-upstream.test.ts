// Issue 28 item 2: ConvergenceHook defaults and inputs as nvalchemi's own tests have them
// (test/dynamics/test_single_loop.py::TestConvergenceHook, and _ConvergenceCriterion in
// nvalchemi/dynamics/base.py: custom_op on the raw tensor, reduce_dims).
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, fuse } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

/** One atom per system, with the given x forces (upstream's create_batch_with_status with batch.forces set). */
function withForces(fx: readonly number[], status: readonly number[]): Batch {
  const batch = Batch.fromSystems(fx.map((_, s) => ({ symbols: ['Ar'], positions: [[3 * s, 0, 0]] })), { units: 'lj' });
  const forces = batch.forces;
  fx.forEach((f, s) => { forces[3 * s] = f; });
  batch.status.set(status);
  return batch;
}

const ctxFor = (batch: Batch): DynamicsHookContext => ({ batch, stepCount: 0 }) as unknown as DynamicsHookContext;

describe('defaults (upstream test_default_attributes)', () => {
  it('new ConvergenceHook() is fmax ≤ 0.05, every step, at AFTER_STEP, with no statuses', () => {
    const hook = new ConvergenceHook();
    expect(hook.frequency).toBe(1);
    expect(hook.stage).toBe(DynamicsStage.AFTER_STEP);
    expect(hook.criteria).toEqual([{ key: 'forces', threshold: 0.05, reduceOp: 'norm' }]);
    expect(hook.sourceStatus).toBeUndefined();
    expect(hook.targetStatus).toBeUndefined();
    expect(hook.detectOnly).toBe(true);
  });

  it('fromFmax() defaults to 0.05 too (upstream from_fmax(threshold=0.05))', () => {
    expect(ConvergenceHook.fromFmax().criteria).toEqual([{ key: 'fmax', threshold: 0.05 }]);
  });
});

describe('status migration needs statuses (upstream test_migrates_converged_samples, test_mixed_batch, test_no_status_is_noop)', () => {
  it('with source and target status, converged systems of the source status migrate', () => {
    const batch = withForces([0.01, 0.01, 0.1, 0.1], [0, 2, 0, 2]);
    ConvergenceHook.fromFmax(0.05, { sourceStatus: 0, targetStatus: 1 }).call(ctxFor(batch));
    expect(Array.from(batch.read('status'))).toEqual([1, 2, 0, 2]);
  });

  it('with no status arguments it only detects: statuses stay, the systems are reported', () => {
    const batch = withForces([0.01, 0.02, 0.03], [0, 0, 0]);
    const hook = new ConvergenceHook();
    hook.call(ctxFor(batch));
    expect(Array.from(batch.read('status'))).toEqual([0, 0, 0]);
    expect(Array.from(hook.newlyConvergedAt(0) ?? [])).toEqual([1, 1, 1]);
  });

  it('in a single-stage engine, a status-less hook in `hooks` stops updating the systems it passes (seed 000)', async () => {
    // nvalchemi's composing example: FIRE(hooks=[ConvergenceHook.from_fmax(0.05), LoggingHook(...)]).
    const reported: number[] = [];
    const fire = new FIRE({ model: lj(), hooks: [ConvergenceHook.fromFmax(1e-2)] });
    fire.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { ctx.convergedMask?.forEach((m, s) => { if (m) reported.push(s); }); } });
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.3)]);
    const frozenAt: number[][] = [];
    fire.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx: DynamicsHookContext) => { if (ctx.batch.status[0] === 1) frozenAt.push(Array.from(ctx.batch.positions.subarray(0, 39))); } });
    const result = await fire.run(batch, { steps: 500 });
    expect(result.steps).toBeLessThan(500);
    expect(Array.from(batch.read('status'))).toEqual([1, 1]);
    expect(Array.from(result.converged)).toEqual([1, 1]);
    expect(reported.sort()).toEqual([0, 1]);
    // Once converged, system 0 is not moved while system 1 goes on.
    expect(frozenAt.length).toBeGreaterThan(1);
    for (const positions of frozenAt) expect(positions).toEqual(frozenAt[0]);
  });

  it('a single criterion object is accepted, and a FusedStage keeps a status-less hook detect-only', async () => {
    const one = new ConvergenceHook({ criteria: { key: 'fmax', threshold: 1e-2 } });
    expect(one.criteria).toEqual([{ key: 'fmax', threshold: 1e-2 }]);
    const result = await new FIRE({ model: lj(), hooks: [one] }).run(ljBatch([perturbedLj13(0.1)]), { steps: 300 });
    expect(result.steps).toBeLessThan(300);
    const plain = await new FIRE({ model: lj(), convergence: { criteria: { key: 'fmax', threshold: 1e-2 } } }).run(ljBatch([perturbedLj13(0.1)]), { steps: 300 });
    expect(plain.steps).toBe(result.steps);
    const fused = fuse(new FIRE({ model: lj(), hooks: [ConvergenceHook.fromFmax(1e-2)] }), new FIRE({ model: lj() }));
    const batch = ljBatch([perturbedLj13(0.1)]);
    const run = await fused.run(batch, { steps: 300 });
    expect(run.steps).toBe(300);
    expect(Array.from(batch.read('status'))).toEqual([0]);
  });
});

describe('customOp receives the raw values with the system index (upstream _ConvergenceCriterion.custom_op)', () => {
  it('per-atom rows, the system of each row, and one verdict per system back', async () => {
    const seen: { length: number; index: number[]; width: number }[] = [];
    const batch = Batch.fromSystems([perturbedLj13(0.1), { symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [1.1, 0, 0]] }], { units: 'lj' });
    const hook = new ConvergenceHook({
      sourceStatus: 0,
      criteria: [{
        key: 'forces', threshold: 0,
        customOp: (values, systemIndex, info) => {
          seen.push({ length: values.length, index: Array.from(systemIndex), width: info.width });
          return Array.from({ length: info.numSystems }, (_, s) => s === 1);
        },
      }],
    });
    await new FIRE({ model: lj(), convergence: hook }).run(batch, { steps: 1 });
    expect(seen[0]).toEqual({ length: 3 * 15, index: [...Array(13).fill(0), 1, 1], width: 3 });
    expect(Array.from(batch.read('status'))).toEqual([0, 1]);
  });

  it('a verdict of the wrong length is a typed error', () => {
    const hook = new ConvergenceHook({ sourceStatus: 0, criteria: [{ key: 'forces', threshold: 0, customOp: (values) => Array.from(values, () => true) }] });
    expect(() => hook.call(ctxFor(withForces([0.1, 0.2], [0, 0])))).toThrow(expect.objectContaining({ code: 'INVALID_CRITERION' }));
  });
});

describe('reduceDims (upstream _ConvergenceCriterion.reduce_dims)', () => {
  it('reduces over the named dimensions of the key, then takes the largest per system', () => {
    // Two atoms with forces (1, 0, 0) and (-1, 0.5, 0): the net force is (0, 0.5, 0).
    const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [3, 0, 0]] }], { units: 'lj' });
    batch.forces.set([1, 0, 0, -1, 0.5, 0]);
    const meets = (criterion: ConstructorParameters<typeof ConvergenceHook>[0]): number => {
      const hook = new ConvergenceHook({ ...criterion, sourceStatus: 0, targetStatus: 1 });
      batch.status[0] = 0;
      hook.call(ctxFor(batch));
      return batch.read('status')[0];
    };
    // Over the atoms (dimension 0): the net force's largest component, 0.5.
    expect(meets({ criteria: [{ key: 'forces', threshold: 0.5, reduceOp: 'sum', reduceDims: 0 }] })).toBe(1);
    expect(meets({ criteria: [{ key: 'forces', threshold: 0.49, reduceOp: 'sum', reduceDims: 0 }] })).toBe(0);
    // Over the components (-1, the default entry): the largest atom norm, √1.25.
    expect(meets({ criteria: [{ key: 'forces', threshold: 1.12, reduceOp: 'norm', reduceDims: -1 }] })).toBe(1);
    expect(meets({ criteria: [{ key: 'forces', threshold: 1.11, reduceOp: 'norm', reduceDims: [-1] }] })).toBe(0);
    // Both: √(1 + 1 + 0.25) = 1.5.
    expect(meets({ criteria: [{ key: 'forces', threshold: 1.5, reduceOp: 'norm', reduceDims: [0, 1] }] })).toBe(1);
  });

  it('a stress row reduction, and dimensions that mix systems or do not exist are typed errors', () => {
    const batch = withForces([0], [0]);
    batch.stress.set([3, 0, 0, 0, 4, 0, 0, 0, 1]);
    const hook = new ConvergenceHook({ sourceStatus: 0, criteria: [{ key: 'stress', threshold: 4, reduceOp: 'norm', reduceDims: -1 }] });
    hook.call(ctxFor(batch));
    expect(batch.read('status')[0]).toBe(1);
    expect(hook.isNative).toBe(false);
    expect(() => new ConvergenceHook({ criteria: [{ key: 'stress', threshold: 1, reduceOp: 'norm', reduceDims: 0 }] })).toThrow(expect.objectContaining({ code: 'INVALID_CRITERION' }));
    expect(() => new ConvergenceHook({ criteria: [{ key: 'forces', threshold: 1, reduceOp: 'norm', reduceDims: 2 }] })).toThrow(expect.objectContaining({ code: 'INVALID_CRITERION' }));
    expect(() => new ConvergenceHook({ criteria: [{ key: 'forces', threshold: 1, reduceDims: -1 }] })).toThrow(expect.objectContaining({ code: 'INVALID_CRITERION' }));
  });
});
