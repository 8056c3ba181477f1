import { describe, expect, it } from 'vitest';

import { DynamicsStage, initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { at, defineHook, every } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, ljFcc } from './lj-systems.js';

type Log = Array<[number, string, number]>;

function engineWithHooks(log: Log): VelocityVerlet {
  const record = (label: string) => (ctx: { stepCount: number; batch: { read(n: 'positions'): Float64Array } }): void => {
    log.push([ctx.stepCount, label, ctx.batch.read('positions')[0]]);
  };
  return new VelocityVerlet({
    model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }),
    dt: 0.005,
    hooks: [
      defineHook({ stage: DynamicsStage.AFTER_STEP, frequency: 3, name: 'every3', call: record('every3') }),
      defineHook({ stage: DynamicsStage.BEFORE_COMPUTE, trigger: every(5, { phase: 2 }), name: 'every5+2', call: record('every5+2') }),
      defineHook({ stage: DynamicsStage.AFTER_POST_UPDATE, trigger: at(4, 11), name: 'at', call: record('at') }),
    ],
  });
}

function freshBatch(): ReturnType<typeof ljBatch> {
  const batch = ljBatch([ljFcc(3)]);
  initializeVelocities(batch, { temperature: 1.0, seed: 5 });
  return batch;
}

describe('gating under native chunking', () => {
  it('hooks fire exactly where the rules say', async () => {
    const log: Log = [];
    await engineWithHooks(log).run(freshBatch(), { steps: 20 });
    const fired = (label: string): number[] => log.filter(([, l]) => l === label).map(([s]) => s);
    expect(fired('every3')).toEqual([0, 3, 6, 9, 12, 15, 18]);
    expect(fired('every5+2')).toEqual([2, 7, 12, 17]);
    expect(fired('at')).toEqual([4, 11]);
  });

  it('a chunked run equals a run that steps one step at a time, bit for bit', async () => {
    const chunkedLog: Log = [];
    const chunked = freshBatch();
    await engineWithHooks(chunkedLog).run(chunked, { steps: 20 });
    const singleLog: Log = [];
    const single = freshBatch();
    const engine = engineWithHooks(singleLog);
    for (let i = 0; i < 20; i++) await engine.run(single, { steps: 1 });
    expect(singleLog).toEqual(chunkedLog);
    expect(Array.from(single.read('positions'))).toEqual(Array.from(chunked.read('positions')));
    expect(Array.from(single.read('velocities'))).toEqual(Array.from(chunked.read('velocities')));
  });
});
