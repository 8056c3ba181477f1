import { describe, expect, it } from 'vitest';

import { ConvergenceHook, DynamicsStage, FIRE, fuse, FusedStage, Langevin, temperatures } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { defineHook } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { LJ13_MINIMUM, ljBatch, perturbedLj13 } from './lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('FusedStage: FIRE → Langevin', () => {
  it('every system relaxes, then thermalizes, and the migration counts are right', async () => {
    const batch = ljBatch(Array.from({ length: 12 }, (_, i) => perturbedLj13(0.1 + 0.02 * i, i)));
    const relaxedAtMigration: number[] = [];
    const subStageSeen = new Set<number | null>();
    const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-3) });
    fire.register(defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 7, call: (ctx: DynamicsHookContext) => { subStageSeen.add(ctx.subStage); } }));
    const nvt = new Langevin({ model: model(), dt: 0.005, temperature: 0.05, friction: 1, seed: 4 });
    const pipeline = fuse(fire, nvt).withBudgets([undefined, 200]);
    expect(pipeline).toBeInstanceOf(FusedStage);
    expect(pipeline.exitStatus).toBe(2);
    const migrations: number[] = [];
    pipeline.register(defineHook({
      stage: DynamicsStage.ON_CONVERGE, frequency: 1,
      call: (ctx: DynamicsHookContext) => {
        const energy = ctx.batch.read('energy');
        ctx.convergedMask?.forEach((newly, s) => {
          if (newly === 1) {
            migrations.push(s);
            relaxedAtMigration.push(energy[s]);
          }
        });
      },
    }));
    const result = await pipeline.run(batch, { steps: 5000 });
    // Every system converged out of FIRE exactly once, at the LJ13 minimum.
    expect([...migrations].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, s) => s));
    for (const e of relaxedAtMigration) expect(e).toBeCloseTo(LJ13_MINIMUM, 3);
    // Then each spent its 200-step Langevin budget and finished.
    expect(Array.from(batch.read('status'))).toEqual(Array(12).fill(2));
    expect(Array.from(result.converged)).toEqual(Array(12).fill(1));
    const t = temperatures(batch);
    for (const value of t) expect(value).toBeGreaterThan(0.005);
    expect(subStageSeen).toEqual(new Set([0]));
  });

  it('sub-stage k updates only its own systems', async () => {
    const batch = ljBatch([perturbedLj13(0.2), perturbedLj13(0.2)]);
    batch.status[1] = 1;
    const fire = new FIRE({ model: model() });
    const nvt = new Langevin({ model: model(), dt: 0.005, temperature: 0, friction: 0, seed: 1 });
    const before = batch.read('positions').slice();
    await fire.andThen(nvt).run(batch, { steps: 5 });
    const after = batch.read('positions');
    // System 1 runs Langevin at T = 0 with no friction from rest: only forces move it, not FIRE's rules.
    expect(Array.from(after.subarray(0, 39))).not.toEqual(Array.from(before.subarray(0, 39)));
    const reference = ljBatch([perturbedLj13(0.2)]);
    await new Langevin({ model: model(), dt: 0.005, temperature: 0, friction: 0, seed: 1 }).run(reference, { steps: 5 });
    expect(Array.from(after.subarray(39))).toEqual(Array.from(reference.read('positions')));
  });

  it('rejects bad stages and budgets; engines are not thenables, so they come back from async code (issue 39, item 30)', async () => {
    expect(() => new FusedStage({ stages: [] })).toThrow(expect.objectContaining({ code: 'INVALID_STAGES' }));
    const fire = new FIRE({ model: model() });
    expect(() => new FusedStage({ stages: [fire], budgets: [1, 2] })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new FusedStage({ stages: [fire], budgets: [-1] })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(await new Promise((resolve) => resolve(fire as unknown))).toBe(fire);
    expect(await Promise.resolve(fire)).toBe(fire);
    const made = async (): Promise<FIRE> => new FIRE({ model: model() });
    expect(await made()).toBeInstanceOf(FIRE);
    const [a, b] = await Promise.all([made(), made()]);
    expect(a.andThen(b)).toBeInstanceOf(FusedStage);
    expect('then' in fire).toBe(false);
    expect(() => fire.andThen({} as never)).toThrow(expect.objectContaining({ code: 'INVALID_STAGES' }));
  });
});
