// Issue 39, item 27: one context object per dispatch (docs/hooks.md, rule 5), shared by the hooks of that
// dispatch, in engines, FusedStage sub-stages, NEB's loop and the Trainer: a hook that keeps its ctx keeps
// what it saw. (runsOnStage is asked once per stage at registration, as docs/hooks.md says.)
import { describe, expect, it } from 'vitest';

import { ConvergenceHook, DynamicsStage, FIRE, fuse, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { TrainingStage } from '../../lib/training/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';
import { makeTrainer } from '../training/fixtures.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('one context per dispatch', () => {
  it('an engine: each dispatch a new object, shared by its hooks, keeping its step and stage', async () => {
    const kept: DynamicsHookContext[] = [];
    const seen: Array<[DynamicsHookContext, DynamicsHookContext]> = [];
    let first: DynamicsHookContext | undefined;
    const md = new VelocityVerlet({ model: lj(), dt: 0.002 });
    md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'a', call: (ctx) => { kept.push(ctx); first = ctx; } });
    md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, name: 'b', call: (ctx) => { seen.push([first as DynamicsHookContext, ctx]); } });
    md.register({ stage: DynamicsStage.BEFORE_STEP, frequency: 1, name: 'c', call: (ctx) => { kept.push(ctx); } });
    await md.run(ljBatch([perturbedLj13(0.05)]), { steps: 3 });
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept.map((ctx) => [ctx.stepCount, DynamicsStage[ctx.stage as DynamicsStage]])).toEqual([
      [0, 'BEFORE_STEP'], [0, 'AFTER_STEP'], [1, 'BEFORE_STEP'], [1, 'AFTER_STEP'], [2, 'BEFORE_STEP'], [2, 'AFTER_STEP'],
    ]);
    for (const [a, b] of seen) expect(b).toBe(a);
  });

  it('a FusedStage: each sub-stage keeps its own subStage and convergedMask', async () => {
    const kept: DynamicsHookContext[] = [];
    const keep = { stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { kept.push(ctx); } };
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e6), hooks: [keep] });
    const md = new VelocityVerlet({ model: lj(), dt: 0.002 });
    const pipeline = fuse(fire, md);
    pipeline.register({ ...keep, name: 'fused' });
    const batch = ljBatch([perturbedLj13(0.05), perturbedLj13(0.05, 2)]);
    await pipeline.run(batch, { steps: 1 });
    expect(kept.map((ctx) => [(ctx as { subStage: number | null }).subStage, Array.from(ctx.convergedMask ?? [])])).toEqual([[0, [1, 1]], [null, [1, 1]]]);
    expect(kept[0]).not.toBe(kept[1]);
  });

  it('the Trainer: each stage a new object; gradients a hook replaces reach the optimizer', async () => {
    const kept: TrainingHookContext[] = [];
    let replaced = 0;
    const trainer = makeTrainer({ epochs: 1 });
    trainer.register({ stage: TrainingStage.AFTER_STEP, frequency: 1, name: 'keep', call: (ctx: TrainingHookContext) => { kept.push(ctx); } });
    trainer.register({
      stage: TrainingStage.BEFORE_OPTIMIZER_STEP, frequency: 1, name: 'zero',
      call: (ctx: TrainingHookContext) => {
        (ctx as { gradients: Record<string, number> }).gradients = Object.fromEntries(Object.keys(ctx.gradients).map((name) => [name, 0]));
        replaced++;
      },
    });
    const before = { ...trainer.parameters };
    await trainer.fit();
    expect(replaced).toBeGreaterThan(1);
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept.map((ctx) => ctx.stepCount)).toEqual(kept.map((_, k) => k));
    // Zero gradients every step: Adam's moments stay zero, and the parameters where they began.
    expect(trainer.parameters).toEqual(before);
  });
});
