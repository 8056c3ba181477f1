// Rules 6 and 7 of DESIGN §4: open/close around a run, `using`, and what happens when a hook fails.

import { describe, expect, it } from 'vitest';
import { HookmdError } from '../../lib/errors.js';
import {
  HookError,
  HookRegistry,
  HookRunner,
  runLifecycle,
  type Hook,
  type HookLogger,
  type StepContext,
} from '../../lib/hooks/index.js';

enum Stage {
  BEFORE,
  AFTER,
}

type Ctx = StepContext & { stepCount: number };

// A hook that logs every lifecycle event as "name:event".
function tracer(name: string, log: string[], extra: Partial<Hook<Stage, Ctx>> = {}): Hook<Stage, Ctx> {
  return {
    name,
    stage: Stage.AFTER,
    frequency: 1,
    open: () => void log.push(`${name}:open`),
    close: () => void log.push(`${name}:close`),
    onException: () => void log.push(`${name}:exception`),
    call: (ctx) => void log.push(`${name}:call:${ctx.stepCount}`),
    ...extra,
  };
}

// A user loop of `steps` steps over both stages.
async function loop(registry: HookRegistry<typeof Stage, Ctx>, ctx: Ctx, steps: number): Promise<void> {
  for (; ctx.stepCount < steps; ctx.stepCount++) {
    await registry.dispatch(Stage.BEFORE, ctx);
    await registry.dispatch(Stage.AFTER, ctx);
  }
}

function silent(): HookLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message) };
}

