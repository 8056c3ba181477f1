// hookmd hook kernel: the lifecycle of a run (Rules 6 and 7), for every workflow: open each hook once,
// run the loop, on failure call every hook's onException, and close in a `finally`.
// The lifecycle is written once, as a generator that yields each result it needs settled; `run()`
// awaits those results and `runSync()` refuses promises, so both follow exactly the same steps.

import { asyncInSyncRun, HookError, isAsyncRefusal } from './errors.js';
import { isThenable } from './dispatch.js';
import type { HookHandle } from './handle.js';
import type { AnyHook } from './hook.js';
import type { HookLogger } from './types.js';
import { checkKeys } from '../option-keys.js';

/**
 * What a runner drives: a registry (or anything that lists registrations the same way).
 *
 * @example
 * const sources: HookSource[] = [engineHooks, convergeHooks];
 * await runLifecycle(sources, loop);
 */
export interface HookSource {
  handles(): ReadonlyArray<HookHandle<AnyHook>>;
  readonly lastContext: unknown;
}

/**
 * Options of {@link HookRunner}.
 *
 * @example
 * new HookRunner(registry, { context: () => ctx, logger: { warn: (m) => log.warn(m) } });
 */
export interface HookRunnerOptions<C> {
  /** The workflow's current context, for `onException` when the failure is not a hook's. */
  readonly context?: () => C | undefined;
  /** Where failures of onException and of close after a failed run are reported (default console). */
  readonly logger?: HookLogger;
}

// Open runs per hook object. A hook shared by two registries of one run, or by two concurrent runs,
// is opened by the first and closed by the last; `closed` lets registry disposal skip closed hooks.
interface OpenState {
  runs: number;
  closed: boolean;
}
const openStates = new WeakMap<object, OpenState>();

// A result the lifecycle needs settled before it goes on, and what produced it (for messages).
interface Pending {
  readonly value: unknown;
  readonly subject: string;
}

interface Named {
  readonly hook: AnyHook;
  readonly name: string;
}

/**
 * Drives hooks through a run. Workflows (dynamics engines, trainers, user loops) wrap their loop in
 * `run()`: hooks are opened once per run (a hook object registered in several of the runner's
 * registries, or in two runs at once, is opened once and closed once); `close()` runs in a `finally`;
 * when the loop throws (e.g. a HookError), every hook's `onException(error, ctx)` runs first.
 * Hooks registered while the run is in progress are not opened for it.
 *
 * @example
 * const runner = new HookRunner(registry, { context: () => ctx });
 * const result = await runner.run(async () => {
 *   for (; !control.stopRequested && ctx.stepCount < 100; ctx.stepCount++) {
 *     await registry.dispatch(Stage.SAVE, ctx);
 *   }
 *   return { steps: ctx.stepCount, stopped: control.stopped };
 * });
 */
export class HookRunner<C = unknown> {
  private readonly sources: readonly HookSource[];
  private readonly options: HookRunnerOptions<C>;

  constructor(sources: HookSource | readonly HookSource[], options: HookRunnerOptions<C> = {}) {
    this.sources = Array.isArray(sources) ? [...(sources as readonly HookSource[])] : [sources as HookSource];
    this.options = checkKeys('HookRunner', options, ['context', 'logger']) as HookRunnerOptions<C>;
  }

  /** Runs `body` between the hooks' open and close; resolves to its result. */
  run<T>(body: () => T | PromiseLike<T>): Promise<T> {
    return settleAsync(this.lifecycle(body)) as Promise<T>;
  }

  /** The same as `run()` for synchronous loops (`runSync()`); any promise is an ASYNC_HOOK_IN_SYNC_RUN error. */
  runSync<T>(body: () => T): T {
    return settleSync(this.lifecycle(body), 'runSync', this.logger()) as T;
  }

  private logger(): HookLogger {
    return this.options.logger ?? console;
  }

  private *lifecycle(body: () => unknown): Generator<Pending, unknown, unknown> {
    const hooks = this.collect([]);
    const opened: Named[] = [];
    let failed = false;
    try {
      for (const h of hooks) {
        try {
          yield { value: openHook(h.hook), subject: `hook '${h.name}' open()` };
        } catch (cause) {
          abandonOpen(h.hook);
          throw lifecycleError('open', h.name, cause);
        }
        opened.push(h);
      }
      return yield { value: body(), subject: 'the run body' };
    } catch (error) {
      failed = true;
      const ctx = this.contextFor(error);
      for (const h of this.collect(hooks)) {
        if (typeof h.hook.onException !== 'function') continue;
        try {
          yield { value: h.hook.onException(error, ctx), subject: `hook '${h.name}' onException()` };
        } catch (e) {
          this.logger().warn(`run: onException of hook '${h.name}' failed`, e);
        }
      }
      throw error;
    } finally {
      let first: Error | undefined;
      for (const h of opened.reverse()) {
        try {
          yield { value: closeHook(h.hook), subject: `hook '${h.name}' close()` };
        } catch (cause) {
          const error = lifecycleError('close', h.name, cause);
          if (failed || first !== undefined) this.logger().warn(error.message, cause);
          else first = error;
        }
      }
      // A close failure fails a run that otherwise succeeded; after a failure it is only logged.
      if (first !== undefined && !failed) throw first;
    }
  }

