// hookmd hook kernel: validation of a hook object, once, at registration (or in defineHook).
// Every message starts with the operation and names the field, as fromConfig re-points it.

import { rangeError, show, typeError } from './errors.js';
import type { AnyHook, ErrorPolicy, HookTier } from './hook.js';
import { isMethodHook } from './method-hooks.js';
import { isTrigger } from './triggers/trigger.js';

const POLICIES: readonly ErrorPolicy[] = ['raise', 'warn', 'ignore', 'disable'];
const TIERS: readonly HookTier[] = ['user', 'builtin'];

/** Throws the typed error for the first thing wrong with `hook` that needs no stage set to see. */
export function checkHook(hook: unknown, op: string, stageGiven = false): asserts hook is AnyHook {
  // A plain function with `stage` and `frequency` properties is a hook whose call is the function itself.
  const functionHook = typeof hook === 'function';
  if (hook === null || (typeof hook !== 'object' && !functionHook)) {
    throw typeError('INVALID_HOOK', op, 'hook', `must be an object with a call function (or a function with stage and frequency properties), got ${show(hook)}`, hook);
  }
  const h = hook as Partial<Record<keyof AnyHook, unknown>>;
  // A method-style hook (onAfterStep, onEpochEnd, …) has neither call nor stage; its methods say where it fires.
  const methodStyle = !functionHook && isMethodHook(hook);
  if (methodStyle && stageGiven) {
    throw typeError('INVALID_HOOK', op, 'stage', 'cannot be given for a method-style hook: its stage methods (onAfterStep, …) name where it fires', undefined);
  }
  if (typeof h.call !== 'function' && !methodStyle) {
    throw typeError('INVALID_HOOK', op, 'call', `must be a function (or give the hook stage methods such as onAfterStep), got ${show(h.call)}`, h.call);
  }
  if (h.trigger !== undefined && !isTrigger(h.trigger)) {
    throw typeError('INVALID_TRIGGER', op, 'trigger', 'must have fires(), next() and describe()', h.trigger);
  }
  if (h.frequency !== undefined || (h.trigger === undefined && !methodStyle)) checkFrequency(h.frequency, op);
  if (!methodStyle && !stageGiven && (h.stage === null || h.stage === undefined) && h.runsOnStage === undefined) {
    throw typeError('MISSING_STAGE', op, 'stage', 'is missing: give the hook a stage or a runsOnStage(stage) predicate', h.stage);
  }
  if (h.runsOnStage !== undefined && typeof h.runsOnStage !== 'function') {
    throw typeError('INVALID_HOOK', op, 'runsOnStage', `must be a function, got ${show(h.runsOnStage)}`, h.runsOnStage);
  }
  if (h.order !== undefined && (typeof h.order !== 'number' || !Number.isFinite(h.order))) {
    throw rangeError('INVALID_ORDER', op, 'order', `must be a finite number, got ${show(h.order)}`, h.order);
  }
  if (h.name !== undefined && typeof h.name !== 'string') {
    throw typeError('INVALID_HOOK', op, 'name', `must be a string, got ${show(h.name)}`, h.name);
  }
  if (h.errorPolicy !== undefined && !POLICIES.includes(h.errorPolicy as ErrorPolicy)) {
    throw typeError('INVALID_ERROR_POLICY', op, 'errorPolicy', `must be 'raise', 'warn', 'ignore' or 'disable', got ${show(h.errorPolicy)}`, h.errorPolicy);
  }
  if (h.tier !== undefined && !TIERS.includes(h.tier as HookTier)) {
    throw typeError('INVALID_TIER', op, 'tier', `must be 'user' or 'builtin', got ${show(h.tier)}`, h.tier);
  }
}

/** Frequency must be an integer ≥ 1 (Rule 1); NaN, 1.5, 0, -1 and Infinity are all RangeErrors. */
export function checkFrequency(frequency: unknown, op: string): number {
  if (typeof frequency !== 'number' || !Number.isSafeInteger(frequency) || frequency < 1) {
    throw rangeError('INVALID_FREQUENCY', op, 'frequency', `must be an integer ≥ 1, got ${show(frequency)}`, frequency);
  }
  return frequency;
}

/** The hook's own name: `name`, else its class name, else its call function's name, else `hook#<seq>`. */
export function hookName(hook: AnyHook, seq: number): string {
  if (typeof hook === 'function') return (hook as { name: string }).name !== '' ? (hook as { name: string }).name : `hook#${seq}`;
  if (typeof hook.name === 'string' && hook.name !== '') return hook.name;
  const ctor = (Object.getPrototypeOf(hook) as { constructor?: { name?: string } } | null)?.constructor;
  if (ctor !== undefined && ctor !== Object && typeof ctor.name === 'string' && ctor.name !== '') return ctor.name;
  const fn = typeof hook.call === 'function' ? hook.call.name : '';
  return fn !== '' && fn !== 'call' ? fn : `hook#${seq}`;
}
