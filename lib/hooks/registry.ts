// hookmd hook kernel: HookRegistry, the hooks of one workflow, keyed by that workflow's stage set.

import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys as checkOptionKeys } from '../option-keys.js';
import { buildEntries } from './config.js';
import type { StepContext } from './context.js';
import { RegistryCore } from './core.js';
import { anyDue, scan } from './dispatch.js';
import { show } from './errors.js';
import type { HookHandle } from './handle.js';
import type { AnyHook, Hook, MethodHook } from './hook.js';
import { disposeHooks, settleAsync, settleSync } from './lifecycle.js';
import { profileRows, instrument, uninstrument } from './profile.js';
import { makeRecord } from './make-record.js';
import type { HookRecord, StageSlot } from './record.js';
import { mergeStageSets, type StageOf, type StageSet, type StageValue } from './stages.js';
import type { FromConfigOptions, HookInfo, HookRegistryOptions, LoadStateOptions, ProfileEntry, RegisterOptions, StateDict } from './types.js';

/**
 * The hooks of one workflow. `E` is the stage set (`typeof MyStage`), `C` the context type its loop
 * dispatches; `register` type-checks each hook's stage and context against them.
 *
 * @example
 * enum Stage { LOAD, TRANSFORM, SAVE }
 * const registry = new HookRegistry(Stage);
 * registry.register({ stage: Stage.SAVE, frequency: 10, call: (ctx) => console.log(ctx.stepCount) });
 * for (let step = 0; step < 100; step++) {
 *   await registry.dispatch(Stage.SAVE, { stepCount: step });
 * }
 * registry.nextDue(42); // 50
 */
export class HookRegistry<E extends StageSet, C extends StepContext = StepContext> {
  /** The stage set the registry was made for. */
  readonly stages: E;
  private readonly core: RegistryCore;
  // The stage table's lookups, held here so that a dispatch reaches its slot in one load, not three.
  private readonly dense: ReadonlyArray<StageSlot | undefined> | null;
  private readonly byValue: ReadonlyMap<StageValue, StageSlot>;
  // The slots of the event stages (options.eventStages), which nextDue leaves out.
  private readonly eventSlots: ReadonlySet<StageSlot>;

  /** `stages` is one stage set, or several (`[StageA, StageB]`, as upstream takes a tuple of stage enums). */
  constructor(stages: E | readonly E[], options: HookRegistryOptions = {}) {
    checkOptionKeys('HookRegistry', options, ['workflow', 'logger', 'methodAliases', 'methodHints', 'eventStages']);
    const set = (Array.isArray(stages) ? mergeStageSets(stages as readonly StageSet[]) : stages) as E;
    this.stages = set;
    this.core = new RegistryCore(set, options.logger ?? console, 'workflow' in options ? options.workflow : this, options.methodAliases, options.methodHints);
    this.dense = this.core.table.dense;
    this.byValue = this.core.table.byValue;
    this.eventSlots = new Set((options.eventStages ?? []).flatMap((stage) => this.core.table.slot(stage) ?? []));
  }

