// Issue 39, item 32: `steps` at construction (nvalchemi's `n_steps`) is the default of run().
import { describe, expect, it } from 'vitest';

import { FIRE, fuse, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const lj = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 });

describe('steps given at construction (issue 39, item 32)', () => {
  it('is what run(batch) and runSync(batch) take without steps; run options override it', async () => {
    const fire = new FIRE({ model: lj(), steps: 7 });
    expect(fire.steps).toBe(7);
    expect((await fire.run(ljBatch([perturbedLj13(0.1)]))).steps).toBe(7);
    expect(fire.runSync(ljBatch([perturbedLj13(0.1)])).steps).toBe(7);
    expect((await fire.run(ljBatch([perturbedLj13(0.1)]), { steps: 3 })).steps).toBe(3);
    expect(() => new FIRE({ model: lj(), n_steps: 4 } as never)).toThrow(expect.objectContaining({ code: 'UNKNOWN_OPTION', message: expect.stringContaining('n_steps (did you mean steps?)') }));
  });

  it('is checked, and a sub-stage of a FusedStage refuses it, naming budgets', () => {
    expect(() => new FIRE({ model: lj(), steps: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_STEPS' }));
    expect(() => new FIRE({ model: lj(), steps: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_STEPS' }));
    expect(() => fuse(new FIRE({ model: lj(), steps: 10 }), new VelocityVerlet({ model: lj(), dt: 0.001 }))).toThrow(expect.objectContaining({ code: 'INVALID_STAGES', message: expect.stringContaining('withBudgets') }));
  });
});
