// Rules 9 and 10 of DESIGN §4 (handles, list, state), plus stage sets, config-driven registration and
// profiling.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../lib/errors.js';
import {
  after,
  and,
  defineHook,
  every,
  hookTypes,
  HookRegistry,
  registerHookType,
  stageName,
  stageValues,
  type Hook,
  type StepContext,
} from '../../lib/hooks/index.js';

enum Stage {
  LOAD,
  TRANSFORM,
  SAVE,
}
enum Named {
  START = 'start',
  END = 'end',
}
const Frozen = Object.freeze({ WARMUP: 'warmup', MAIN: 'main' });

describe('stage sets', () => {
  it('accepts numeric enums, string enums and frozen objects', () => {
    const calls: string[] = [];
    const numeric = new HookRegistry(Stage);
    numeric.register({ stage: Stage.SAVE, frequency: 1, call: (_c, s) => void calls.push(`n:${s}`) });
    numeric.dispatch(Stage.SAVE, { stepCount: 0 });
    const strings = new HookRegistry(Named);
    strings.register({ stage: Named.END, frequency: 1, call: (_c, s) => void calls.push(`s:${s}`) });
    strings.dispatch(Named.END, { stepCount: 0 });
    const frozen = new HookRegistry(Frozen);
    frozen.register({ stage: 'main', frequency: 1, call: (_c, s) => void calls.push(`f:${s}`) });
    frozen.dispatch('main', { stepCount: 0 });
    expect(calls).toEqual(['n:2', 's:end', 'f:main']);
  });

  it('stageValues and stageName skip the reverse entries of numeric enums', () => {
    expect(stageValues(Stage)).toEqual([0, 1, 2]);
    expect([stageName(Stage, Stage.SAVE), stageName(Named, Named.END), stageName(Frozen, 'warmup'), stageName(Stage, 9)]).toEqual([
      'SAVE',
      'END',
      'WARMUP',
      '9',
    ]);
    expect(new HookRegistry(Named).stageName(Named.START)).toBe('START');
  });

  it('rejects a stage set without stages', () => {
    expect(() => new HookRegistry({})).toThrow(expect.objectContaining({ code: 'INVALID_STAGE_SET' }));
    expect(() => new HookRegistry({ A: true } as never)).toThrow(HookmdTypeError);
  });

  it('rejects a hook whose stage is not in the set (FOREIGN_STAGE), unless it has runsOnStage', () => {
    const registry = new HookRegistry(Stage);
    const foreign = { stage: Named.START, frequency: 1, call: () => {} } as unknown as Hook<Stage, StepContext>;
    expect(() => registry.register(foreign)).toThrow(HookmdTypeError);
    expect(() => registry.register(foreign)).toThrow(
      "register: stage must be one of this registry's stages (LOAD, TRANSFORM, SAVE), got start",
    );
    expect(() => registry.register({ ...foreign, runsOnStage: (s) => s === Stage.LOAD })).not.toThrow();
  });
});

describe('Rule 9: registration handles and list()', () => {
  it('list() shows name, type, stage, trigger, enabled, polling, tier and order', () => {
    const registry = new HookRegistry(Stage);
    class Logger implements Hook<Stage, StepContext> {
      stage = Stage.SAVE;
      frequency = 10;
      call(): void {}
    }
    registry.register(new Logger());
    const late = registry.register(defineHook({ name: 'late', stage: Stage.LOAD, trigger: and(after(100), every(5)), order: -1, call: () => {} }));
    registry.register({ stage: null, runsOnStage: (s) => s !== Stage.TRANSFORM, frequency: 1, call: function probe() {} });
    late.disable();
    expect(registry.list()).toEqual([
      { name: 'late', type: 'Hook', stage: 'LOAD', stages: ['LOAD'], trigger: 'and(after(100), every(5))', enabled: false, polling: false, tier: 'user', order: -1 },
      { name: 'Logger', type: 'Logger', stage: 'SAVE', stages: ['SAVE'], trigger: 'every(10)', enabled: true, polling: false, tier: 'user', order: 0 },
      { name: 'probe', type: 'Hook', stage: 'LOAD|SAVE', stages: ['LOAD', 'SAVE'], trigger: 'every(1)', enabled: true, polling: false, tier: 'user', order: 0 },
    ]);
  });

  it('disable() stops a hook and takes it out of nextDue; enable() brings it back; remove() is final', () => {
    const registry = new HookRegistry(Stage);
    const steps: number[] = [];
    const handle = registry.register({ stage: Stage.SAVE, frequency: 4, call: (c) => void steps.push(c.stepCount) });
    handle.disable();
    expect([handle.enabled, registry.nextDue(1)]).toEqual([false, Number.POSITIVE_INFINITY]);
    registry.dispatch(Stage.SAVE, { stepCount: 4 });
    handle.enable();
    expect(registry.nextDue(1)).toBe(4);
    registry.dispatch(Stage.SAVE, { stepCount: 8 });
    handle.remove();
    handle.remove();
    handle.enable();
    registry.dispatch(Stage.SAVE, { stepCount: 12 });
    expect(steps).toEqual([8]);
    expect([handle.registered, handle.enabled, registry.size]).toEqual([false, false, 0]);
  });

  it('a hook may disable a later hook of the same dispatch', () => {
    const registry = new HookRegistry(Stage);
    const calls: string[] = [];
    let second: { disable(): void } | undefined;
    registry.register({ stage: Stage.LOAD, frequency: 1, call: () => { calls.push('first'); second?.disable(); } });
    second = registry.register({ stage: Stage.LOAD, frequency: 1, call: () => void calls.push('second') });
    registry.dispatch(Stage.LOAD, { stepCount: 0 });
    expect(calls).toEqual(['first']);
  });

  it('handles() lists the registrations in firing order', () => {
    const registry = new HookRegistry(Stage);
    const a = registry.register({ name: 'a', stage: Stage.LOAD, frequency: 1, order: 2, call: () => {} });
    const b = registry.register({ name: 'b', stage: Stage.LOAD, frequency: 1, call: () => {} });
    expect(registry.handles()).toEqual([b, a]);
  });
});

