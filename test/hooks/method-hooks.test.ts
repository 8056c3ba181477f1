// Method-style hooks (docs/hooks.md, "Method-style hooks"): one generic mapping from a stage name to a
// method name, for any stage set, with the same gating, options and cost as stage hooks.

import { describe, expect, it } from 'vitest';
import { HookmdTypeError } from '../../lib/errors.js';
import { at, HookRegistry, markNoopMethods, stageMethodName, type StepContext } from '../../lib/hooks/index.js';

enum Etl {
  BEFORE_LOAD,
  AFTER_LOAD,
  ON_FLUSH,
}
const Phase = Object.freeze({ WARM_UP: 'warm-up', MAIN_PHASE: 'main' });

describe('method-style hooks', () => {
  it('map a stage name to on + camelCase, with one on for ON_ names', () => {
    expect(['BEFORE_STEP', 'AFTER_COMPUTE', 'AFTER_EPOCH', 'ON_CONVERGE', 'ON_CHECKPOINT_SAVE', 'WARM_UP'].map(stageMethodName)).toEqual([
      'onBeforeStep', 'onAfterCompute', 'onAfterEpoch', 'onConverge', 'onCheckpointSave', 'onWarmUp',
    ]);
  });

  it('fire at exactly the stages they have methods for, for a numeric enum and a frozen object', () => {
    const seen: string[] = [];
    const hook = {
      onAfterLoad: (ctx: StepContext, stage: Etl) => void seen.push(`after@${ctx.stepCount}:${stage}`),
      onFlush: (ctx: StepContext) => void seen.push(`flush@${ctx.stepCount}`),
    };
    const registry = new HookRegistry(Etl);
    registry.register(hook);
    for (let step = 0; step < 2; step++) for (const stage of [Etl.BEFORE_LOAD, Etl.AFTER_LOAD, Etl.ON_FLUSH]) registry.dispatch(stage, { stepCount: step });
    expect(seen).toEqual([`after@0:${Etl.AFTER_LOAD}`, 'flush@0', `after@1:${Etl.AFTER_LOAD}`, 'flush@1']);
    expect(registry.list()[0]).toMatchObject({ name: 'hook#0', type: 'MethodHook', stages: ['AFTER_LOAD', 'ON_FLUSH'], trigger: 'every(1)' });
    expect(registry.hasHooksFor(Etl.BEFORE_LOAD)).toBe(false);

    const phases: string[] = [];
    const frozen = new HookRegistry(Phase);
    frozen.register({ onMainPhase: (_ctx: StepContext, stage: string) => void phases.push(stage) });
    frozen.dispatch('warm-up', { stepCount: 0 });
    frozen.dispatch('main', { stepCount: 0 });
    expect(phases).toEqual(['main']);
  });

  it('call methods with the object as this, so class instances keep their state', () => {
    class Counter {
      count = 0;
      onAfterLoad(): void {
        this.count++;
      }
    }
    const counter = new Counter();
    const registry = new HookRegistry(Etl);
    registry.register(counter);
    for (let step = 0; step < 3; step++) registry.dispatch(Etl.AFTER_LOAD, { stepCount: step });
    expect([counter.count, registry.list()[0].name, registry.list()[0].type]).toEqual([3, 'Counter', 'Counter']);
  });

  it('take frequency, a trigger, order, name, errorPolicy and stateDict as any hook does', () => {
    const seen: string[] = [];
    const registry = new HookRegistry(Etl, { logger: { warn: (message) => void seen.push(`warn: ${message}`) } });
    registry.register({ name: 'every2', frequency: 2, order: 5, onAfterLoad: (ctx: StepContext) => void seen.push(`every2@${ctx.stepCount}`) });
    registry.register({ name: 'at3', trigger: at(3), onAfterLoad: (ctx: StepContext) => void seen.push(`at3@${ctx.stepCount}`) });
    registry.register({
      name: 'flaky', errorPolicy: 'warn', order: 9,
      onAfterLoad: () => {
        throw new Error('boom');
      },
    });
    const state = { count: 7 };
    registry.register({ name: 'stateful', stateDict: () => ({ ...state }), loadStateDict: (s: unknown) => Object.assign(state, s), onFlush: () => {} });
    for (let step = 0; step < 4; step++) registry.dispatch(Etl.AFTER_LOAD, { stepCount: step });
    expect(seen).toEqual([
      'every2@0', "warn: dispatch: hook 'flaky' failed at stage AFTER_LOAD, step 0: boom (errorPolicy 'warn': run goes on)",
      "warn: dispatch: hook 'flaky' failed at stage AFTER_LOAD, step 1: boom (errorPolicy 'warn': run goes on)",
      'every2@2', "warn: dispatch: hook 'flaky' failed at stage AFTER_LOAD, step 2: boom (errorPolicy 'warn': run goes on)",
      'at3@3', "warn: dispatch: hook 'flaky' failed at stage AFTER_LOAD, step 3: boom (errorPolicy 'warn': run goes on)",
    ]);
    expect(registry.nextDue(4)).toBe(4);
    expect(registry.stateDict()).toEqual({ stateful: { count: 7 } });
    registry.loadStateDict({ stateful: { count: 9 } });
    expect(state.count).toBe(9);
  });

  it('cost no more than stage hooks: the same trigger queries and calls, the same skip windows', () => {
    // A trigger that counts how often the registry asks it: any extra work per dispatch would show.
    const counting = (): { fires: (s: number) => boolean; next: (s: number) => number; describe: () => string; asked: number } => {
      const t = {
        asked: 0,
        fires: (s: number) => (t.asked++, s % 50 === 0),
        next: (s: number) => (t.asked++, Math.ceil(s / 50) * 50),
        describe: () => 'every(50)',
      };
      return t;
    };
    const run = (register: (r: HookRegistry<typeof Etl>, t: ReturnType<typeof counting>, calls: number[]) => void): number[] => {
      const registry = new HookRegistry(Etl);
      const trigger = counting();
      const calls: number[] = [];
      register(registry, trigger, calls);
      for (let step = 0; step < 500; step++) for (const stage of [Etl.BEFORE_LOAD, Etl.AFTER_LOAD, Etl.ON_FLUSH]) registry.dispatch(stage, { stepCount: step });
      return [trigger.asked, calls.length, registry.nextDue(1)];
    };
    const stageHook = run((r, trigger, calls) => r.register({ stage: Etl.AFTER_LOAD, frequency: 1, trigger, call: (c) => void calls.push(c.stepCount) }));
    const methodHook = run((r, trigger, calls) => r.register({ trigger, onAfterLoad: (c: StepContext) => void calls.push(c.stepCount) }));
    expect(methodHook).toEqual(stageHook);
    expect(methodHook[1]).toBe(10);
  });

  it('skip no-op base methods, and refuse two methods for one stage', () => {
    class Base {
      onAfterLoad(): void {}
      onFlush(): void {}
    }
    markNoopMethods(Base.prototype);
    class OnlyFlush extends Base {
      override onFlush(): void {}
    }
    const registry = new HookRegistry(Etl, { methodAliases: { onLoaded: Etl.AFTER_LOAD } });
    registry.register(new OnlyFlush());
    expect(registry.list()[0].stages).toEqual(['ON_FLUSH']);
    const both = { onAfterLoad: () => {}, onLoaded: () => {} };
    expect(() => registry.register(both)).toThrow(expect.objectContaining({ code: 'AMBIGUOUS_STAGE_METHOD' }));
    expect(() => new HookRegistry(Etl, { methodAliases: { onNope: 42 } })).toThrow(HookmdTypeError);
  });

  it('register and never fire when no method names one of the registry stages', () => {
    const registry = new HookRegistry(Etl);
    const handle = registry.register({ onEpochEnd: () => {
      throw new Error('never');
    } });
    registry.dispatch(Etl.AFTER_LOAD, { stepCount: 0 });
    expect([handle.registered, registry.list()[0].stages, registry.nextDue(0)]).toEqual([true, [], Number.POSITIVE_INFINITY]);
  });

  it('an object with neither call nor stage methods is still INVALID_HOOK', () => {
    const registry = new HookRegistry(Etl);
    expect(() => registry.register({ onRegister: () => {} } as never)).toThrow(expect.objectContaining({ code: 'INVALID_HOOK' }));
  });
});
