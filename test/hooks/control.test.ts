// Rules 5, 8 and 11 of DESIGN §4: one shared context per dispatch, stop requests, and async hooks.

import { describe, expect, it } from 'vitest';
import {
  createContext,
  HookRegistry,
  HookRunner,
  RunControl,
  type HookContext,
} from '../../lib/hooks/index.js';

enum Stage {
  LOAD = 'load',
  SAVE = 'save',
}
type Ctx = HookContext<Stage>;

describe('Rule 5: one context per dispatch', () => {
  it('every hook of a dispatch receives the same context object', () => {
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    const seen: Ctx[] = [];
    for (let i = 0; i < 3; i++) registry.register({ stage: Stage.SAVE, frequency: 1, call: (ctx) => void seen.push(ctx) });
    const ctx = createContext({ stage: Stage.SAVE, control: new RunControl(), registry });
    registry.dispatch(Stage.SAVE, ctx);
    expect(seen).toHaveLength(3);
    expect(seen.every((c) => c === ctx)).toBe(true);
  });

  it('createContext builds the base context, which the loop updates in place', () => {
    const control = new RunControl();
    const ctx = createContext({ stage: Stage.LOAD, control, workflow: 'etl', globalRank: 2 }, { rows: 0 });
    ctx.stepCount = 4;
    ctx.stage = Stage.SAVE;
    ctx.rows += 10;
    expect(ctx).toMatchObject({ stepCount: 4, stage: Stage.SAVE, workflow: 'etl', globalRank: 2, rows: 10 });
  });
});

describe('Rule 8: control', () => {
  it('a stop request ends a user loop after the current step, naming the hook', async () => {
    const control = new RunControl();
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    const log: string[] = [];
    registry.register({
      name: 'Watchdog',
      stage: Stage.LOAD,
      frequency: 1,
      call: (ctx) => {
        log.push(`load:${ctx.stepCount}`);
        if (ctx.stepCount === 3) ctx.requestStop('enough data');
      },
    });
    registry.register({ stage: Stage.LOAD, frequency: 1, call: (ctx) => void log.push(`load2:${ctx.stepCount}`) });
    registry.register({ stage: Stage.SAVE, frequency: 1, call: (ctx) => void log.push(`save:${ctx.stepCount}`) });
    const ctx = createContext({ stage: Stage.LOAD, control, registry });
    const result = await new HookRunner(registry).run(async () => {
      while (ctx.stepCount < 100) {
        for (const stage of [Stage.LOAD, Stage.SAVE]) {
          ctx.stage = stage;
          await registry.dispatch(stage, ctx);
        }
        ctx.stepCount++;
        if (control.stopRequested) break;
      }
      return { steps: ctx.stepCount, stopped: control.stopped };
    });
    expect(result).toEqual({ steps: 4, stopped: { reason: 'enough data', by: 'Watchdog' } });
    // The request changed nothing in the step: the rest of LOAD and all of SAVE still ran.
    expect(log.slice(-3)).toEqual(['load:3', 'load2:3', 'save:3']);
  });

  it('the first request wins; a request from the loop itself is by "user"', () => {
    const control = new RunControl();
    control.requestStop('signal');
    control.requestStop('later', 'SomeHook');
    expect(control.stopped).toEqual({ reason: 'signal', by: 'user' });
    control.reset();
    expect([control.stopRequested, control.stopped]).toEqual([false, undefined]);
    expect(() => control.requestStop(42 as unknown as string)).toThrow(expect.objectContaining({ code: 'INVALID_STOP_REASON' }));
  });

  it('runningHook names the hook being called, and is null between dispatches', () => {
    const registry = new HookRegistry(Stage);
    const names: Array<string | null> = [];
    registry.register({ name: 'probe', stage: Stage.SAVE, frequency: 1, call: () => void names.push(registry.runningHook) });
    registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(names).toEqual(['probe']);
    expect(registry.runningHook).toBeNull();
  });
});

describe('Rule 11: async hooks', () => {
  const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('an async hook is awaited before the next hook and the next stage', async () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    registry.register({
      stage: Stage.LOAD,
      frequency: 1,
      call: async () => {
        log.push('a:start');
        await tick(10);
        log.push('a:end');
      },
    });
    registry.register({ stage: Stage.LOAD, frequency: 1, call: () => void log.push('b') });
    registry.register({ stage: Stage.SAVE, frequency: 1, call: () => void log.push('save') });
    const pending = registry.dispatch(Stage.LOAD, { stepCount: 0 });
    expect(pending).toBeInstanceOf(Promise);
    expect(log).toEqual(['a:start']);
    await pending;
    await registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(log).toEqual(['a:start', 'a:end', 'b', 'save']);
  });

  it('after an await, the remaining hooks still run in order and a second async hook is awaited too', async () => {
    const registry = new HookRegistry(Stage);
    const log: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      registry.register({
        stage: Stage.SAVE,
        frequency: 1,
        call: name === 'a' || name === 'c' ? async () => { await tick(5); log.push(name); } : () => void log.push(name),
      });
    }
    await registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(log).toEqual(['a', 'b', 'c', 'd']);
  });

  it('dispatchSync (what runSync uses) throws ASYNC_HOOK_IN_SYNC_RUN on an async hook', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ name: 'uploader', stage: Stage.SAVE, frequency: 2, call: async () => {} });
    expect(() => registry.dispatchSync(Stage.SAVE, { stepCount: 1 })).not.toThrow();
    expect(() => registry.dispatchSync(Stage.SAVE, { stepCount: 2 })).toThrow(expect.objectContaining({ code: 'ASYNC_HOOK_IN_SYNC_RUN' }));
    expect(() => registry.dispatchSync(Stage.SAVE, { stepCount: 4 })).toThrow(
      /^dispatchSync: hook 'uploader' at stage SAVE, step 4 returned a promise/,
    );
  });

  it('runSync refuses an async open with the same error', () => {
    const registry = new HookRegistry(Stage);
    registry.register({ stage: Stage.SAVE, frequency: 1, call: () => {}, open: async () => {} });
    expect(() => new HookRunner(registry).runSync(() => 1)).toThrow(expect.objectContaining({ code: 'ASYNC_HOOK_IN_SYNC_RUN' }));
  });
});