describe('Rule 10: state', () => {
  class Counter implements Hook<Stage, StepContext> {
    stage = Stage.SAVE;
    frequency = 1;
    count = 0;
    constructor(readonly config?: { every: number }) {}
    call(): void {
      this.count++;
    }
    stateDict(): unknown {
      return { count: this.count };
    }
    loadStateDict(state: unknown): void {
      this.count = (state as { count: number }).count;
    }
  }

  it('round-trips hook state through registry.stateDict()/loadStateDict()', () => {
    const registry = new HookRegistry(Stage);
    registry.register(new Counter());
    registry.register(new Counter({ every: 5 }));
    registry.register({ stage: Stage.SAVE, frequency: 1, call: () => {} });
    for (let step = 0; step < 3; step++) registry.dispatch(Stage.SAVE, { stepCount: step });
    const saved = registry.stateDict();
    // Key: the name, plus FNV-1a of the config's canonical JSON '{"every":5}' (computed independently).
    expect(saved).toEqual({ Counter: { count: 3 }, 'Counter#f08e6a0d': { count: 3 } });

    const restored = new HookRegistry(Stage);
    const [plain, five] = [new Counter(), new Counter({ every: 5 })];
    restored.register(five);
    restored.register(plain);
    restored.loadStateDict(JSON.parse(JSON.stringify(saved)));
    expect([plain.count, five.count]).toEqual([3, 3]);
  });

  it('the key depends on the config, not on the order of its keys', () => {
    const registry = new HookRegistry(Stage);
    const a = Object.assign(new Counter(), { config: { x: 1, y: { p: [1, 2], q: 'z' } } });
    const b = Object.assign(new Counter(), { config: { y: { q: 'z', p: [1, 2] }, x: 1 } });
    registry.register(a);
    expect(() => registry.register(b)).toThrow(expect.objectContaining({ code: 'DUPLICATE_STATE_KEY' }));
  });

  it('two stateful hooks with the same key are an error at registration', () => {
    const registry = new HookRegistry(Stage);
    registry.register(new Counter({ every: 5 }));
    expect(() => registry.register(new Counter({ every: 5 }))).toThrow(HookmdError);
    expect(() => registry.register(new Counter({ every: 5 }))).toThrow(expect.objectContaining({ code: 'DUPLICATE_STATE_KEY' }));
    registry.register(new Counter({ every: 6 }));
    const renamed = Object.assign(new Counter({ every: 5 }), { stateKey: 'counter-b' });
    registry.register(renamed);
    expect(Object.keys(registry.stateDict())).toHaveLength(3);
  });

  it('loadStateDict is strict about unknown and missing keys unless told otherwise', () => {
    const registry = new HookRegistry(Stage);
    const counter = new Counter();
    registry.register(counter);
    expect(() => registry.loadStateDict({ Counter: { count: 1 }, Other: {} })).toThrow(
      "loadStateDict: no registered hook has state key 'Other'; known keys: Counter",
    );
    expect(() => registry.loadStateDict({})).toThrow(expect.objectContaining({ code: 'MISSING_STATE_KEY' }));
    registry.loadStateDict({ Counter: { count: 9 }, Other: {} }, { strict: false });
    expect(counter.count).toBe(9);
  });
});

