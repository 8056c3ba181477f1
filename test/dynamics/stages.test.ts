import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { ConvergenceHook, DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import { defineHook } from '../../lib/hooks/index.js';
import { harmonicModel } from './harmonic-model.js';

function oscillators(): Batch {
  return Batch.fromSystems(
    [
      { symbols: ['Ar'], positions: [[1, 0, 0]], masses: [1] },
      { symbols: ['Ar', 'Ar'], positions: [[0, 0.5, 0], [0, 0, -0.25]], masses: [1, 2] },
    ],
    { units: 'lj' },
  );
}

describe('stage order (DESIGN §5)', () => {
  // The compute before the first step runs the compute hooks (nvalchemi's force priming, upstream PR #182).
  it('a hook at all nine stages records the exact sequence of one step, after the first compute and its hooks', async () => {
    const seen: string[] = [];
    const recorder = defineHook({ runsOnStage: () => true, frequency: 1, call: (_ctx, stage: DynamicsStage) => { seen.push(DynamicsStage[stage]); } });
    const md = new VelocityVerlet({ model: harmonicModel(1), dt: 0.01, hooks: [recorder], convergence: ConvergenceHook.fromFmax(10) });
    await md.run(oscillators(), { steps: 1 });
    expect(seen).toEqual([
      'BEFORE_COMPUTE', 'AFTER_COMPUTE',
      'BEFORE_STEP', 'BEFORE_PRE_UPDATE', 'AFTER_PRE_UPDATE', 'BEFORE_COMPUTE', 'AFTER_COMPUTE',
      'BEFORE_POST_UPDATE', 'AFTER_POST_UPDATE', 'AFTER_STEP', 'ON_CONVERGE',
    ]);
  });

  it('ON_CONVERGE is skipped when no system newly converged', async () => {
    const seen: DynamicsStage[] = [];
    const recorder = defineHook({ runsOnStage: () => true, frequency: 1, call: (_ctx, stage: DynamicsStage) => { seen.push(stage); } });
    await new VelocityVerlet({ model: harmonicModel(1), dt: 0.01, hooks: [recorder] }).run(oscillators(), { steps: 2 });
    expect(seen).toHaveLength(2 + 16);
    expect(seen).not.toContain(DynamicsStage.ON_CONVERGE);
  });
});

describe('stepCount', () => {
  it('starts at 0, is the same at every stage of a step and carries on across runs', async () => {
    const steps: number[] = [];
    const hook = defineHook({ runsOnStage: (s: DynamicsStage) => s === DynamicsStage.BEFORE_STEP || s === DynamicsStage.AFTER_STEP, frequency: 1, call: (ctx) => { steps.push(ctx.stepCount); } });
    const md = new VelocityVerlet({ model: harmonicModel(1), dt: 0.01, hooks: [hook] });
    const batch = oscillators();
    const first = await md.run(batch, { steps: 2 });
    const second = md.runSync(batch, { steps: 3 });
    expect(steps).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(first).toMatchObject({ steps: 2, stepCount: 2 });
    expect(second).toMatchObject({ steps: 3, stepCount: 5 });
  });
});

describe('velocity Verlet on harmonic wells', () => {
  it('follows x(t) = cos(ωt) and conserves energy', () => {
    const k = 4;
    const batch = Batch.fromSystems([{ symbols: ['Ar'], positions: [[1, 0, 0]], masses: [1] }], { units: 'lj' });
    const dt = 0.001;
    new VelocityVerlet({ model: harmonicModel(k), dt }).runSync(batch, { steps: 1000 });
    const omega = Math.sqrt(k);
    expect(batch.positions[0]).toBeCloseTo(Math.cos(omega * 1), 5);
    expect(batch.velocities[0]).toBeCloseTo(-omega * Math.sin(omega * 1), 5);
  });
});
