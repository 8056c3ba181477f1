import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { DynamicsStage, initializeVelocities, Langevin, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { defineHook } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

describe('run() keeps the event loop responsive', () => {
  // Counted in event-loop turns, not milliseconds: other tasks take 20 turns during one run, and the last of
  // them ends it. A run that held the loop to the end would take none (how long a turn may wait is a
  // timing, measured in bench/).
  it('other tasks run while a long run steps, and a signal from one of them ends it', async () => {
    const batch = ljBatch([ljFcc(8)]);
    initializeVelocities(batch, { temperature: 1, seed: 1 });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005 });
    const controller = new AbortController();
    let turns = 0;
    const turn = (): void => {
      turns++;
      if (turns === 20) controller.abort('20 turns');
      else setImmediate(turn);
    };
    setImmediate(turn);
    const result = await md.run(batch, { steps: 10_000_000, signal: controller.signal });
    expect(result.stopped).toEqual({ reason: '20 turns', by: 'signal' });
    expect(turns).toBe(20);
    expect(result.steps).toBeLessThan(10_000_000);
  }, 60_000);
});

describe('control', () => {
  it('a stop request ends the run after the current step, and RunResult.stopped says who asked', async () => {
    const stages: DynamicsStage[] = [];
    const stopper = defineHook({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, name: 'stopper', call: (ctx: DynamicsHookContext) => { if (ctx.stepCount === 3) ctx.requestStop('enough'); } });
    const tracker = defineHook({ runsOnStage: () => true, frequency: 1, call: (ctx, stage: DynamicsStage) => { if (ctx.stepCount === 3) stages.push(stage); } });
    const batch = ljBatch([ljFcc(2)]);
    const result = await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [stopper, tracker] }).run(batch, { steps: 100 });
    expect(result).toMatchObject({ steps: 4, stepCount: 4, stopped: { reason: 'enough', by: 'stopper' } });
    expect(stages.at(-1)).toBe(DynamicsStage.AFTER_STEP);
  });

  it('an already aborted signal takes no step', async () => {
    const result = await new VelocityVerlet({ model: lj(), dt: 0.005 }).run(ljBatch([ljFcc(2)]), { steps: 10, signal: AbortSignal.abort('no') });
    expect(result).toMatchObject({ steps: 0, stopped: { reason: 'no', by: 'signal' } });
  });

  it('runSync rejects an async hook with a typed error', () => {
    const hook = defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: async () => {} });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [hook] });
    expect(() => md.runSync(ljBatch([ljFcc(2)]), { steps: 2 })).toThrow(expect.objectContaining({ code: 'ASYNC_HOOK_IN_SYNC_RUN' }));
  });

  it('an async hook is awaited before the next stage', async () => {
    const order: string[] = [];
    const slow = defineHook({ stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, call: async () => { await new Promise((r) => setTimeout(r, 5)); order.push('async done'); } });
    const next = defineHook({ stage: DynamicsStage.BEFORE_POST_UPDATE, frequency: 1, call: () => { order.push('next stage'); } });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [slow, next] }).run(ljBatch([ljFcc(2)]), { steps: 2 });
    // The first 'async done' is the compute before step 0, which runs the compute hooks (upstream PR #182).
    expect(order).toEqual(['async done', 'async done', 'next stage', 'async done', 'next stage']);
  });

  it('a throwing hook aborts with a HookError naming hook, stage and step; close still runs', async () => {
    const events: string[] = [];
    const bad = { stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'bad', call: (ctx: { stepCount: number }) => { if (ctx.stepCount === 2) throw new Error('boom'); }, close: () => { events.push('closed'); }, onException: () => { events.push('onException'); } };
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [bad] });
    await expect(md.run(ljBatch([ljFcc(2)]), { steps: 10 })).rejects.toMatchObject({ code: 'HOOK_FAILED', hookName: 'bad', step: 2 });
    expect(events).toEqual(['onException', 'closed']);
  });

  it('bad run arguments get typed errors', async () => {
    const md = new VelocityVerlet({ model: lj(), dt: 0.005 });
    await expect(md.run(ljBatch([ljFcc(2)]), { steps: -1 })).rejects.toMatchObject({ code: 'INVALID_STEPS' });
    await expect(md.run({} as Batch, { steps: 1 })).rejects.toMatchObject({ code: 'INVALID_BATCH' });
    expect(() => new VelocityVerlet({ model: lj(), dt: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new VelocityVerlet({ model: lj(), dt: [0.1, NaN] })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
    expect(() => new VelocityVerlet({ model: {} as LennardJones, dt: 0.1 })).toThrow(expect.objectContaining({ code: 'INVALID_MODEL' }));
    const perSystem = new VelocityVerlet({ model: lj(), dt: [0.1, 0.2, 0.3] });
    await expect(perSystem.run(ljBatch([ljFcc(2)]), { steps: 1 })).rejects.toMatchObject({ code: 'LENGTH_MISMATCH' });
  });
});

describe('per-system parameters and frozen systems', () => {
  it('an array dt gives each system its own time step (a system with dt/2 over 2n steps = dt over n)', () => {
    const system = ljFcc(2);
    const batch = ljBatch([system, system]);
    initializeVelocities(batch, { temperature: 1, seed: 2 });
    const reference = Batch.fromSystems(batch.toSystems().slice(1, 2), { units: 'lj' });
    new VelocityVerlet({ model: lj(), dt: [0.004, 0.002] }).runSync(batch, { steps: 2 });
    new VelocityVerlet({ model: lj(), dt: 0.002 }).runSync(reference, { steps: 2 });
    const x = batch.read('positions');
    const expected = reference.read('positions');
    for (let i = 0; i < expected.length; i++) expect(x[expected.length + i]).toBe(expected[i]);
  });

  it('systems with status ≥ exitStatus stay unchanged bit for bit', async () => {
    const batch = ljBatch([ljFcc(2), ljFcc(2)]);
    initializeVelocities(batch, { temperature: 1, seed: 4 });
    batch.status[1] = 1;
    const before = { x: batch.read('positions').slice(), v: batch.read('velocities').slice() };
    await new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 3 }).run(batch, { steps: 50 });
    const n = batch.numAtoms / 2;
    expect(Array.from(batch.read('positions').subarray(3 * n))).toEqual(Array.from(before.x.subarray(3 * n)));
    expect(Array.from(batch.read('velocities').subarray(3 * n))).toEqual(Array.from(before.v.subarray(3 * n)));
    expect(Array.from(batch.read('positions').subarray(0, 3 * n))).not.toEqual(Array.from(before.x.subarray(0, 3 * n)));
  });

  it('Langevin is reproducible from its seed, and a system does not depend on its batch neighbours', () => {
    const run = (systems: number): Float64Array => {
      const batch = ljBatch(Array.from({ length: systems }, () => ljFcc(2)));
      new Langevin({ model: lj(), dt: 0.005, temperature: 1, friction: 1, seed: 9 }).runSync(batch, { steps: 20 });
      return batch.read('positions').slice(0, 96);
    };
    expect(Array.from(run(1))).toEqual(Array.from(run(1)));
    expect(Array.from(run(3))).toEqual(Array.from(run(1)));
  });
});

