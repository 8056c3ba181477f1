// Issue 28 item 4: the engine API nvalchemi users reach for. Each test names the upstream test or API it
// mirrors: BaseDynamics.step(batch) → converged indices and FusedStage.step → newly graduated indices
// (nvalchemi/dynamics/base.py; PR #131), `with fused:` closing hooks (test_fused_context_manager_end_to_end),
// the Hook protocol (test/hooks/test_protocol.py), register_hook(hook, stage) (nvalchemi/hooks/_registry.py),
// and subclassing BaseDynamics with pre_update/post_update (docs/modules/dynamics/implementing_dynamics.rst,
// examples/advanced/05_custom_integrator.py).
import { describe, expect, it } from 'vitest';

import type { Batch } from '../../lib/data/index.js';
import { ConvergenceHook, Dynamics, DynamicsStage, FIRE, fuse, VelocityVerlet } from '../../lib/dynamics/index.js';
import type { DynamicsHookContext, DynamicsOptions, UpdateContext } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('engine.step(batch) (upstream BaseDynamics.step / FusedStage.step)', () => {
  it('does one step and returns the systems that converged in it, as a run would', async () => {
    const reference = ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.15, 2)]);
    const finishedAt: number[] = [];
    const run = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-3) });
    run.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, call: (ctx: DynamicsHookContext) => { ctx.convergedMask?.forEach((m, s) => { if (m) finishedAt[s] = ctx.stepCount; }); } });
    await run.run(reference, { steps: 2000 });

    const batch = ljBatch([perturbedLj13(0.1, 1), perturbedLj13(0.15, 2)]);
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-3) });
    const stepped: number[] = [];
    while (fire.stepCount < 2000 && Array.from(batch.read('status')).some((s) => s < 1)) {
      const step = fire.stepCount;
      for (const s of fire.step(batch)) stepped[s] = step;
    }
    expect(stepped).toEqual(finishedAt);
    expect(Array.from(batch.read('positions'))).toEqual(Array.from(reference.read('positions')));
  });

  it('a FusedStage step returns the systems that reached the exit status, and sub-stage step counts follow', () => {
    const a = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e6) });
    const b = new VelocityVerlet({ model: lj(), dt: 0.002 });
    const fused = fuse(a, b).withBudgets([0, 2]);
    const batch = ljBatch([perturbedLj13(0.1)]);
    expect(Array.from(fused.step(batch))).toEqual([]);
    expect(Array.from(fused.step(batch))).toEqual([]);
    expect(Array.from(fused.step(batch))).toEqual([0]);
    expect([fused.stepCount, a.stepCount, b.stepCount]).toEqual([3, 3, 3]);
  });
});

describe('await using engine (upstream `with fused:` / _close_hooks)', () => {
  it('step() opens the hooks once; disposing the engine closes them', async () => {
    const events: string[] = [];
    const hook = { stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => { events.push('call'); }, open: () => { events.push('open'); }, close: async () => { events.push('close'); } };
    {
      await using engine = new VelocityVerlet({ model: lj(), dt: 0.002, hooks: [hook] });
      const batch = ljBatch([perturbedLj13(0.05)]);
      engine.step(batch);
      engine.step(batch);
      await engine.run(batch, { steps: 1 });
      expect(events).toEqual(['open', 'call', 'call', 'call']);
    }
    expect(events).toEqual(['open', 'call', 'call', 'call', 'close']);
  });
});

