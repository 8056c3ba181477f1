// Issue 28 item 1: FusedStage as nvalchemi runs it after its hook rework (upstream PR #182, "Fix/dynamics
// hooks and order", and the FusedStage tests of test/dynamics/test_single_loop.py). Each test names the
// upstream test or behaviour it mirrors.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, FIRE, fuse, FusedStage, Langevin, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext } from '../../lib/dynamics/index.js';
import type { AnyHook } from '../../lib/hooks/index.js';
import { JsModel, LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });
const SHARED_STAGES = [
  DynamicsStage.BEFORE_STEP, DynamicsStage.BEFORE_PRE_UPDATE, DynamicsStage.AFTER_PRE_UPDATE, DynamicsStage.BEFORE_COMPUTE,
  DynamicsStage.AFTER_COMPUTE, DynamicsStage.BEFORE_POST_UPDATE, DynamicsStage.AFTER_POST_UPDATE, DynamicsStage.AFTER_STEP,
];

function labelled(stage: DynamicsStage, label: string, events: string[]): AnyHook {
  return { stage, frequency: 1, name: label, call: () => { events.push(label); } };
}

describe('FusedStage hook order (upstream test_fused_hooks_bracket_substage_hooks)', () => {
  it.each(SHARED_STAGES.map((stage) => [DynamicsStage[stage], stage] as const))('at %s the fused hooks bracket the sub-stages in order', async (name, stage) => {
    const events: string[] = [];
    const a = new VelocityVerlet({ model: lj(), dt: 0.002, hooks: [labelled(stage, 'substage0', events)] });
    const b = new VelocityVerlet({ model: lj(), dt: 0.002, hooks: [labelled(stage, 'substage1', events)] });
    const fused = fuse(a, b);
    fused.register(labelled(stage, 'fused', events));
    const batch = ljBatch([perturbedLj13(0.05, 1), perturbedLj13(0.05, 2), perturbedLj13(0.05, 3)]);
    batch.status.set([0, 0, 1]);
    await fused.run(batch, { steps: 1, keepStatus: true });
    const once = name.startsWith('BEFORE_') ? ['fused', 'substage0', 'substage1'] : ['substage0', 'substage1', 'fused'];
    // The compute hooks also run, in the same nesting, around the compute before the first step.
    const primed = stage === DynamicsStage.BEFORE_COMPUTE || stage === DynamicsStage.AFTER_COMPUTE;
    expect(events).toEqual(primed ? [...once, ...once] : once);
  });
});

describe('ON_CONVERGE per sub-stage (upstream test_on_converge_only_fires_for_active_samples)', () => {
  // Two FIRE sub-stages; the masks each sub-stage's ON_CONVERGE hooks receive, step by step.
  function capture(thresholds: [number, number], status: number[]): { masks: number[][][]; final: number[] } {
    const masks: number[][][] = [[], []];
    const hook = (k: number): object => ({
      stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: `capture${k}`,
      call: (ctx: DynamicsHookContext) => { masks[k].push(Array.from(ctx.convergedMask ?? [])); },
    });
    const first = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(thresholds[0]), hooks: [hook(0)] });
    const second = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(thresholds[1]), hooks: [hook(1)] });
    const batch = ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.1, 2), perturbedLj13(0.1, 3)]);
    batch.status.set(status);
    fuse(first, second).runSync(batch, { steps: 1, keepStatus: true });
    return { masks, final: Array.from(batch.read('status')) };
  }

  it('each sub-stage sees the systems that were in it at the start of the step', () => {
    // Sub-stage 1's threshold is met only by the system that starts there (fmax of a 0.1 rattle is well above 1e-3 and below 1e6).
    const { masks, final } = capture([1e6, 1e-3], [0, 0, 1]);
    expect(masks[0]).toEqual([[1, 1, 0]]);
    expect(masks[1]).toEqual([]);
    expect(final).toEqual([1, 1, 1]);
    const both = capture([1e6, 1e6], [1, 1, 0]);
    expect(both.masks[0]).toEqual([[0, 0, 1]]);
  });

  it('a system that moves through two sub-stages in one step is seen by the sub-stage it started in (issue 39 item 31)', () => {
    // Upstream's own case: sub-stage 0 gets [1, 1, 0] and sub-stage 1 [0, 0, 1], though systems 0 and 1
    // also meet sub-stage 1's criterion in that step and leave the pipeline.
    const { masks, final } = capture([1e6, 1e6], [0, 0, 1]);
    expect(final).toEqual([2, 2, 2]);
    expect(masks[0]).toEqual([[1, 1, 0]]);
    expect(masks[1]).toEqual([[0, 0, 1]]);
  });
});

