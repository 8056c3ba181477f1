import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import {
  DynamicsStage,
  EnergyDriftMonitorHook,
  FIRE,
  FreezeAtomsHook,
  initializeVelocities,
  Langevin,
  MaxForceClampHook,
  NaNDetectorHook,
  ProgressHook,
  StageTimingHook,
  temperatures,
  VelocityVerlet,
  WrapPeriodicHook,
} from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { defineHook } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

function ctxFor(batch: Batch, stepCount = 0): DynamicsHookContext {
  return { batch, stepCount } as unknown as DynamicsHookContext;
}

describe('native built-in hooks', () => {
  it('MaxForceClampHook caps |F| natively and through call()', () => {
    const batch = ljBatch([perturbedLj13(0.3)]);
    let largest = 0;
    const probe = defineHook({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, order: 10, call: (ctx: DynamicsHookContext) => { largest = Math.max(largest, ...ctx.scalars.fmax); } });
    new FIRE({ model: lj(), hooks: [new MaxForceClampHook({ maxForce: 0.5 }), probe] }).runSync(batch, { steps: 5 });
    expect(largest).toBeLessThanOrEqual(0.5 + 1e-12);
    const custom = ljBatch([perturbedLj13(0.3)]);
    lj().compute(custom);
    new MaxForceClampHook({ maxForce: 0.25 }).call(ctxFor(custom));
    const f = custom.read('forces');
    for (let i = 0; i < f.length; i += 3) expect(Math.hypot(f[i], f[i + 1], f[i + 2])).toBeLessThanOrEqual(0.25 + 1e-12);
  });

  it('WrapPeriodicHook keeps every periodic coordinate inside the cell', async () => {
    const batch = ljBatch([ljFcc(3)]);
    initializeVelocities(batch, { temperature: 3, seed: 1 });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [new WrapPeriodicHook()] }).run(batch, { steps: 200 });
    const length = batch.read('cell')[0];
    for (const x of batch.read('positions')) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(length);
    }
    const custom = Batch.fromSystems([{ symbols: ['Ar'], positions: [[-1, 11, 25]], cell: [10, 10, 10], pbc: [true, true, false] }]);
    new WrapPeriodicHook().call(ctxFor(custom));
    const wrapped = custom.read('positions');
    [9, 1, 25].forEach((v, i) => expect(wrapped[i]).toBeCloseTo(v, 12));
  });

  it('FreezeAtomsHook holds masked atoms still under a thermostat', async () => {
    const batch = ljBatch([ljFcc(2)]);
    initializeVelocities(batch, { temperature: 1, seed: 2 });
    const before = batch.read('positions').slice();
    await new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 1, hooks: [new FreezeAtomsHook({ indices: [0, 5] })] }).run(batch, { steps: 100 });
    const after = batch.read('positions');
    for (const i of [0, 5]) for (let c = 0; c < 3; c++) expect(after[3 * i + c]).toBe(before[3 * i + c]);
    expect(after[3]).not.toBe(before[3]);
    expect(() => new FreezeAtomsHook({ mask: [1, 0] }).maskFor(batch)).toThrow(expect.objectContaining({ code: 'INVALID_MASK' }));
  });

  it('NaNDetectorHook fails with a typed error naming the systems and the step', async () => {
    const batch = ljBatch([ljFcc(2), ljFcc(2)]);
    const poison = defineHook({ stage: DynamicsStage.AFTER_PRE_UPDATE, frequency: 1, call: (ctx: DynamicsHookContext) => { if (ctx.stepCount === 3) ctx.batch.positions[3 * 40] = NaN; } });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [poison, new NaNDetectorHook()] });
    await expect(md.run(batch, { steps: 10 })).rejects.toMatchObject({ code: 'NAN_DETECTED', message: expect.stringMatching(/step 3 in systems 1 \(systemId 1\)/) });
  });

  it('NaNDetectorHook names the quantity that went bad and its atom (issue 39 item 16)', async () => {
    // Atom 40 is atom 8 of system 1 (32 atoms each); a NaN velocity turns into NaN positions in the next drift.
    const batch = ljBatch([ljFcc(2), ljFcc(2)]);
    const poison = defineHook({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, call: (ctx: DynamicsHookContext) => { if (ctx.stepCount === 3) ctx.batch.forces[3 * 40 + 1] = Infinity; } });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [poison, new NaNDetectorHook()] });
    const error = await md.run(batch, { steps: 10 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'NAN_DETECTED',
      message: expect.stringMatching(/step [34] in systems 1 \(systemId 1\): .*(forces|velocities|positions) of atom 8 are/),
      details: { systems: [expect.objectContaining({ system: 1, systemId: 1, quantities: expect.arrayContaining([expect.stringMatching(/forces|velocities|positions/)]) })] },
    });
    // The JS form of the check says the same.
    const energy = ljBatch([ljFcc(2)]);
    energy.energy[0] = NaN;
    expect(() => new NaNDetectorHook().call({ batch: energy, stepCount: 7 } as never)).toThrow(expect.objectContaining({
      code: 'NAN_DETECTED', message: 'NaNDetectorHook: non-finite values at step 7 in systems 0 (systemId 0): energy is NaN',
    }));
  });
});

describe('JS built-in hooks', () => {
  it('EnergyDriftMonitorHook records total energy and fails past its limit', async () => {
    const batch = ljBatch([ljFcc(3)]);
    initializeVelocities(batch, { temperature: 1, seed: 3 });
    const drift = new EnergyDriftMonitorHook({ frequency: 10 });
    await new VelocityVerlet({ model: lj(), dt: 0.002, hooks: [drift] }).run(batch, { steps: 101 });
    expect(drift.history.map((h) => h.step)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(drift.maxRelativeDrift()).toBeLessThan(5e-3);
    const strict = new EnergyDriftMonitorHook({ frequency: 10, maxRelativeDrift: 1e-12 });
    await expect(new VelocityVerlet({ model: lj(), dt: 0.05, hooks: [strict] }).run(batch, { steps: 30 })).rejects.toMatchObject({ code: 'HOOK_FAILED' });
  });

  it('StageTimingHook and ProgressHook report', async () => {
    const events: number[] = [];
    const timing = new StageTimingHook({ frequency: 5 });
    const progress = new ProgressHook({ frequency: 5, onProgress: (e) => events.push(e.step) });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [timing, progress] }).run(ljBatch([ljFcc(2)]), { steps: 11 });
    expect(events).toEqual([5, 10]);
    expect(timing.report().map((r) => r.interval)).toContain('BEFORE_COMPUTE → AFTER_COMPUTE');
  });

  it('ProgressHook reports the state after the step it names (issue 39, item 3)', async () => {
    const hot = (): Batch => {
      const batch = ljBatch([ljFcc(2)]);
      initializeVelocities(batch, { temperature: 1.5, seed: 2 });
      return batch;
    };
    const seen: Array<{ step: number; temperature: number }> = [];
    const progress = new ProgressHook({ frequency: 3, onProgress: (e) => seen.push({ step: e.step, temperature: e.temperature }) });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [progress] }).run(hot(), { steps: 7 });
    expect(seen.map((e) => e.step)).toEqual([3, 6]);
    const reference = hot();
    await new VelocityVerlet({ model: lj(), dt: 0.005 }).run(reference, { steps: 3 });
    expect(seen[0].temperature).toBeCloseTo(temperatures(reference)[0], 10);
  });
});