describe('hook shapes (upstream Hook protocol and register_hook(hook, stage))', () => {
  it('a plain function with stage and frequency properties is a hook', async () => {
    const steps: number[] = [];
    const record = Object.assign(function record(ctx: DynamicsHookContext) { steps.push(ctx.stepCount); }, { stage: DynamicsStage.AFTER_STEP, frequency: 2 });
    const engine = new VelocityVerlet({ model: lj(), dt: 0.002 });
    engine.register(record);
    await engine.run(ljBatch([perturbedLj13(0.05)]), { steps: 5 });
    expect(steps).toEqual([0, 2, 4]);
    expect(engine.listHooks()[0]).toMatchObject({ name: 'record', stage: 'AFTER_STEP', trigger: 'every(2)' });
  });

  it('register(hook, { stage }) overrides the hook\'s own stage', async () => {
    const seen: DynamicsStage[] = [];
    const hook = { stage: DynamicsStage.AFTER_STEP, frequency: 1, call: (_ctx: DynamicsHookContext, stage: DynamicsStage) => { seen.push(stage); } };
    const engine = new VelocityVerlet({ model: lj(), dt: 0.002 });
    engine.register(hook, { stage: DynamicsStage.BEFORE_STEP });
    await engine.run(ljBatch([perturbedLj13(0.05)]), { steps: 2 });
    expect(seen).toEqual([DynamicsStage.BEFORE_STEP, DynamicsStage.BEFORE_STEP]);
    expect(hook.stage).toBe(DynamicsStage.AFTER_STEP);
    expect(() => engine.register({ onAfterStep: () => {} }, { stage: DynamicsStage.BEFORE_STEP })).toThrow(expect.objectContaining({ code: 'INVALID_HOOK' }));
    expect(() => engine.register(hook, { stage: 3 as DynamicsStage })).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
  });
});

describe('an integrator written in TypeScript (upstream: subclass BaseDynamics, define pre_update/post_update)', () => {
  // Velocity Verlet in TypeScript, in lj units (F/m is the acceleration).
  class TsVerlet extends Dynamics {
    readonly #dt: number;
    constructor(options: DynamicsOptions & { dt: number }) {
      const { dt, ...rest } = options;
      super(rest);
      this.#dt = dt;
    }
    override get timeStep(): number {
      return this.#dt;
    }
    override preUpdate(batch: Batch, update: UpdateContext): void {
      const [x, v, f, m, index] = [batch.positions, batch.velocities, batch.read('forces'), batch.read('masses'), batch.read('systemIndex')];
      for (let i = 0; i < m.length; i++) {
        if (update.active[index[i]] !== 1) continue;
        for (let c = 0; c < 3; c++) {
          v[3 * i + c] += (0.5 * this.#dt * f[3 * i + c]) / m[i];
          x[3 * i + c] += this.#dt * v[3 * i + c];
        }
      }
    }
    override postUpdate(batch: Batch, update: UpdateContext): void {
      const [v, f, m, index] = [batch.velocities, batch.read('forces'), batch.read('masses'), batch.read('systemIndex')];
      for (let i = 0; i < m.length; i++) {
        if (update.active[index[i]] !== 1) continue;
        for (let c = 0; c < 3; c++) v[3 * i + c] += (0.5 * this.#dt * f[3 * i + c]) / m[i];
      }
    }
  }

  it('runs with hooks and matches the native VelocityVerlet', async () => {
    const mine = ljBatch([perturbedLj13(0.05, 1), perturbedLj13(0.05, 2)]);
    const native = ljBatch([perturbedLj13(0.05, 1), perturbedLj13(0.05, 2)]);
    let afterPre = 0;
    const probe = { stage: DynamicsStage.AFTER_PRE_UPDATE, frequency: 1, call: () => { afterPre++; } };
    await new TsVerlet({ model: lj(), dt: 0.002, hooks: [probe] }).run(mine, { steps: 50 });
    await new VelocityVerlet({ model: lj(), dt: 0.002 }).run(native, { steps: 50 });
    expect(afterPre).toBe(50);
    const [a, b] = [mine.read('positions'), native.read('positions')];
    for (let k = 0; k < a.length; k++) expect(a[k]).toBeCloseTo(b[k], 12);
  });

  it('a subclass without an update is a typed error that says how to write one', () => {
    class Empty extends Dynamics {
      constructor() {
        super({ model: lj() });
      }
    }
    expect(() => new Empty()).toThrow(expect.objectContaining({ code: 'NO_INTEGRATOR', message: expect.stringContaining('preUpdate(batch, update)') }));
    expect(() => fuse(new TsVerlet({ model: lj(), dt: 0.002 }), new FIRE({ model: lj() }))).toThrow(expect.objectContaining({ code: 'INVALID_STAGES' }));
  });
});
