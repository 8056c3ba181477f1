// Rules 1, 2, 3, 4 and 12 of DESIGN §4: which hooks fire at which (stage, step), in what order, and
// what a dispatch costs when nothing is due.

import { describe, expect, it } from 'vitest';
import { HookmdRangeError, HookmdTypeError } from '../../lib/errors.js';
import {
  after,
  and,
  at,
  every,
  HookRegistry,
  wallClock,
  type Hook,
  type StepContext,
  type Trigger,
} from '../../lib/hooks/index.js';

enum Stage {
  LOAD,
  TRANSFORM,
  SAVE,
}

// Runs `steps` steps of a three-stage loop.
function record(registry: HookRegistry<typeof Stage>, steps: number): void {
  for (let step = 0; step < steps; step++) {
    for (const stage of [Stage.LOAD, Stage.TRANSFORM, Stage.SAVE]) registry.dispatch(stage, { stepCount: step });
  }
}

// A call function that logs "tag:STAGE:step".
function logger(log: string[], tag: string): Hook<Stage, StepContext>['call'] {
  return (ctx, stage) => {
    log.push(`${tag}:${Stage[stage]}:${ctx.stepCount}`);
  };
}

describe('Rule 1: gating', () => {
  it('fires at step 0, and frequency 3 over 10 steps fires at 0, 3, 6, 9', () => {
    const registry = new HookRegistry(Stage);
    const steps: number[] = [];
    registry.register({ stage: Stage.SAVE, frequency: 3, call: (ctx) => void steps.push(ctx.stepCount) });
    record(registry, 10);
    expect(steps).toEqual([0, 3, 6, 9]);
  });

  it('fires only at its own stage', () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    registry.register({ stage: Stage.TRANSFORM, frequency: 2, call: logger(log, 'h') });
    record(registry, 4);
    expect(log).toEqual(['h:TRANSFORM:0', 'h:TRANSFORM:2']);
  });

  it('runsOnStage picks several stages and replaces stage', () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    registry.register({ stage: null, runsOnStage: (s) => s !== Stage.TRANSFORM, frequency: 2, call: logger(log, 'm') });
    record(registry, 3);
    expect(log).toEqual(['m:LOAD:0', 'm:SAVE:0', 'm:LOAD:2', 'm:SAVE:2']);
  });

  it('a trigger replaces frequency, and phase is honoured', () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    registry.register({ stage: Stage.LOAD, frequency: 1, trigger: every(4, { phase: 2 }), call: logger(log, 't') });
    record(registry, 13);
    expect(log).toEqual(['t:LOAD:2', 't:LOAD:6', 't:LOAD:10']);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3'])('frequency %s is a RangeError at registration', (frequency) => {
    const registry = new HookRegistry(Stage);
    const hook = { stage: Stage.LOAD, frequency: frequency as number, call: () => {} };
    expect(() => registry.register(hook)).toThrow(RangeError);
    try {
      registry.register(hook);
    } catch (e) {
      expect(e).toBeInstanceOf(HookmdRangeError);
      expect((e as HookmdRangeError).code).toBe('INVALID_FREQUENCY');
      expect((e as HookmdRangeError).details).toMatchObject({ field: 'frequency' });
    }
    expect(registry.size).toBe(0);
  });

  it('names the operation and the bad value in the message', () => {
    const registry = new HookRegistry(Stage);
    expect(() => registry.register({ stage: Stage.LOAD, frequency: 0, call: () => {} })).toThrow(
      'register: frequency must be an integer ≥ 1, got 0',
    );
  });

  it('no stage and no runsOnStage is a TypeError', () => {
    const registry = new HookRegistry(Stage);
    const hook = { stage: null, frequency: 1, call: () => {} };
    expect(() => registry.register(hook)).toThrow(TypeError);
    expect(() => registry.register(hook)).toThrow(expect.objectContaining({ code: 'MISSING_STAGE' }));
  });

  it('a runsOnStage that matches no stage registers, never fires and is never due (nvalchemi)', async () => {
    const registry = new HookRegistry(Stage);
    let calls = 0;
    const handle = registry.register({ stage: null, runsOnStage: () => false, frequency: 1, name: 'elsewhere', call: () => { calls++; } });
    expect(handle.registered).toBe(true);
    expect(registry.list()).toEqual([expect.objectContaining({ name: 'elsewhere', stages: [] })]);
    for (let step = 0; step < 3; step++) for (const stage of [Stage.LOAD, Stage.TRANSFORM, Stage.SAVE]) await registry.dispatch(stage, { stepCount: step });
    expect(calls).toBe(0);
    expect(registry.nextDue(0)).toBe(Infinity);
  });

  it('other malformed hooks are typed errors', () => {
    const registry = new HookRegistry(Stage);
    const bad: unknown[] = [
      null,
      { stage: Stage.LOAD, frequency: 1 },
      { stage: Stage.LOAD, frequency: 1, call: () => {}, trigger: { fires: () => true } },
      { stage: Stage.LOAD, frequency: 1, call: () => {}, order: Number.NaN },
      { stage: Stage.LOAD, frequency: 1, call: () => {}, errorPolicy: 'skip' },
      { stage: Stage.LOAD, frequency: 1, call: () => {}, tier: 'system' },
    ];
    const codes = bad.map((hook) => {
      try {
        registry.register(hook as Hook<Stage, StepContext>);
        return 'accepted';
      } catch (e) {
        return (e as HookmdTypeError).code;
      }
    });
    expect(codes).toEqual(['INVALID_HOOK', 'INVALID_HOOK', 'INVALID_TRIGGER', 'INVALID_ORDER', 'INVALID_ERROR_POLICY', 'INVALID_TIER']);
  });
});