describe('Rule 6: lifecycle', () => {
  it('open runs before the first step and close after the last, once per hook', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    registry.register(tracer('b', log, { frequency: 2 }));
    const ctx = { stepCount: 0 };
    await new HookRunner(registry).run(() => loop(registry, ctx, 3));
    expect(log).toEqual(['a:open', 'b:open', 'a:call:0', 'b:call:0', 'a:call:1', 'a:call:2', 'b:call:2', 'b:close', 'a:close']);
  });

  it('a hook object registered twice, or in two registries of one run, is opened and closed once', async () => {
    const log: string[] = [];
    const shared = tracer('s', log);
    const first = new HookRegistry<typeof Stage, Ctx>(Stage);
    const second = new HookRegistry<typeof Stage, Ctx>(Stage);
    first.register(shared);
    first.register(shared);
    second.register(shared);
    await runLifecycle([first, second], () => void log.push('body'));
    expect(log).toEqual(['s:open', 'body', 's:close']);
  });

  it('two concurrent runs sharing a hook: the first opens it, the last closes it', async () => {
    const log: string[] = [];
    const shared = tracer('s', log);
    const first = new HookRegistry<typeof Stage, Ctx>(Stage);
    const second = new HookRegistry<typeof Stage, Ctx>(Stage);
    first.register(shared);
    second.register(shared);
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const a = new HookRunner(first).run(() => gate.then(() => void log.push('a done')));
    await new HookRunner(second).run(() => void log.push('b done'));
    release();
    await a;
    expect(log).toEqual(['s:open', 'b done', 'a done', 's:close']);
  });

  it('a second run opens and closes again', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    const runner = new HookRunner(registry);
    await runner.run(() => undefined);
    await runner.run(() => undefined);
    expect(log).toEqual(['a:open', 'a:close', 'a:open', 'a:close']);
  });

  it('async open and close are awaited', async () => {
    const log: string[] = [];
    const later = (event: string) => () => new Promise<void>((resolve) => setTimeout(() => resolve(void log.push(event)), 5));
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log, { open: later('a:open'), close: later('a:close') }));
    await new HookRunner(registry).run(() => void log.push('body'));
    expect(log).toEqual(['a:open', 'body', 'a:close']);
  });

  it('falls back to Symbol.asyncDispose, then Symbol.dispose, when there is no close()', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register({ name: 'd', stage: Stage.AFTER, frequency: 1, call: () => {}, [Symbol.dispose]: () => void log.push('d:dispose') });
    registry.register({
      name: 'ad',
      stage: Stage.AFTER,
      frequency: 1,
      call: () => {},
      [Symbol.asyncDispose]: async () => void log.push('ad:asyncDispose'),
      [Symbol.dispose]: () => void log.push('ad:dispose'),
    });
    await new HookRunner(registry).run(() => undefined);
    expect(log).toEqual(['ad:asyncDispose', 'd:dispose']);
  });

  it('`using registry` closes every hook at the end of the block', () => {
    const log: string[] = [];
    {
      using registry = new HookRegistry<typeof Stage, Ctx>(Stage);
      registry.register(tracer('a', log));
      registry.register(tracer('b', log));
      registry.dispatch(Stage.AFTER, { stepCount: 0 });
      expect(registry.size).toBe(2);
    }
    expect(log).toEqual(['a:call:0', 'b:call:0', 'b:close', 'a:close']);
  });

  it('`await using registry` awaits async close()', async () => {
    const log: string[] = [];
    {
      await using registry = new HookRegistry<typeof Stage, Ctx>(Stage);
      registry.register(tracer('a', log, { close: () => new Promise<void>((r) => setTimeout(() => r(void log.push('a:closed')), 5)) }));
    }
    expect(log).toEqual(['a:closed']);
  });

  it('`using registry` does not close again hooks that a run already closed', async () => {
    const log: string[] = [];
    {
      using registry = new HookRegistry<typeof Stage, Ctx>(Stage);
      registry.register(tracer('a', log));
      await new HookRunner(registry).run(() => undefined);
    }
    expect(log).toEqual(['a:open', 'a:close']);
  });

  it('sync dispose refuses an async close with ASYNC_HOOK_IN_SYNC_RUN', () => {
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', [], { close: async () => {} }));
    expect(() => registry[Symbol.dispose]()).toThrow(expect.objectContaining({ code: 'ASYNC_HOOK_IN_SYNC_RUN' }));
  });

  it('`using handle` unregisters the hook at the end of the block', () => {
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    {
      using handle = registry.register(tracer('a', []));
      expect(handle.registered).toBe(true);
    }
    expect(registry.size).toBe(0);
  });

  it('runSync drives the same lifecycle without awaiting', () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    const ctx = { stepCount: 0 };
    const result = new HookRunner(registry).runSync(() => {
      for (; ctx.stepCount < 2; ctx.stepCount++) registry.dispatchSync(Stage.AFTER, ctx);
      return ctx.stepCount;
    });
    expect(result).toBe(2);
    expect(log).toEqual(['a:open', 'a:call:0', 'a:call:1', 'a:close']);
  });

  it('onRegister receives the registry workflow', () => {
    const seen: unknown[] = [];
    const workflow = { kind: 'md' };
    const hook = { stage: Stage.AFTER, frequency: 1, call: () => {}, onRegister: (w: unknown) => void seen.push(w) };
    new HookRegistry(Stage, { workflow }).register(hook);
    const plain = new HookRegistry(Stage);
    plain.register(hook);
    expect(seen).toEqual([workflow, plain]);
  });
});

