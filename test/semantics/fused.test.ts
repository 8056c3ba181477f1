// Issue 13, items 4 to 9: FusedStage exports, sub-stage hooks, budgets, ON_CONVERGE masks, order, copies.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import * as hookmd from '../../lib/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, fuse, FusedStage, Langevin, LennardJones, LoggingHook, VelocityVerlet } from '../../lib/index.js';
import type { DynamicsHookContext } from '../../lib/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const dir = mkdtempSync(join(tmpdir(), 'hookmd-fused-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FusedStage', () => {
  it('fuse and FusedStage come from the package root (item 4)', () => {
    expect(hookmd.fuse).toBe(fuse);
    expect(hookmd.FusedStage).toBe(FusedStage);
  });

  it('a LoggingHook(path) on a sub-stage closes and keeps its rows (item 5)', async () => {
    const path = join(dir, 'sub.csv');
    const fire = new FIRE({ model: model(), hooks: [new LoggingHook({ path, frequency: 2 })] });
    await fire.andThen(new Langevin({ model: model(), dt: 0.005, temperature: 0.1, friction: 1 })).run(ljBatch([perturbedLj13(0.1)]), { steps: 4 });
    // The header, then steps 0, 2 and 4.
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('chunked equals stage by stage when a hook is due in the step that spends the last budget (item 6)', async () => {
    const run = async (hookEvery: number | undefined): Promise<number[]> => {
      const batch = ljBatch([perturbedLj13(0.1)]);
      const pipeline = fuse(new VelocityVerlet({ model: model(), dt: 0.005 }), new VelocityVerlet({ model: model(), dt: 0.005 })).withBudgets([3, 4]);
      if (hookEvery !== undefined) pipeline.register({ stage: DynamicsStage.BEFORE_STEP, frequency: hookEvery, call: () => {} });
      await pipeline.run(batch, { steps: 20 });
      return Array.from(batch.read('positions'));
    };
    expect(await run(1)).toEqual(await run(undefined));
  });

  it("a sub-stage's ON_CONVERGE hooks fire only for its own systems (item 7)", async () => {
    const batch = ljBatch([perturbedLj13(0.1), perturbedLj13(0.1, 2)]);
    const seen: Array<[number, number[]]> = [];
    const record = (k: number) => ({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { seen.push([k, Array.from(ctx.convergedMask ?? [])]); } });
    const first = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-1), hooks: [record(0)] });
    const second = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-3), hooks: [record(1)] });
    batch.status[1] = 1;
    await fuse(first, second).run(batch, { steps: 3000 });
    expect(seen.filter(([k]) => k === 0).every(([, mask]) => mask[1] === 0 && mask[0] === 1)).toBe(true);
    expect(seen.filter(([k]) => k === 1).every(([, mask]) => mask.filter(Boolean).length === 1)).toBe(true);
    expect(seen.filter(([k]) => k === 0)).toHaveLength(1);
    expect(seen.filter(([k]) => k === 1)).toHaveLength(2);
  });

  // Upstream test_single_loop.py::test_fused_hooks_bracket_substage_hooks (PR #182): the fused hooks
  // bracket the sub-stages' hooks, which fire in sub-stage order at BEFORE_* and AFTER_* stages alike.
  it('hook order: fused first at BEFORE_*, sub-stages in order then fused at AFTER_*; sub-stage step counts follow (item 8)', async () => {
    const order: string[] = [];
    const hook = (name: string) => ({ name, runsOnStage: (s: DynamicsStage) => s === DynamicsStage.BEFORE_STEP || s === DynamicsStage.AFTER_STEP, stage: null, frequency: 1, call: (ctx: DynamicsHookContext) => { order.push(`${ctx.stage === DynamicsStage.BEFORE_STEP ? 'before' : 'after'}:${name}`); } });
    const a = new VelocityVerlet({ model: model(), dt: 0.005, hooks: [hook('a')] });
    const b = new VelocityVerlet({ model: model(), dt: 0.005, hooks: [hook('b')] });
    const pipeline = fuse(a, b);
    pipeline.register(hook('fused'));
    await pipeline.run(ljBatch([perturbedLj13(0.1)]), { steps: 1 });
    expect(order).toEqual(['before:fused', 'before:a', 'before:b', 'after:a', 'after:b', 'after:fused']);
    expect([a.stepCount, b.stepCount]).toEqual([1, 1]);
  });

  it('withBudgets keeps fused hooks, and then() keeps budgets and fused hooks (item 9)', async () => {
    let calls = 0;
    const counting = { stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => { calls++; } };
    const pipeline = fuse(new VelocityVerlet({ model: model(), dt: 0.005 }), new VelocityVerlet({ model: model(), dt: 0.005 }));
    pipeline.register(counting);
    const budgeted = pipeline.withBudgets([2, 3]);
    const longer = budgeted.andThen(new VelocityVerlet({ model: model(), dt: 0.005 }));
    expect((longer as FusedStage).budgets).toEqual([2, 3, 0]);
    await budgeted.run(ljBatch([perturbedLj13(0.1)]), { steps: 10 });
    expect(calls).toBe(5);
    calls = 0;
    await longer.run(ljBatch([perturbedLj13(0.1)]), { steps: 7 });
    expect(calls).toBe(7);
  });
});