describe('Rule 2: the step comes from ctx.stepCount', () => {
  it('gates on the step the loop passes, whatever the number of dispatches', () => {
    const registry = new HookRegistry(Stage);
    const steps: number[] = [];
    registry.register({ stage: Stage.SAVE, frequency: 5, call: (ctx) => void steps.push(ctx.stepCount) });
    for (const step of [5, 6, 10, 10, 11, 15]) registry.dispatch(Stage.SAVE, { stepCount: step });
    expect(steps).toEqual([5, 10, 10, 15]);
  });

  it('is the same at every stage of one step', () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    registry.register({ stage: null, runsOnStage: () => true, frequency: 3, call: logger(log, 'x') });
    record(registry, 4);
    expect(log).toEqual(['x:LOAD:0', 'x:TRANSFORM:0', 'x:SAVE:0', 'x:LOAD:3', 'x:TRANSFORM:3', 'x:SAVE:3']);
  });

  it('rejects a step that is not an integer ≥ 0', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 1, call: () => {} });
    expect(() => registry.dispatch(Stage.SAVE, { stepCount: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_STEP' }));
    expect(() => registry.dispatch(Stage.SAVE, {} as StepContext)).toThrow('dispatch: ctx.stepCount must be an integer ≥ 0, got undefined');
  });
});

describe('Rule 3: order', () => {
  it('fires in registration order, sorted stably by numeric order', () => {
    const registry = new HookRegistry(Stage);
    const names: string[] = [];
    const hook = (name: string, order?: number): Hook<Stage, StepContext> => ({
      name,
      order,
      stage: Stage.LOAD,
      frequency: 1,
      call: () => void names.push(name),
    });
    for (const h of [hook('a'), hook('b', 5), hook('c', -1), hook('d', 5), hook('e'), hook('f', 0)]) registry.register(h);
    registry.dispatch(Stage.LOAD, { stepCount: 0 });
    expect(names).toEqual(['c', 'a', 'e', 'f', 'b', 'd']);
    expect(registry.list().map((h) => [h.name, h.order])).toEqual([
      ['c', -1],
      ['a', 0],
      ['e', 0],
      ['f', 0],
      ['b', 5],
      ['d', 5],
    ]);
  });

  it('is decided at registration: changing hook.order later changes nothing', () => {
    const registry = new HookRegistry(Stage);
    const names: string[] = [];
    const first = { name: 'first', stage: Stage.LOAD, frequency: 1, order: 0, call: () => void names.push('first') };
    registry.register(first);
    registry.register({ name: 'second', stage: Stage.LOAD, frequency: 1, order: 1, call: () => void names.push('second') });
    first.order = 10;
    registry.dispatch(Stage.LOAD, { stepCount: 0 });
    expect(names).toEqual(['first', 'second']);
  });
});

