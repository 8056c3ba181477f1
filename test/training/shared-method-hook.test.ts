// The same method-style hook object drives a training run and a dynamics run with no changes: each
// registry maps the object's methods to its own stages by the one generic rule (issue 16).
import { describe, expect, it } from 'vitest';

import { VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import type { StepContext } from '../../lib/hooks/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';
import { makeTrainer } from './fixtures.js';

class StageCounter {
  readonly name = 'StageCounter';
  readonly counts: Record<string, number> = {};
  opened = 0;
  closed = 0;
  open(): void {
    this.opened++;
  }
  close(): void {
    this.closed++;
  }
  #count(what: string): void {
    this.counts[what] = (this.counts[what] ?? 0) + 1;
  }
  // Stages both workflows have.
  onBeforeStep(_ctx: StepContext): void {
    this.#count('beforeStep');
  }
  onAfterStep(_ctx: StepContext): void {
    this.#count('afterStep');
  }
  // Dynamics only.
  onAfterCompute(_ctx: StepContext): void {
    this.#count('afterCompute');
  }
  // Training only (a trainer alias).
  onEpochEnd(_ctx: StepContext): void {
    this.#count('epochEnd');
  }
}

describe('one method-style hook object', () => {
  it('drives a training run and a dynamics run, unchanged', async () => {
    const hook = new StageCounter();
    const trainer = makeTrainer({ epochs: 2, hooks: [hook] });
    await trainer.fit();
    expect(hook.counts).toEqual({ beforeStep: 8, afterStep: 8, epochEnd: 2 });

    const engine = new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), dt: 0.002, hooks: [hook] });
    await engine.run(ljBatch([perturbedLj13(0.05, 1)]), { steps: 5 });
    // Six computes: the forces of the start positions (its compute hooks run too, issue 28 item 1), then one per step.
    expect(hook.counts).toEqual({ beforeStep: 13, afterStep: 13, epochEnd: 2, afterCompute: 6 });
    expect([hook.opened, hook.closed]).toEqual([2, 2]);
    expect(trainer.hooks.list()[0].stages).toEqual(['BEFORE_STEP', 'AFTER_STEP', 'AFTER_EPOCH']);
    expect(engine.listHooks()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'StageCounter', stages: ['BEFORE_STEP', 'AFTER_COMPUTE', 'AFTER_STEP'] })]));
  });
});