describe('step 5: systems finished during a step are restored', () => {
  it('a hook that sets status ≥ exitStatus mid-step leaves positions and velocities as they were at the step start', async () => {
    const batch = ljBatch([ljFcc(2), ljFcc(2)]);
    initializeVelocities(batch, { temperature: 1, seed: 8 });
    let atStart: { x: Float64Array; v: Float64Array } | undefined;
    const n = 3 * 32;
    const snapshot = defineHook({ stage: DynamicsStage.BEFORE_STEP, frequency: 1, call: (ctx: DynamicsHookContext) => {
      if (ctx.stepCount === 3) atStart = { x: ctx.batch.read('positions').slice(0, n), v: ctx.batch.read('velocities').slice(0, n) };
    } });
    const finisher = defineHook({ stage: DynamicsStage.AFTER_PRE_UPDATE, frequency: 1, call: (ctx: DynamicsHookContext) => {
      if (ctx.stepCount === 3) ctx.batch.status[0] = 1;
    } });
    await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [snapshot, finisher] }).run(batch, { steps: 6 });
    expect(Array.from(batch.read('positions').slice(0, n))).toEqual(Array.from(atStart?.x ?? []));
    expect(Array.from(batch.read('velocities').slice(0, n))).toEqual(Array.from(atStart?.v ?? []));
    expect(Array.from(batch.read('status'))).toEqual([1, 0]);
  });
});
