// Issue 39, item 24: method names of seed 001, nvalchemi and other libraries that match no stage registered
// and never fired. Those with an exact counterpart now fire there; the others are UNSUPPORTED_STAGE_METHOD
// naming the method to use.
import { describe, expect, it } from 'vitest';

import { ConvergenceHook, FIRE } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { makeTrainer } from '../training/fixtures.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

describe('method names with an exact counterpart fire; the rest are refused (issue 39, item 24)', () => {
  it('trainer: onTrainingEnd, onBeforeTraining, onAfterTraining, onBeforeBatch, onAfterBatch', async () => {
    const calls: string[] = [];
    const hook = {
      onBeforeTraining: () => void calls.push('onBeforeTraining'),
      onBeforeBatch: () => void calls.push('onBeforeBatch'),
      onAfterBatch: () => void calls.push('onAfterBatch'),
      onAfterTraining: () => void calls.push('onAfterTraining'),
    };
    const seed = { onTrainingEnd: () => void calls.push('onTrainingEnd') };
    await makeTrainer({ epochs: 1, hooks: [hook, seed] }).fit();
    expect(calls[0]).toBe('onBeforeTraining');
    expect(calls[1]).toBe('onBeforeBatch');
    expect(calls).toContain('onAfterBatch');
    expect(calls.slice(-2).sort()).toEqual(['onAfterTraining', 'onTrainingEnd']);
  });

  it('trainer: onSetup and onBeforeLoss are UNSUPPORTED_STAGE_METHOD naming the method to use', () => {
    expect(() => makeTrainer({ hooks: [{ onSetup: () => undefined }] })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_STAGE_METHOD', message: expect.stringContaining('use onTrainStart') }));
    expect(() => makeTrainer({ hooks: [{ onBeforeLoss: () => undefined }] })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_STAGE_METHOD', message: expect.stringContaining('use onAfterForward') }));
  });

  it('engines: onConverged and onConvergence fire at ON_CONVERGE, onStepBegin at BEFORE_STEP', async () => {
    const seen: string[] = [];
    const fire = new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 10 }), convergence: ConvergenceHook.fromFmax(1e-2) });
    fire.register({ onConverged: () => void seen.push('onConverged') });
    fire.register({ onConvergence: () => void seen.push('onConvergence') });
    let begun = 0;
    fire.register({ onStepBegin: () => { begun += 1; } });
    const result = await fire.run(ljBatch([perturbedLj13(0.1)]), { steps: 300 });
    expect(Array.from(result.converged)).toEqual([1]);
    expect(seen.sort()).toEqual(['onConverged', 'onConvergence']);
    expect(begun).toBe(result.steps);
  });
});