  /**
   * Registers a hook (validated here: Rule 1, FOREIGN_STAGE, state key) and calls its `onRegister`.
   *
   * @example
   * const handle = registry.register({ stage: Stage.LOAD, frequency: 1, call: (ctx) => {} });
   */
  register<T extends StageOf<E>, H extends Hook<T, C> = Hook<T, C>>(hook: H & Hook<T, C>, options?: RegisterOptions<StageOf<E>>): HookHandle<H>;
  /**
   * Registers a plain function with `stage` and `frequency` properties (or a stage given here): the function
   * is the hook's `call`.
   *
   * @example
   * const report = Object.assign((ctx: StepContext) => console.log(ctx.stepCount), { stage: Stage.SAVE, frequency: 10 });
   * registry.register(report);
   */
  register<F extends (ctx: C, stage: StageOf<E>) => unknown>(hook: F & { frequency?: number; stage?: StageOf<E> | null }, options?: RegisterOptions<StageOf<E>>): HookHandle<F>;
  /**
   * Registers a method-style hook: it fires at the stages it has methods for (`onAfterStep`, …; see
   * {@link MethodHook}).
   *
   * @example
   * registry.register({ onSave: (ctx: StepContext) => console.log(ctx.stepCount) });
   */
  register<H extends object>(hook: MethodHook<H>): HookHandle<H>;
  register(hook: unknown, options?: RegisterOptions<StageOf<E>>): HookHandle<unknown> {
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      // register(hook, Stage.X) as a positional stage: name the options object it goes in.
      const stage = this.core.table.slot(options);
      const advice = stage === undefined ? `got ${show(options)}` : `the stage goes there: register(hook, { stage: ${stage.name} }), not register(hook, ${stage.name})`;
      throw new HookmdTypeError('INVALID_OPTIONS', `register: options must be an object such as { stage }; ${advice}`, { field: 'options', value: options, ...(stage === undefined ? {} : { suggestion: `{ stage: ${stage.name} }` }) });
    }
    if (options !== undefined) checkOptionKeys('register', options, ['stage']);
    const rec = makeRecord(hook, this.core.seq++, this.core.table, 'register', undefined, registerStage(options));
    return this.commit([rec], 'register')[0];
  }

  /**
   * Registers hooks from a config through the factories of `registerHookType`; entries with
   * `enabled: false` are registered disabled. Nothing is registered if any entry is invalid.
   *
   * @example
   * registry.fromConfig([{ type: 'LoggingHook', frequency: 10 }, { type: 'ProgressHook', enabled: false }]);
   * registry.fromConfig([{ type: './my-hooks.js#Uploader', errorPolicy: 'warn' }], { baseDir: '/runs/a' });
   */
  fromConfig(entries: readonly unknown[], options: FromConfigOptions = {}): Array<HookHandle<AnyHook>> {
    checkOptionKeys('HookRegistry.fromConfig', options, ['baseDir']);
    const built = buildEntries(entries, (hook, args) => makeRecord(hook, this.core.seq++, this.core.table, 'fromConfig', args), options.baseDir);
    const handles = this.commit(built.map((b) => b.record), 'fromConfig');
    built.forEach((b, i) => {
      if (!b.enabled) handles[i].disable();
    });
    return handles;
  }

  /** Every registration, in firing order. */
  handles(): Array<HookHandle<AnyHook>> {
    return this.core.records.map((rec) => rec.handle as HookHandle<AnyHook>);
  }

  /** One row per registered hook, in firing order (Rule 9). */
  list(): HookInfo[] {
    return this.core.records.map((rec) => {
      const stages = rec.slots.map((s) => s.name);
      return {
        name: rec.name,
        type: hookType(rec),
        stage: stages.join('|'),
        stages,
        trigger: rec.trigger.describe(),
        enabled: rec.enabled,
        polling: rec.trigger.polling === true,
        tier: rec.tier,
        order: rec.order,
      };
    });
  }

  /**
   * The handle of the hook named `name`, or undefined. A name matches exactly (`'Logger#2'`), or without
   * the `Hook` suffix of a hook's name (`'EarlyStopping'` finds `EarlyStoppingHook`, as Lightning and
   * Keras users call it) when exactly one hook has that short name.
   *
   * @example
   * trainer.hooks.get('EarlyStopping')?.disable();
   */
  get(name: string): HookHandle<AnyHook> | undefined {
    return findRecord(this.core.records, name, 'get')?.handle as HookHandle<AnyHook> | undefined;
  }

  /**
   * Unregisters the hook named `name` (see {@link HookRegistry.get} for the matching); UNKNOWN_HOOK_NAME
   * when there is none.
   *
   * @example
   * trainer.hooks.remove('EarlyStopping');
   */
  remove(name: string): HookHandle<AnyHook> {
    const handle = this.#named(name, 'remove');
    handle.remove();
    return handle;
  }

  /** Enables the hook named `name`; UNKNOWN_HOOK_NAME when there is none. */
  enable(name: string): HookHandle<AnyHook> {
    const handle = this.#named(name, 'enable');
    handle.enable();
    return handle;
  }

  /** Disables the hook named `name` (it stays listed); UNKNOWN_HOOK_NAME when there is none. */
  disable(name: string): HookHandle<AnyHook> {
    const handle = this.#named(name, 'disable');
    handle.disable();
    return handle;
  }

  #named(name: string, op: string): HookHandle<AnyHook> {
    const rec = findRecord(this.core.records, name, op);
    if (rec === undefined) {
      const known = this.core.records.map((r) => r.name);
      throw new HookmdError('UNKNOWN_HOOK_NAME', `${op}: no hook is named '${name}'; hooks: ${known.join(', ') || '(none)'}`, { field: 'name', value: name, known });
    }
    return rec.handle as HookHandle<AnyHook>;
  }

  /**
   * Runs the hooks due at `stage` for `ctx.stepCount`, in order. Synchronous (returns undefined) unless
   * a hook returns a promise; then it returns a promise and runs the remaining hooks after awaiting it.
   * A failing hook raises a {@link HookError} (or is logged, per its errorPolicy).
   */
  dispatch(stage: StageOf<E>, ctx: C): void | Promise<void> {
    // Numeric stages of a dense table are an array index; anything else goes through the Map.
    const dense = this.dense;
    const slot = dense !== null && typeof stage === 'number' ? dense[stage] : this.byValue.get(stage);
    if (slot === undefined) return undefined;
    const step = ctx.stepCount;
    // The skip window: nothing of this stage fires in [from, due), so the common case ends here.
    if (step < slot.due && step >= slot.from) return undefined;
    return this.scan(slot, stage, ctx, step, false);
  }

  /** `dispatch` for synchronous runs: a hook returning a promise is an ASYNC_HOOK_IN_SYNC_RUN error. */
  dispatchSync(stage: StageOf<E>, ctx: C): void {
    const dense = this.dense;
    const slot = dense !== null && typeof stage === 'number' ? dense[stage] : this.byValue.get(stage);
    if (slot === undefined) return;
    const step = ctx.stepCount;
    if (step < slot.due && step >= slot.from) return;
    this.scan(slot, stage, ctx, step, true);
  }

  /**
   * The first step ≥ `step` at which some enabled hook fires, at any stage but the event stages, or
   * Infinity. Engines run natively until then (Rule 12). A polling trigger (wallClock) makes it return `step` itself.
   */
  nextDue(step: number): number {
    checkStep('nextDue', step);
    let min = Infinity;
    for (const rec of this.core.records) {
      if (!rec.enabled || rec.slots.every((slot) => this.eventSlots.has(slot))) continue;
      const next = rec.nextFrom(step);
      if (next < min) min = next;
      if (min === step) break;
    }
    return min;
  }

  /** True when `stage` has enabled hooks (a native loop can skip stages without any). */
  hasHooksFor(stage: StageOf<E>): boolean {
    const slot = this.core.table.slot(stage);
    return slot !== undefined && slot.recs.length > 0;
  }

  /** True when some enabled hook fires at `stage` of step `step`: whether a native loop must cross into JS there. */
  due(stage: StageOf<E>, step: number): boolean {
    const slot = this.core.table.slot(stage);
    return slot !== undefined && anyDue(slot, step);
  }

  /** The name of a stage value (`'SAVE'`), for messages. */
  stageName(stage: StageValue): string {
    return this.core.table.name(stage);
  }

  /** The name of the hook being called right now, or null between hooks (`requestStop`'s `by`). */
  get runningHook(): string | null {
    return this.core.running;
  }

  /** The context of the last dispatch that checked its hooks (a dispatch inside the skip window does not). */
  get lastContext(): C | undefined {
    return this.core.lastContext as C | undefined;
  }

  /** Number of registered hooks. */
  get size(): number {
    return this.core.records.length;
  }

  /** While true, each hook call is timed (see {@link HookRegistry.profileReport}); setting it to true resets the counts. */
  get profile(): boolean {
    return this.core.profiling;
  }

  set profile(on: boolean) {
    this.core.profiling = on;
    for (const rec of this.core.records) if (on) instrument(rec);
    else uninstrument(rec);
    this.core.rebuild();
  }

  /** Calls and time per hook since profiling was switched on, slowest first. */
  profileReport(): ProfileEntry[] {
    return profileRows(this.core.records);
  }

  /** `{ [stateKey]: hook.stateDict() }` for every registered hook that has `stateDict` (Rule 10). */
  stateDict(): StateDict {
    const out: StateDict = {};
    for (const rec of this.core.records) if (rec.stateKey !== null) out[rec.stateKey] = rec.hook.stateDict?.();
    return out;
  }

  /** Restores hook states saved by `stateDict()`. */
  loadStateDict(state: StateDict, options: LoadStateOptions = {}): void {
    checkOptionKeys('HookRegistry.loadStateDict', options, ['strict']);
    if (state === null || typeof state !== 'object') {
      throw new HookmdTypeError('INVALID_STATE', `loadStateDict: state must be an object, got ${show(state)}`, { value: state });
    }
    const byKey = new Map<string, HookRecord>();
    for (const rec of this.core.records) if (rec.stateKey !== null) byKey.set(rec.stateKey, rec);
    if (options.strict !== false) checkKeys(Object.keys(state), byKey);
    for (const [key, value] of Object.entries(state)) {
      const rec = byKey.get(key);
      if (rec === undefined) continue;
      if (typeof rec.hook.loadStateDict !== 'function') {
        throw new HookmdTypeError('STATE_NOT_LOADABLE', `loadStateDict: hook '${rec.name}' has stateDict() but no loadStateDict()`, {
          stateKey: key,
        });
      }
      rec.hook.loadStateDict(value);
    }
  }

  /** Unregisters every hook and closes those that no run holds open or has closed (`using registry = …`). */
  [Symbol.dispose](): void {
    const hooks = this.clear();
    settleSync(disposeHooks(hooks, this.core.logger), 'dispose', this.core.logger);
  }

  /** As `[Symbol.dispose]`, awaiting async `close()`s (`await using registry = …`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await settleAsync(disposeHooks(this.clear(), this.core.logger));
  }

  private clear(): Array<{ hook: AnyHook; name: string }> {
    const seen = new Set<AnyHook>();
    const hooks: Array<{ hook: AnyHook; name: string }> = [];
    for (const rec of [...this.core.records]) {
      if (!seen.has(rec.hook)) hooks.push({ hook: rec.hook, name: rec.name });
      seen.add(rec.hook);
      this.core.remove(rec);
    }
    return hooks;
  }

  private commit(recs: readonly HookRecord[], op: string): Array<HookHandle<AnyHook>> {
    this.core.add(recs, op);
    for (const rec of recs) rec.hook.onRegister?.(this.core.workflow);
    return recs.map((rec) => rec.handle as HookHandle<AnyHook>);
  }

  private scan(slot: StageSlot, stage: unknown, ctx: C, step: number, sync: boolean): void | Promise<void> {
    if (!(step >= 0 && step % 1 === 0)) checkStep('dispatch', step);
    this.core.lastContext = ctx;
    return scan(this.core, slot, slot.recs, slot.fns, 0, Infinity, stage, ctx, step, sync);
  }
}

// The stage `register(hook, { stage })` gives instead of the hook's own, or undefined.
function registerStage(options: unknown): { readonly value: unknown } | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', `register: options must be an object such as { stage }, got ${show(options)}`, { field: 'options', value: options });
  }
  const unknown = Object.keys(options).filter((key) => key !== 'stage');
  if (unknown.length > 0) {
    throw new HookmdTypeError('UNKNOWN_OPTION', `register: unknown option ${unknown.map((k) => `'${k}'`).join(', ')}; known: stage`, { field: unknown[0], value: unknown[0] });
  }
  const stage = (options as { stage?: unknown }).stage;
  return stage === undefined ? undefined : { value: stage };
}

// What list() shows as a hook's type: its config's type, its class, or 'MethodHook' / 'Hook' for plain objects.
function hookType(rec: HookRecord): string {
  const type = (rec.hook.config as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && type !== '') return type;
  const ctor = (Object.getPrototypeOf(rec.hook) as { constructor?: { name?: string } } | null)?.constructor;
  if (ctor !== undefined && ctor !== Object && typeof ctor.name === 'string' && ctor.name !== '') return ctor.name;
  return rec.methodStyle ? 'MethodHook' : 'Hook';
}

// Exact name first; else the one hook whose name without its 'Hook' suffix is `name` ('EarlyStopping').
function findRecord(records: readonly HookRecord[], name: string, op: string): HookRecord | undefined {
  if (typeof name !== 'string') {
    throw new HookmdTypeError('INVALID_HOOK_NAME', `${op}: name must be a string, got ${show(name)}`, { field: 'name', value: name });
  }
  const exact = records.find((r) => r.name === name);
  if (exact !== undefined) return exact;
  const short = records.filter((r) => r.name.replace(/Hook(?=#\d+$|$)/, '') === name);
  if (short.length > 1) {
    throw new HookmdError('AMBIGUOUS_HOOK_NAME', `${op}: '${name}' matches ${short.map((r) => `'${r.name}'`).join(', ')}; use the full name`, {
      field: 'name',
      value: name,
      matches: short.map((r) => r.name),
    });
  }
  return short[0];
}

// A step must be an integer ≥ 0: a TypeError for a non-number (a context without stepCount), else a RangeError.
function checkStep(op: string, step: unknown): void {
  if (typeof step === 'number' && Number.isSafeInteger(step) && step >= 0) return;
  const field = op === 'dispatch' ? 'ctx.stepCount' : 'step';
  const message = `${op}: ${field} must be an integer ≥ 0, got ${show(step)}`;
  if (typeof step !== 'number') throw new HookmdTypeError('INVALID_STEP', message, { field, value: step });
  throw new HookmdRangeError('INVALID_STEP', message, { field, value: step });
}

function checkKeys(keys: readonly string[], byKey: ReadonlyMap<string, HookRecord>): void {
  const unknown = keys.filter((k) => !byKey.has(k));
  if (unknown.length > 0) {
    throw new HookmdError(
      'UNKNOWN_STATE_KEY',
      `loadStateDict: no registered hook has state key ${unknown.map((k) => `'${k}'`).join(', ')}; known keys: ${[...byKey.keys()].join(', ') || '(none)'}`,
      { keys: unknown, known: [...byKey.keys()] },
    );
  }
  const missing = [...byKey.keys()].filter((k) => !keys.includes(k));
  if (missing.length > 0) {
    throw new HookmdError('MISSING_STATE_KEY', `loadStateDict: the state has no entry for ${missing.map((k) => `'${k}'`).join(', ')}`, {
      keys: missing,
    });
  }
}