  // Every hook of every source, once each, in registration order, after those already in `known`.
  private collect(known: readonly Named[]): Named[] {
    const seen = new Set<AnyHook>(known.map((h) => h.hook));
    const out = [...known];
    for (const source of this.sources) {
      for (const handle of source.handles()) {
        if (seen.has(handle.hook)) continue;
        seen.add(handle.hook);
        out.push({ hook: handle.hook, name: handle.name });
      }
    }
    return out;
  }

  private contextFor(error: unknown): unknown {
    if (error instanceof HookError && error.context !== undefined) return error.context;
    const ctx = this.options.context?.();
    if (ctx !== undefined) return ctx;
    for (const source of this.sources) if (source.lastContext !== undefined) return source.lastContext;
    return undefined;
  }
}

/**
 * Runs `body` with the hooks of `sources` opened, closed and told of failures; see {@link HookRunner}.
 *
 * @example
 * await runLifecycle(registry, async () => { for (...) await registry.dispatch(Stage.SAVE, ctx); });
 */
export function runLifecycle<T, C = unknown>(
  sources: HookSource | readonly HookSource[],
  body: () => T | PromiseLike<T>,
  options?: HookRunnerOptions<C>,
): Promise<T> {
  return new HookRunner(sources, options).run(body);
}

/**
 * Closes hooks at the end of a registry's life (`using` / `await using`): each hook object once,
 * skipping those a run holds open (that run closes them) and those a run already closed.
 */
export function* disposeHooks(hooks: readonly Named[], logger: HookLogger): Generator<Pending, void, unknown> {
  let first: Error | undefined;
  for (const h of [...hooks].reverse()) {
    const state = openStates.get(h.hook);
    if (state !== undefined && (state.runs > 0 || state.closed)) continue;
    openStates.set(h.hook, { runs: 0, closed: true });
    try {
      yield { value: disposeHook(h.hook), subject: `hook '${h.name}' close()` };
    } catch (cause) {
      const error = lifecycleError('dispose', h.name, cause);
      if (first === undefined) first = error;
      else logger.warn(error.message, cause);
    }
  }
  if (first !== undefined) throw first;
}

// A hook's open/close failure as a HookError; a synchronous run's refusal of a promise stays as it is.
function lifecycleError(op: 'open' | 'close' | 'dispose', hookName: string, cause: unknown): Error {
  if (isAsyncRefusal(cause)) return cause as Error;
  return new HookError(op, { hookName, stage: null, stageName: op, step: Number.NaN, cause });
}

/** Drives a lifecycle generator, awaiting each result it yields. */
export async function settleAsync(steps: Generator<Pending, unknown, unknown>): Promise<unknown> {
  let input: unknown;
  let error: unknown;
  let threw = false;
  for (;;) {
    const r = threw ? steps.throw(error) : steps.next(input);
    if (r.done === true) return r.value;
    threw = false;
    try {
      input = await r.value.value;
    } catch (e) {
      threw = true;
      error = e;
    }
  }
}

/** Drives a lifecycle generator without awaiting: a promise becomes an ASYNC_HOOK_IN_SYNC_RUN error. */
export function settleSync(steps: Generator<Pending, unknown, unknown>, op: string, logger: HookLogger): unknown {
  let input: unknown;
  let error: unknown;
  let threw = false;
  for (;;) {
    const r = threw ? steps.throw(error) : steps.next(input);
    if (r.done === true) return r.value;
    threw = false;
    const { value, subject } = r.value;
    if (isThenable(value)) {
      value.then(undefined, (e: unknown) => logger.warn(`${op}: ${subject} rejected after the synchronous run refused it`, e));
      threw = true;
      error = asyncInSyncRun(op, subject);
    } else {
      input = value;
    }
  }
}

function openHook(hook: AnyHook): unknown {
  const state = openStates.get(hook) ?? { runs: 0, closed: false };
  openStates.set(hook, state);
  state.runs++;
  if (state.runs > 1) return undefined;
  state.closed = false;
  return typeof hook.open === 'function' ? hook.open() : undefined;
}

// The open failed: the hook is not open, and will not be closed.
function abandonOpen(hook: AnyHook): void {
  const state = openStates.get(hook);
  if (state !== undefined) state.runs--;
}

function closeHook(hook: AnyHook): unknown {
  const state = openStates.get(hook);
  if (state !== undefined) {
    state.runs--;
    if (state.runs > 0) return undefined;
    state.closed = true;
  }
  return disposeHook(hook);
}

// close(), else Symbol.asyncDispose, else Symbol.dispose.
function disposeHook(hook: AnyHook): unknown {
  if (typeof hook.close === 'function') return hook.close();
  const asyncDispose = hook[Symbol.asyncDispose];
  if (typeof asyncDispose === 'function') return asyncDispose.call(hook);
  const dispose = hook[Symbol.dispose];
  return typeof dispose === 'function' ? dispose.call(hook) : undefined;
}
