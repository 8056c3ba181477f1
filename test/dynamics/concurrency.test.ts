// Issue 19, items 5, 6 and 7: an abort while an async hook never settles, runs of 2^31 steps, and
// concurrent runs (one batch driven twice is BATCH_BUSY; one engine on two batches counts each run apart).
import { describe, expect, it } from 'vitest';

import { DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { HookmdAbortError, HookmdError } from '../../lib/errors.js';
import { defineHook } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });

describe('AbortSignal ends a run that waits on a hook that never settles (issue 19, item 5)', () => {
  it('rejects with an AbortError naming the pending hook; close() still runs; the batch can be run again', async () => {
    const controller = new AbortController();
    let closed = false;
    let started = false;
    const stuck = defineHook({
      stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, name: 'stuck',
      call: (ctx: DynamicsHookContext) => {
        if (ctx.stepCount < 3) return undefined;
        started = true;
        // The abort comes while this promise is pending; it never settles.
        setImmediate(() => controller.abort('user gave up'));
        return new Promise<void>(() => undefined);
      },
      close: () => { closed = true; },
    });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [stuck] });
    const batch = ljBatch([ljFcc(2)]);
    const error = await md.run(batch, { steps: 100, signal: controller.signal }).catch((e: unknown) => e);
    expect(started).toBe(true);
    expect(error).toBeInstanceOf(HookmdAbortError);
    expect(error).toBeInstanceOf(HookmdError);
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORTED', details: { pendingHook: 'stuck' } });
    expect((error as Error).message).toMatch(/aborted \(user gave up\) while waiting for hook 'stuck'/);
    expect(closed).toBe(true);
    // The abandoned step does not hold the batch: another engine runs it.
    const after = await new VelocityVerlet({ model: lj(), dt: 0.005 }).run(batch, { steps: 5 });
    expect(after.steps).toBe(5);
  });

  it('an abort between steps still ends the run cleanly with stopped.by === "signal"', async () => {
    const controller = new AbortController();
    const hook = defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: async (ctx: DynamicsHookContext) => { if (ctx.stepCount === 4) controller.abort('done'); } });
    const result = await new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [hook] }).run(ljBatch([ljFcc(2)]), { steps: 100, signal: controller.signal });
    expect(result).toMatchObject({ steps: 5, stopped: { reason: 'done', by: 'signal' } });
  });
});

describe('any safe integer of steps is valid (issue 19, item 6)', () => {
  it('a run of 2^31 steps ends cleanly on its AbortSignal', async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort('enough'));
    const md = new VelocityVerlet({ model: lj(), dt: 0.001 });
    const result = await md.run(ljBatch([ljFcc(1)]), { steps: 2 ** 31, signal: controller.signal });
    expect(result.stopped).toEqual({ reason: 'enough', by: 'signal' });
    expect(result.steps).toBeGreaterThan(0);
    expect(result.stepCount).toBe(result.steps);
  });

  it('a run of 2^31 steps ends cleanly when a hook due after a long native stretch asks to stop', async () => {
    const stopper = defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 1000, call: (ctx: DynamicsHookContext) => { if (ctx.stepCount >= 2000) ctx.requestStop('seen enough'); } });
    const result = await new VelocityVerlet({ model: lj(), dt: 0.001, hooks: [stopper] }).run(ljBatch([ljFcc(1)]), { steps: 2 ** 31 });
    expect(result).toMatchObject({ steps: 2001, stopped: { reason: 'seen enough' } });
  });

  it('more than a safe integer is INVALID_STEPS', () => {
    expect(() => new VelocityVerlet({ model: lj(), dt: 0.001 }).runSync(ljBatch([ljFcc(1)]), { steps: 2 ** 53 })).toThrow(expect.objectContaining({ code: 'INVALID_STEPS' }));
  });
});

describe('concurrent runs (issue 19, item 7)', () => {
  it('a batch already being run is BATCH_BUSY, for this engine and any other', async () => {
    const batch = ljBatch([ljFcc(2)]);
    const first = new VelocityVerlet({ model: lj(), dt: 0.005 });
    const second = new VelocityVerlet({ model: lj(), dt: 0.005 });
    const controller = new AbortController();
    const running = first.run(batch, { steps: 1e9, signal: controller.signal });
    await expect(second.run(batch, { steps: 10 })).rejects.toMatchObject({ code: 'BATCH_BUSY' });
    await expect(first.run(batch, { steps: 10 })).rejects.toMatchObject({ code: 'BATCH_BUSY' });
    expect(() => second.runSync(batch, { steps: 10 })).toThrow(expect.objectContaining({ code: 'BATCH_BUSY' }));
    controller.abort('checked');
    expect((await running).stopped).toEqual({ reason: 'checked', by: 'signal' });
    // Released when the run ends, also after a failure.
    expect(second.runSync(batch, { steps: 3 }).steps).toBe(3);
    const failing = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => { throw new Error('boom'); } })] });
    await expect(failing.run(batch, { steps: 5 })).rejects.toThrow();
    expect(first.runSync(batch, { steps: 2 }).steps).toBe(2);
  });

  it('a hook that runs its own batch again from inside the run is BATCH_BUSY', () => {
    const batch = ljBatch([ljFcc(2)]);
    const other = new VelocityVerlet({ model: lj(), dt: 0.005 });
    const nested = defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx: DynamicsHookContext) => { other.runSync(ctx.batch, { steps: 1 }); } });
    expect(() => new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [nested] }).runSync(batch, { steps: 2 })).toThrow(expect.objectContaining({
      cause: expect.objectContaining({ code: 'BATCH_BUSY' }),
    }));
  });

  it('one engine running two batches at once counts each run on its own: 1000 and 1000 steps', async () => {
    const seen = new Map<object, number[]>();
    const recorder = defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 100, call: (ctx: DynamicsHookContext) => {
      const steps = seen.get(ctx.batch) ?? [];
      steps.push(ctx.stepCount);
      seen.set(ctx.batch, steps);
    } });
    const md = new VelocityVerlet({ model: lj(), dt: 0.005, hooks: [recorder] });
    const [a, b] = [ljBatch([ljFcc(2)]), ljBatch([ljFcc(2)])];
    const [ra, rb] = await Promise.all([md.run(a, { steps: 1000 }), md.run(b, { steps: 1000 })]);
    expect([ra.steps, ra.stepCount]).toEqual([1000, 1000]);
    expect([rb.steps, rb.stepCount]).toEqual([1000, 1000]);
    const every100 = Array.from({ length: 10 }, (_, k) => 100 * k);
    expect(seen.get(a)).toEqual(every100);
    expect(seen.get(b)).toEqual(every100);
    // A later run carries on from the engine's count (DESIGN §4 rule 2).
    expect((await md.run(a, { steps: 10 })).stepCount).toBe(1010);
  });
});