describe('config-driven registration', () => {
  registerHookType('CountHook', (args) =>
    defineHook({ name: 'count', stage: Stage.SAVE, frequency: args['frequency'] as number, call: () => {} }),
  );
  registerHookType('StageHook', (args) => ({ stage: args['stage'] as Stage, frequency: 1, call: () => {} }));

  it('fromConfig builds hooks by type name; enabled: false registers them disabled', () => {
    const registry = new HookRegistry(Stage);
    const handles = registry.fromConfig([
      { type: 'CountHook', frequency: 10 },
      { type: 'StageHook', stage: Stage.LOAD, enabled: false },
    ]);
    expect(handles.map((h) => h.enabled)).toEqual([true, false]);
    expect(registry.list().map((h) => [h.name, h.stage, h.trigger, h.enabled])).toEqual([
      ['count', 'SAVE', 'every(10)', true],
      ['hook#1', 'LOAD', 'every(1)', false],
    ]);
  });

  it('an unknown type name is UNKNOWN_HOOK, and the message lists the known names', () => {
    const registry = new HookRegistry(Stage);
    expect(() => registry.fromConfig([{ type: 'CountHook', frequency: 1 }, { type: 'Nope' }])).toThrow(
      "fromConfig: hooks[1].type 'Nope' is not a registered hook type; known types: CountHook, StageHook",
    );
    expect(registry.size).toBe(0);
    expect(hookTypes()).toEqual(['CountHook', 'StageHook']);
  });

  it('validation errors point into the config', () => {
    const registry = new HookRegistry(Stage);
    const attempt = (): unknown => registry.fromConfig([{ type: 'CountHook', frequency: 1 }, { type: 'StageHook', stage: 1 }, { type: 'CountHook', frequency: 0 }]);
    expect(attempt).toThrow(HookmdRangeError);
    expect(attempt).toThrow('fromConfig: hooks[2].frequency: must be an integer ≥ 1, got 0');
    expect(attempt).toThrow(expect.objectContaining({ code: 'INVALID_FREQUENCY', details: expect.objectContaining({ path: 'hooks[2].frequency' }) }));
    expect(() => registry.fromConfig([{ type: 'StageHook', stage: 7 }])).toThrow(
      expect.objectContaining({ code: 'FOREIGN_STAGE', message: expect.stringMatching(/^fromConfig: hooks\[0\]\.stage: must be one of/) }),
    );
    expect(() => registry.fromConfig([{ type: 'CountHook', enabled: 'no' }])).toThrow('fromConfig: hooks[0].enabled must be a boolean');
    expect(registry.size).toBe(0);
  });

  it('a type name can be registered once, unless replaced explicitly', () => {
    expect(() => registerHookType('CountHook', () => ({ stage: 0, frequency: 1, call: () => {} }))).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_HOOK_TYPE' }),
    );
  });
});

describe('profiling', () => {
  // The profiler reads performance.now(); a clock that advances only when a hook says so makes every total
  // exact, and counting its reads shows what profiling costs. Unit tests assert no wall-clock time.
  let now = 0;
  let reads = 0;
  beforeEach(() => {
    now = 0;
    reads = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => {
      reads++;
      return now;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('records calls and time per hook while on, and costs nothing once off', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ name: 'busy', stage: Stage.SAVE, frequency: 1, call: () => void (now += 0.2) });
    const quiet = { name: 'quiet', stage: Stage.SAVE, frequency: 2, call: () => {} };
    registry.register(quiet);
    registry.profile = true;
    for (let step = 0; step < 10; step++) registry.dispatch(Stage.SAVE, { stepCount: step });
    const readsWhileOn = reads;
    registry.profile = false;
    for (let step = 10; step < 20; step++) registry.dispatch(Stage.SAVE, { stepCount: step });
    expect(readsWhileOn).toBe(2 * (10 + 5));
    expect(reads).toBe(readsWhileOn);
    const report = registry.profileReport();
    expect(report.map((r) => [r.name, r.stage, r.calls, r.totalNs, r.meanNs])).toEqual([
      ['busy', 'SAVE', 10, 2_000_000, 200_000],
      ['quiet', 'SAVE', 5, 0, 0],
    ]);
  });

  it('times async hooks until their promise settles', async () => {
    const registry = new HookRegistry(Stage);
    let settle = (): void => {};
    registry.register({ name: 'slow', stage: Stage.SAVE, frequency: 1, call: () => new Promise<void>((r) => { settle = r; }) });
    registry.profile = true;
    const dispatched = registry.dispatch(Stage.SAVE, { stepCount: 0 });
    now += 20;
    settle();
    await dispatched;
    expect(registry.profileReport()[0]).toMatchObject({ name: 'slow', calls: 1, totalNs: 20_000_000 });
  });
});