describe('Rule 7: errors', () => {
  it('a throwing hook aborts the run with HookError { hookName, stage, step, cause }', async () => {
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    const boom = new Error('boom');
    registry.register({ name: 'bad', stage: Stage.AFTER, frequency: 3, call: () => { throw boom; } });
    const ctx = { stepCount: 1 };
    const error = await new HookRunner(registry).run(() => loop(registry, ctx, 10)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toBeInstanceOf(HookmdError);
    expect(error).toMatchObject({ code: 'HOOK_FAILED', hookName: 'bad', stage: Stage.AFTER, step: 3, cause: boom });
    expect((error as HookError).message).toBe("dispatch: hook 'bad' failed at stage AFTER, step 3: boom");
    expect(ctx.stepCount).toBe(3);
  });

  it('close runs after a throwing hook, and onException runs for every hook before any close', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    registry.register(tracer('bad', log, { call: () => { throw new Error('x'); } }));
    registry.register(tracer('c', log));
    await expect(new HookRunner(registry).run(() => loop(registry, { stepCount: 0 }, 5))).rejects.toThrow(HookError);
    expect(log).toEqual([
      'a:open', 'bad:open', 'c:open',
      'a:call:0',
      'a:exception', 'bad:exception', 'c:exception',
      'c:close', 'bad:close', 'a:close',
    ]);
  });

  it('onException receives the error and the context of the failing dispatch', async () => {
    const seen: Array<[unknown, unknown]> = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register({ name: 'bad', stage: Stage.BEFORE, frequency: 1, call: () => Promise.reject(new Error('late')) });
    registry.register({ stage: Stage.AFTER, frequency: 1, call: () => {}, onException: (e, ctx) => void seen.push([e, ctx]) });
    const ctx = { stepCount: 0 };
    const error = await new HookRunner(registry).run(() => loop(registry, ctx, 2)).catch((e: unknown) => e);
    expect(error).toMatchObject({ hookName: 'bad', step: 0, cause: new Error('late') });
    expect(seen).toEqual([[error, ctx]]);
    expect(seen[0][1]).toBe(ctx);
  });

  it('a failure outside any hook still reaches onException, with the runner context', async () => {
    const seen: unknown[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register({ stage: Stage.AFTER, frequency: 1, call: () => {}, onException: (_e, ctx) => void seen.push(ctx) });
    const ctx = { stepCount: 7 };
    const native = new Error('native failure');
    await expect(new HookRunner(registry, { context: () => ctx }).run(() => { throw native; })).rejects.toBe(native);
    expect(seen).toEqual([ctx]);
  });

  it('a failing open aborts the run; hooks opened before it are closed, the failing one is not', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    registry.register(tracer('b', log, { open: () => { throw new Error('no file'); } }));
    registry.register(tracer('c', log));
    const error = await new HookRunner(registry).run(() => log.push('body')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HOOK_FAILED', hookName: 'b', stage: null });
    expect((error as Error).message).toBe("open: hook 'b' failed: no file");
    expect(log).toEqual(['a:open', 'a:exception', 'b:exception', 'c:exception', 'a:close']);
  });

  it('a failing close fails an otherwise good run, after closing the others', async () => {
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage);
    registry.register(tracer('a', log));
    registry.register(tracer('b', log, { close: () => { throw new Error('disk full'); } }));
    const error = await new HookRunner(registry).run(() => 42).catch((e: unknown) => e);
    expect((error as Error).message).toBe("close: hook 'b' failed: disk full");
    expect(log).toEqual(['a:open', 'b:open', 'a:close']);
  });

  it("errorPolicy 'warn' logs and goes on", () => {
    const logger = silent();
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage, { logger });
    registry.register({ name: 'flaky', stage: Stage.AFTER, frequency: 1, errorPolicy: 'warn', call: (ctx) => { if (ctx.stepCount === 1) throw new Error('once'); log.push(`flaky:${ctx.stepCount}`); } });
    registry.register(tracer('next', log));
    for (let step = 0; step < 3; step++) registry.dispatch(Stage.AFTER, { stepCount: step });
    expect(log).toEqual(['flaky:0', 'next:call:0', 'next:call:1', 'flaky:2', 'next:call:2']);
    expect(logger.warnings).toEqual(["dispatch: hook 'flaky' failed at stage AFTER, step 1: once (errorPolicy 'warn': run goes on)"]);
  });

  it("errorPolicy 'disable' logs and unregisters the hook", () => {
    const logger = silent();
    const steps: number[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage, { logger });
    const handle = registry.register({ name: 'fragile', stage: Stage.AFTER, frequency: 1, errorPolicy: 'disable', call: (ctx) => { steps.push(ctx.stepCount); if (ctx.stepCount === 1) throw new Error('broken'); } });
    for (let step = 0; step < 4; step++) registry.dispatch(Stage.AFTER, { stepCount: step });
    expect(steps).toEqual([0, 1]);
    expect(handle.registered).toBe(false);
    expect(registry.list()).toEqual([]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain("errorPolicy 'disable': hook removed");
  });

  it('an async hook that rejects under the warn policy lets the rest of the stage run', async () => {
    const logger = silent();
    const log: string[] = [];
    const registry = new HookRegistry<typeof Stage, Ctx>(Stage, { logger });
    registry.register({ name: 'a', stage: Stage.AFTER, frequency: 1, errorPolicy: 'warn', call: async () => { throw new Error('async boom'); } });
    registry.register(tracer('b', log));
    await registry.dispatch(Stage.AFTER, { stepCount: 0 });
    expect(log).toEqual(['b:call:0']);
    expect(logger.warnings[0]).toContain('async boom');
  });
});
