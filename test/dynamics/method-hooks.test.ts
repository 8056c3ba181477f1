// Method-style hooks in a dynamics engine: the generic names of DynamicsStage (onBeforeStep,
// onAfterCompute, onConverge, …), and an onConverge-only hook kept with the ON_CONVERGE-only stage hooks,
// so that it never makes a step due (docs/hooks.md, "Method-style hooks"; docs/dynamics.md).
import { describe, expect, it } from 'vitest';

import { ConvergenceHook, DynamicsStage, FIRE, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LennardJones } from '../../lib/models/index.js';
import type { StepContext, Trigger } from '../../lib/hooks/index.js';
import { ljBatch, perturbedLj13 } from './lj-systems.js';

const model = (): LennardJones => new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 });

// A trigger that counts how often the engine asks it: where a hook is registered decides that.
function countingTrigger(): Trigger & { asked: number } {
  const t = {
    asked: 0,
    fires: (_s: number) => (t.asked++, true),
    next: (s: number) => (t.asked++, s),
    describe: () => 'every(1)',
  };
  return t;
}

describe('method-style hooks in dynamics', () => {
  it('fire at the DynamicsStage stages they name', async () => {
    const seen: string[] = [];
    const hook = {
      onBeforeStep: (ctx: StepContext) => void seen.push(`before ${ctx.stepCount}`),
      onAfterCompute: (ctx: StepContext) => void seen.push(`compute ${ctx.stepCount}`),
    };
    await new VelocityVerlet({ model: model(), dt: 0.002, hooks: [hook] }).run(ljBatch([perturbedLj13(0.05)]), { steps: 2 });
    // The first compute (before step 0) runs the compute hooks too (upstream PR #182's force priming).
    expect(seen).toEqual(['compute 0', 'before 0', 'compute 0', 'before 1', 'compute 1']);
  });

  it('an onConverge-only hook is routed as a stage ON_CONVERGE hook is: same trigger queries, same masks', async () => {
    const run = async (make: (trigger: Trigger, masks: number[][]) => object): Promise<[number, number[][]]> => {
      const trigger = countingTrigger();
      const masks: number[][] = [];
      const fire = new FIRE({ model: model(), convergence: ConvergenceHook.fromFmax(1e-3), hooks: [make(trigger, masks) as never] });
      await fire.run(ljBatch([perturbedLj13(0.05, 1), perturbedLj13(0.1, 2)]), { steps: 2000 });
      return [trigger.asked, masks];
    };
    const staged = await run((trigger, masks) => ({
      stage: DynamicsStage.ON_CONVERGE, frequency: 1, trigger, call: (ctx: { convergedMask: Uint8Array }) => void masks.push([...ctx.convergedMask]),
    }));
    const methods = await run((trigger, masks) => ({ trigger, onConverge: (ctx: { convergedMask: Uint8Array }) => void masks.push([...ctx.convergedMask]) }));
    expect(methods).toEqual(staged);
    expect(methods[1].length).toBeGreaterThan(0);
  });
});