describe('budgets and convergence in the same step (upstream _step_impl: convergence at AFTER_STEP, then counter migration)', () => {
  it('a system that converges in the step its budget runs out leaves as converged, and ON_CONVERGE fires for it', () => {
    const converged: number[][] = [];
    const fire = new FIRE({
      model: lj(), convergence: ConvergenceHook.fromFmax(1e6),
      hooks: [{ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { converged.push(Array.from(ctx.convergedMask ?? [])); } }],
    });
    const pipeline = fuse(fire, new VelocityVerlet({ model: lj(), dt: 0.002 })).withBudgets([1, 5]);
    const batch = ljBatch([perturbedLj13(0.1)]);
    pipeline.runSync(batch, { steps: 1 });
    expect(converged).toEqual([[1]]);
    expect(Array.from(batch.read('status'))).toEqual([1]);
  });
});

describe('the first force computation runs the compute hooks (upstream _prime_forces, PR #182)', () => {
  it('a force added at AFTER_COMPUTE moves the atom in the first step of velocity Verlet', () => {
    // No model force; the hook adds F along x. Velocity Verlet's first half kick reads the primed forces,
    // so after one step x = ½·(F/m)·dt² (a first kick from unbiased forces would leave x at 0).
    const zero = new JsModel((b: Batch) => ({ energy: new Float64Array(b.numSystems), forces: new Float64Array(3 * b.numAtoms) }));
    const push = { stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, call: (ctx: DynamicsHookContext) => { ctx.batch.forces[0] += 2; } };
    const batch = Batch.fromSystems([{ symbols: ['Ar'], positions: [[0, 0, 0]], masses: [1] }], { units: 'lj' });
    const dt = 0.1;
    new VelocityVerlet({ model: zero, dt, hooks: [push] }).runSync(batch, { steps: 1 });
    expect(batch.read('positions')[0]).toBeCloseTo(0.5 * 2 * dt * dt, 14);
  });

  it('a run that continues the last one of the same engine does not compute or prime again', () => {
    let computes = 0;
    const hook = { stage: DynamicsStage.AFTER_COMPUTE, frequency: 1, call: () => { computes++; } };
    const md = new VelocityVerlet({ model: lj(), dt: 0.002, hooks: [hook] });
    const batch = ljBatch([perturbedLj13(0.05)]);
    md.runSync(batch, { steps: 2 });
    md.runSync(batch, { steps: 2 });
    expect(computes).toBe(1 + 4);
    batch.positions[0] += 0.01;
    md.runSync(batch, { steps: 1 });
    expect(computes).toBe(1 + 4 + 1 + 1);
  });
});

describe('FusedStage.run(batch) without steps (upstream FusedStage.run: n_steps is a maximum)', () => {
  it('runs until every system reaches the exit status', async () => {
    const pipeline = fuse(
      new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) }),
      new Langevin({ model: lj(), dt: 0.005, temperature: 0.01, friction: 1, seed: 3 }),
    ).withBudgets([0, 20]);
    const batch = ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.15, 2)]);
    const result = await pipeline.run(batch);
    expect(Array.from(batch.read('status'))).toEqual([2, 2]);
    expect(Array.from(result.converged)).toEqual([1, 1]);
    expect(result.steps).toBeGreaterThan(20);
  });

  it('maxSteps caps it, as a run option or a FusedStage option', async () => {
    const stages = [new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-9) })];
    expect((await new FusedStage({ stages }).run(ljBatch([perturbedLj13(0.1)]), { maxSteps: 7 })).steps).toBe(7);
    expect(new FusedStage({ stages, maxSteps: 4 }).runSync(ljBatch([perturbedLj13(0.1)])).steps).toBe(4);
  });

  it('a sub-stage that can never finish its systems is UNBOUNDED_RUN, and plain engines still need steps', async () => {
    const md = new VelocityVerlet({ model: lj(), dt: 0.002 });
    const forever = fuse(new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) }), md);
    await expect(forever.run(ljBatch([perturbedLj13(0.1)]))).rejects.toMatchObject({ code: 'UNBOUNDED_RUN', details: { subStage: 1 } });
    await expect(md.run(ljBatch([perturbedLj13(0.1)]))).rejects.toMatchObject({ code: 'INVALID_STEPS' });
    expect(() => new FusedStage({ stages: [md], maxSteps: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_STEPS' }));
  });
});

describe('RunResult.converged agrees with the statuses (docs/dynamics.md, section 6)', () => {
  it('systems that only moved on to a later sub-stage are not converged', () => {
    let migrations = 0;
    const pipeline = fuse(new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e6) }), new VelocityVerlet({ model: lj(), dt: 0.002 }));
    pipeline.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: () => { migrations++; } });
    const batch = ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.1, 2), perturbedLj13(0.1, 3)]);
    batch.status.set([0, 0, 1]);
    const result = pipeline.runSync(batch, { steps: 3, keepStatus: true });
    expect(migrations).toBe(1);
    expect(Array.from(batch.read('status'))).toEqual([1, 1, 1]);
    expect(Array.from(result.converged)).toEqual([0, 0, 0]);
  });
});
