// Issue 28 item 3: stages of different enums never collide. Mirrors nvalchemi's hook guide
// (docs/userguide/hooks.md, "Cross-category hooks with plum dispatch": UniversalLoggerHook serves
// DynamicsStage.AFTER_STEP and MyPipelineStage.AFTER_PROCESS and dispatches on the stage's enum) and
// test/hooks/test_registry.py::test_register_hook_rejects_wrong_stage_type (a registry refuses another enum's stage).
import { describe, expect, it } from 'vitest';

import { DynamicsStage, VelocityVerlet } from '../../lib/dynamics/index.js';
import { HookRegistry, isStageOf } from '../../lib/hooks/index.js';
import type { AnyHook, StepContext } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { TrainingStage } from '../../lib/training/index.js';
import { ljBatch, perturbedLj13 } from '../dynamics/lj-systems.js';

// The guide's enum: BEFORE_PROCESS = 0, AFTER_PROCESS = 1.
enum MyPipelineStage {
  BEFORE_PROCESS,
  AFTER_PROCESS,
}

const engine = (hooks: AnyHook[] = []): VelocityVerlet => new VelocityVerlet({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 3 }), dt: 0.002, hooks });

describe('a custom enum stage on an engine', () => {
  it('is FOREIGN_STAGE, not a hook that fires at the dynamics stage with its number', () => {
    const hook = { stage: MyPipelineStage.AFTER_PROCESS, frequency: 1, call: () => {} };
    expect(() => engine().register(hook)).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
    expect(() => engine([hook])).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
  });

  it('a stage given by its position (code written when AFTER_STEP was 7) is FOREIGN_STAGE naming the stage meant', () => {
    const attempt = (): unknown => engine().register({ stage: 7 as DynamicsStage, frequency: 1, call: () => {} });
    expect(attempt).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
    expect(attempt).toThrow(/for AFTER_STEP give the member \(its value is 1007\)/);
  });

  it('a DynamicsStage hook on a custom registry is FOREIGN_STAGE too', () => {
    const registry = new HookRegistry(MyPipelineStage);
    expect(() => registry.register({ stage: DynamicsStage.BEFORE_PRE_UPDATE as never, frequency: 1, call: () => {} })).toThrow(expect.objectContaining({ code: 'FOREIGN_STAGE' }));
  });
});

describe('one hook for several enums (the guide\'s UniversalLoggerHook)', () => {
  function universalLogger(seen: string[]): AnyHook {
    const stages = new Set<number | string>([DynamicsStage.AFTER_STEP, MyPipelineStage.AFTER_PROCESS, TrainingStage.AFTER_EPOCH]);
    return {
      stage: DynamicsStage.AFTER_STEP,
      frequency: 1,
      runsOnStage: (stage: unknown) => stages.has(stage as number),
      call: (ctx: StepContext, stage: unknown) => {
        if (isStageOf(DynamicsStage, stage)) seen.push(`dynamics ${DynamicsStage[stage as DynamicsStage]} ${ctx.stepCount}`);
        else if (isStageOf(MyPipelineStage, stage)) seen.push(`pipeline ${MyPipelineStage[stage as MyPipelineStage]} ${ctx.stepCount}`);
        else seen.push(`other ${String(stage)}`);
      },
    };
  }

  it('fires at its dynamics stage only on an engine, and at its pipeline stage only on the pipeline', async () => {
    const seen: string[] = [];
    const hook = universalLogger(seen);
    await engine([hook]).run(ljBatch([perturbedLj13(0.05)]), { steps: 2 });
    const pipeline = new HookRegistry(MyPipelineStage);
    pipeline.register(hook);
    for (let step = 0; step < 2; step++) {
      pipeline.dispatch(MyPipelineStage.BEFORE_PROCESS, { stepCount: step });
      pipeline.dispatch(MyPipelineStage.AFTER_PROCESS, { stepCount: step });
    }
    expect(seen).toEqual(['dynamics AFTER_STEP 0', 'dynamics AFTER_STEP 1', 'pipeline AFTER_PROCESS 0', 'pipeline AFTER_PROCESS 1']);
    expect(pipeline.list()[0].stages).toEqual(['AFTER_PROCESS']);
  });

  it('isStageOf tells the sets apart', () => {
    expect(isStageOf(DynamicsStage, DynamicsStage.BEFORE_PRE_UPDATE)).toBe(true);
    expect(isStageOf(DynamicsStage, MyPipelineStage.AFTER_PROCESS)).toBe(false);
    expect(isStageOf(MyPipelineStage, DynamicsStage.BEFORE_PRE_UPDATE)).toBe(false);
    expect(isStageOf(TrainingStage, TrainingStage.AFTER_STEP)).toBe(true);
    expect(isStageOf(TrainingStage, DynamicsStage.AFTER_STEP)).toBe(false);
    expect(isStageOf(MyPipelineStage, 'AFTER_PROCESS')).toBe(false);
  });
});
