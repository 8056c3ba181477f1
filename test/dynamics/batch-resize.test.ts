// A batch that is reallocated while an engine runs on it (a hook appending systems) must never make native
// code read per-system state of the old size: the run ends with a typed BATCH_RESIZED error, the batch stays
// usable, and the next run sizes everything for the grown batch.
import { describe, expect, it } from 'vitest';

import { DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 });

describe('a batch resized mid-run', () => {
  it.each([DynamicsStage.AFTER_STEP, DynamicsStage.AFTER_COMPUTE, DynamicsStage.BEFORE_PRE_UPDATE])(
    'appending systems from a hook at stage %s gives BATCH_RESIZED, and a later run moves every system',
    async (stage) => {
      const batch = ljBatch([perturbedLj13(0.05, 1)]);
      const engine = new VelocityVerlet({ model: model(), dt: 0.002 });
      const handle = engine.register({
        stage, frequency: 1,
        call: (ctx) => { if (ctx.stepCount === 3) ctx.batch.append([perturbedLj13(0.05, 2), perturbedLj13(0.05, 3)]); },
      });
      await expect(engine.run(batch, { steps: 20 })).rejects.toMatchObject({ code: 'BATCH_RESIZED' });
      expect(batch.numSystems).toBe(3);
      handle?.remove();
      const before = batch.read('positions').slice();
      batch.velocities.fill(0.1);
      await engine.run(batch, { steps: 5 });
      const after = batch.read('positions');
      // Every atom of every system moved, the appended ones included.
      for (let atom = 0; atom < batch.numAtoms; atom++) expect(after[3 * atom], `atom ${atom}`).not.toBe(before[3 * atom]);
    },
  );

  it('runSync refuses the same way', () => {
    const batch = ljBatch([perturbedLj13(0.05, 1)]);
    const engine = new VelocityVerlet({ model: model(), dt: 0.002 });
    engine.register({ stage: DynamicsStage.AFTER_STEP, frequency: 2, call: (ctx) => { ctx.batch.append([perturbedLj13(0.05, 4)]); } });
    expect(() => engine.runSync(batch, { steps: 10 })).toThrow(expect.objectContaining({ code: 'BATCH_RESIZED' }));
  });

  it('appending between runs needs nothing special', async () => {
    const batch = ljBatch([perturbedLj13(0.05, 1)]);
    const engine = new VelocityVerlet({ model: model(), dt: 0.002 });
    await engine.run(batch, { steps: 3 });
    batch.append([]);
    batch.append([perturbedLj13(0.05, 5)]);
    await expect(engine.run(batch, { steps: 3 })).resolves.toMatchObject({ steps: 3 });
  });
});
