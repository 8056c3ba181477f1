// Issue 39, item 26: `engine.hooks` finds, lists and disables every JS hook of the engine, ON_CONVERGE ones
// (ConvergedSnapshotHook) too, which still never make a step due; and a hook registered on an engine after
// it became a FusedStage's sub-stage, which would never fire there, is refused naming the way on.
import { describe, expect, it } from 'vitest';

import { ConvergedSnapshotHook } from '../../lib/dynamics/hooks/snapshot-hook.js';
import { ConvergenceHook, DynamicsStage, FIRE, fuse, VelocityVerlet } from '../../lib/dynamics/index.js';
import { HostMemorySink } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('engine.hooks holds ON_CONVERGE hooks too', () => {
  it('get, list and disable a ConvergedSnapshotHook; disabled, it writes nothing', async () => {
    const sink = new HostMemorySink();
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2), hooks: [new ConvergedSnapshotHook({ sink, ownsSink: false })] });
    expect(fire.hooks.get('ConvergedSnapshotHook')).toBeDefined();
    expect(fire.hooks.list().map((row) => row.name)).toContain('ConvergedSnapshotHook');
    fire.hooks.disable('ConvergedSnapshotHook');
    await fire.run(ljBatch([perturbedLj13(0.1)]), { steps: 1000 });
    expect(sink.read()).toEqual([]);
    fire.hooks.enable('ConvergedSnapshotHook');
    await fire.run(ljBatch([perturbedLj13(0.1, 2)]), { steps: 1000 });
    expect(sink.read()).toHaveLength(1);
  });

  it('an ON_CONVERGE hook alone does not make steps due: the native loop runs until systems converge', async () => {
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) });
    const steps: number[] = [];
    fire.register({ stage: DynamicsStage.ON_CONVERGE, frequency: 1, name: 'seen', call: (ctx) => { steps.push(ctx.stepCount); } });
    expect(fire.hooks.nextDue(0)).toBe(Infinity);
    const result = await fire.run(ljBatch([perturbedLj13(0.1)]), { steps: 1000 });
    expect(steps).toEqual([result.steps - 1]);
  });
});

describe('a sub-stage after fuse()', () => {
  it('refuses a hook it would never fire, naming fused.register and the status of its systems', () => {
    const fire = new FIRE({ model: lj(), convergence: ConvergenceHook.fromFmax(1e-2) });
    const md = new VelocityVerlet({ model: lj(), dt: 0.002 });
    const pipeline = fuse(fire, md);
    expect(() => md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => undefined })).toThrow(expect.objectContaining({
      code: 'ENGINE_FUSED',
      message: expect.stringMatching(/VelocityVerlet\.register: this engine is sub-stage 1 of a FusedStage.*register it before fuse\(\), or on the FusedStage: fused\.register\(hook\).*batch\.status\[s\] === 1/),
    }));
    expect(pipeline.register({ stage: DynamicsStage.AFTER_STEP, frequency: 1, call: () => undefined })).toBeDefined();
  });
});
