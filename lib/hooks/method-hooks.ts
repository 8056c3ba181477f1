// hookmd hook kernel: method-style hooks. One generic rule maps a stage name to a method name, for any
// stage set: `on` + the name in camelCase (BEFORE_STEP → onBeforeStep; a name that already starts with
// ON_ keeps one `on`: ON_CONVERGE → onConverge). Registries may add aliases (the Trainer's onEpochEnd).
// The methods are looked up once, at registration, so a method-style hook is dispatched exactly as a
// stage hook is (docs/hooks.md, "Method-style hooks").

import { HookmdTypeError } from '../errors.js';
import { closestKey } from '../option-keys.js';
import { typeError } from './errors.js';
import type { CallFn, StageSlot } from './record.js';
import type { StageTable } from './slots.js';

// Methods with a lifecycle meaning (docs/hooks.md, Rules 6 and 7), never stage methods.
const LIFECYCLE: ReadonlySet<string> = new Set(['onRegister', 'onException']);
// `onAfterStep`, and the snake_case spelling of Python libraries (`on_step_end`), which is refused by name.
const STAGE_METHOD = /^on(?:[A-Z0-9]|_[a-z])/;
const SNAKE_METHOD = /^on_[a-z0-9_]+$/;

// Base-class methods that do nothing (TrainingCallback's): they make an object method-style but fire nowhere.
const noops = new WeakSet<object>();

/**
 * Marks the methods of a base class as no-ops: a subclass that does not override one does not fire at
 * its stage, so an empty base costs nothing.
 *
 * @example
 * markNoopMethods(TrainingCallback.prototype);
 */
export function markNoopMethods(prototype: object): void {
  for (const key of Object.getOwnPropertyNames(prototype)) {
    const value = (prototype as Record<string, unknown>)[key];
    if (key !== 'constructor' && typeof value === 'function') noops.add(value);
  }
}

/**
 * True for an object without `call` that has stage methods (`on…`, lifecycle methods aside), own or inherited.
 *
 * @example
 * isMethodHook({ onAfterStep() {} });                         // true
 * isMethodHook({ stage: 0, frequency: 1, call() {} });        // false
 */
export function isMethodHook(value: object): boolean {
  if (typeof (value as { call?: unknown }).call === 'function') return false;
  for (let o: object | null = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (STAGE_METHOD.test(key) && !LIFECYCLE.has(key) && typeof (value as Record<string, unknown>)[key] === 'function') return true;
    }
  }
  return false;
}

/**
 * The function to call at each slot for which `hook` has a (non-no-op) stage method. Two methods for one
 * stage (`onAfterEpoch` and its alias `onEpochEnd`) are an AMBIGUOUS_STAGE_METHOD error; another
 * library's method that names no stage here (the table's hints, any snake_case `on_…`) is
 * UNSUPPORTED_STAGE_METHOD naming the method to use.
 */
export function stageMethods(hook: object, table: StageTable, op: string): Map<StageSlot, CallFn> {
  refuseForeignMethods(hook, table, op);
  const out = new Map<StageSlot, CallFn>();
  for (const slot of table.slots) {
    let found: string | null = null;
    for (const name of table.methodNames(slot)) {
      const fn = (hook as Record<string, unknown>)[name];
      if (typeof fn !== 'function' || noops.has(fn)) continue;
      if (found !== null) {
        throw typeError('AMBIGUOUS_STAGE_METHOD', op, name, `and ${found} both name stage ${slot.name}; keep one of them`, fn);
      }
      found = name;
      out.set(slot, fn as CallFn);
    }
  }
  return out;
}

// Methods that would register silently and never fire: Python spellings, and the names the registry
// knows from other libraries (its hints). Other unknown camelCase names stay allowed, so that one object
// can serve a trainer and an engine.
function refuseForeignMethods(hook: object, table: StageTable, op: string): void {
  for (const name of methodNames(hook)) {
    const snake = SNAKE_METHOD.test(name);
    if (!snake && !table.hints.has(name)) continue;
    const camel = snake ? snakeToCamel(name) : name;
    const supported = table.allMethodNames();
    const hint = table.hints.get(camel);
    let advice: string;
    let use: string | undefined;
    if (supported.includes(camel) || LIFECYCLE.has(camel)) {
      use = camel;
      advice = `hookmd's method names are camelCase: write ${camel}`;
    } else if (hint !== undefined) {
      use = hint.use;
      advice = `${hint.why}; use ${hint.use}`;
    } else {
      use = closestKey(camel, supported)?.key;
      advice = `no stage here has that method; the closest is ${use}`;
    }
    throw new HookmdTypeError('UNSUPPORTED_STAGE_METHOD', `${op}: method ${name} names no stage of this workflow: ${advice}`, {
      field: name,
      use,
    });
  }
}

// The function-valued `on…` property names of an object and its prototypes (Object.prototype aside).
function methodNames(hook: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = hook; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (STAGE_METHOD.test(key) && typeof (hook as Record<string, unknown>)[key] === 'function') names.add(key);
    }
  }
  return [...names];
}

function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