describe('Rule 4: triggers and nextDue', () => {
  it('nextDue is the smallest next firing step over enabled hooks', () => {
    const registry = new HookRegistry(Stage);
    const tens = registry.register({ stage: Stage.LOAD, frequency: 10, call: () => {} });
    const once = registry.register({ stage: Stage.SAVE, frequency: 1, trigger: at(25), call: () => {} });
    expect([registry.nextDue(0), registry.nextDue(1), registry.nextDue(11), registry.nextDue(21)]).toEqual([0, 10, 20, 25]);
    tens.disable();
    expect(registry.nextDue(11)).toBe(25);
    expect(registry.nextDue(26)).toBe(Number.POSITIVE_INFINITY);
    tens.enable();
    once.remove();
    expect(registry.nextDue(21)).toBe(30);
  });

  it('is Infinity with no enabled hook', () => {
    const registry = new HookRegistry(Stage);
    expect(registry.nextDue(0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a polling trigger makes nextDue the current step, and says so in list()', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 1000, call: () => {} });
    registry.register({ name: 'clock', stage: Stage.SAVE, frequency: 1, trigger: wallClock(60), call: () => {} });
    expect(registry.nextDue(42)).toBe(42);
    expect(registry.list().find((h) => h.name === 'clock')).toMatchObject({ polling: true, trigger: 'wallClock(60s)' });
  });

  it('a wall clock gated by every(n) is polled only every n steps', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 1, trigger: and(every(10), wallClock(60)), call: () => {} });
    expect(registry.nextDue(42)).toBe(50);
  });

  it('an engine loop driven by nextDue dispatches only at due steps', () => {
    const registry = new HookRegistry(Stage);
    const fired: number[] = [];
    registry.register({ stage: Stage.SAVE, frequency: 1, trigger: and(after(20), every(15)), call: (c) => void fired.push(c.stepCount) });
    registry.register({ stage: Stage.LOAD, frequency: 40, call: (c) => void fired.push(-c.stepCount) });
    const crossed: number[] = [];
    for (let step = registry.nextDue(0); step < 100; step = registry.nextDue(step + 1)) {
      crossed.push(step);
      registry.dispatch(Stage.LOAD, { stepCount: step });
      registry.dispatch(Stage.SAVE, { stepCount: step });
    }
    expect(crossed).toEqual([0, 30, 40, 45, 60, 75, 80, 90]);
    expect(fired).toEqual([-0, 30, -40, 45, 60, 75, -80, 90]);
  });
});

describe('Rule 12: cost when nothing is due', () => {
  // A trigger that counts how often the registry asks it anything.
  function counting(inner: Trigger): Trigger & { asked: number } {
    const t = {
      asked: 0,
      fires: (s: number) => (t.asked++, inner.fires(s)),
      next: (s: number) => (t.asked++, inner.next(s)),
      describe: () => inner.describe(),
    };
    return t;
  }

  it('a dispatch between due steps asks no trigger and calls no hook', () => {
    const registry = new HookRegistry(Stage);
    const trigger = counting(every(100));
    let calls = 0;
    registry.register({ stage: Stage.SAVE, frequency: 1, trigger, call: () => void calls++ });
    for (let step = 0; step <= 250; step++) registry.dispatch(Stage.SAVE, { stepCount: step });
    expect(calls).toBe(3);
    // fires + next at steps 0, 100 and 200 only: the skip window answered the other 248 dispatches.
    expect(trigger.asked).toBe(6);
  });

  it('registering, disabling or enabling a hook reopens the window', () => {
    const registry = new HookRegistry(Stage);
    const steps: number[] = [];
    registry.register({ stage: Stage.SAVE, frequency: 100, call: () => {} });
    registry.dispatch(Stage.SAVE, { stepCount: 1 });
    const h = registry.register({ stage: Stage.SAVE, frequency: 3, call: (c) => void steps.push(c.stepCount) });
    registry.dispatch(Stage.SAVE, { stepCount: 3 });
    h.disable();
    registry.dispatch(Stage.SAVE, { stepCount: 6 });
    h.enable();
    registry.dispatch(Stage.SAVE, { stepCount: 9 });
    expect(steps).toEqual([3, 9]);
  });

  it('a step before the window (a loop restarting at 0) is scanned again', () => {
    const registry = new HookRegistry(Stage);
    const steps: number[] = [];
    registry.register({ stage: Stage.SAVE, frequency: 4, call: (c) => void steps.push(c.stepCount) });
    for (const step of [0, 1, 2, 0, 4]) registry.dispatch(Stage.SAVE, { stepCount: step });
    expect(steps).toEqual([0, 0, 4]);
  });

  it('hasHooksFor and due tell a native loop which stages need a JS crossing', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 5, call: () => {} });
    const h = registry.register({ stage: Stage.LOAD, frequency: 2, call: () => {} });
    expect([registry.hasHooksFor(Stage.LOAD), registry.hasHooksFor(Stage.TRANSFORM), registry.hasHooksFor(Stage.SAVE)]).toEqual([
      true,
      false,
      true,
    ]);
    expect([registry.due(Stage.LOAD, 4), registry.due(Stage.SAVE, 4), registry.due(Stage.SAVE, 10)]).toEqual([true, false, true]);
    h.disable();
    expect([registry.hasHooksFor(Stage.LOAD), registry.due(Stage.LOAD, 4)]).toEqual([false, false]);
  });

  it('dispatch returns undefined, not a promise, when every hook is synchronous', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 1, call: () => {} });
    expect(registry.dispatch(Stage.SAVE, { stepCount: 0 })).toBeUndefined();
    expect(registry.dispatch(Stage.LOAD, { stepCount: 0 })).toBeUndefined();
  });
});
