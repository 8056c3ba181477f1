// hookmd hook kernel: config-driven registration. A global table maps hook type names to factories
// (as OpenMM maps kernel names to classes), so a JSON/YAML run file can list hooks by name.

import { HookmdError, HookmdRangeError, HookmdTypeError, isHookmdError } from '../errors.js';
import { describeCause, show } from './errors.js';
import { checkKeys } from '../option-keys.js';
import type { AnyHook, ErrorPolicy } from './hook.js';
import { isModuleType, moduleFactory } from './module-types.js';

/**
 * Builds a hook from the arguments of a config entry (the entry without `type` and `enabled`).
 *
 * @example
 * const factory: HookFactory = (args) => new LoggingHook(args as LoggingHookOptions);
 */
export type HookFactory = (args: Readonly<Record<string, unknown>>) => AnyHook;

/**
 * One entry of a hook config: the registered type name or a module path (`'./hooks.js#MyHook'`),
 * optionally `enabled: false` (the hook is registered but disabled, and still listed), `errorPolicy`
 * and `order` (applied to the built hook, whatever its type), and the factory's arguments.
 *
 * @example
 * const entry: HookConfigEntry = { type: 'LoggingHook', frequency: 10, enabled: false, errorPolicy: 'warn' };
 */
export interface HookConfigEntry {
  readonly type: string;
  readonly enabled?: boolean;
  readonly errorPolicy?: ErrorPolicy;
  readonly order?: number;
  readonly [arg: string]: unknown;
}

/**
 * Options of {@link registerHookType}.
 *
 * @example
 * registerHookType('LoggingHook', myFactory, { replace: true } satisfies RegisterHookTypeOptions);
 */
export interface RegisterHookTypeOptions {
  /** Replace an existing factory of that name instead of failing with DUPLICATE_HOOK_TYPE. */
  readonly replace?: boolean;
}

const factories = new Map<string, HookFactory>();

/**
 * Makes a hook type available to `registry.fromConfig()`.
 *
 * @example
 * registerHookType('PrintHook', (args) => defineHook({
 *   stage: Stage.SAVE, frequency: Number(args.every ?? 1), call: (ctx) => console.log(ctx.stepCount),
 * }));
 * registry.fromConfig([{ type: 'PrintHook', every: 10 }]);
 */
export function registerHookType(name: string, factory: HookFactory, options: RegisterHookTypeOptions = {}): void {
  if (typeof name !== 'string' || name === '') {
    throw new HookmdTypeError('INVALID_HOOK_TYPE', `registerHookType: name must be a non-empty string, got ${show(name)}`, {
      field: 'name',
      value: name,
    });
  }
  if (typeof factory !== 'function') {
    throw new HookmdTypeError('INVALID_HOOK_TYPE', `registerHookType: factory must be a function, got ${show(factory)}`, {
      field: 'factory',
      value: factory,
    });
  }
  checkKeys('registerHookType', options, ['replace']);
  if (factories.has(name) && options.replace !== true) {
    throw new HookmdError('DUPLICATE_HOOK_TYPE', `registerHookType: '${name}' is already registered; pass { replace: true } to replace it`, {
      name,
    });
  }
  factories.set(name, factory);
}

/**
 * The registered hook type names, sorted.
 *
 * @example
 * hookTypes(); // ['ConvergenceHook', 'LoggingHook', …]
 */
export function hookTypes(): string[] {
  return [...factories.keys()].sort();
}

/** A hook built from entry `index`, with what the registry needs to register it. */
export interface BuiltEntry<R> {
  readonly record: R;
  readonly enabled: boolean;
}

/**
 * Builds every entry through its factory and `prepare` (the registry's validation), before anything
 * is registered, so a bad entry leaves the registry untouched. Errors name the entry:
 * `fromConfig: hooks[2].frequency must be an integer ≥ 1, got 0`. Module-path types are resolved from
 * `baseDir` (default: the working directory).
 */
export function buildEntries<R>(
  entries: unknown,
  prepare: (hook: AnyHook, args: Readonly<Record<string, unknown>>) => R,
  baseDir: string = process.cwd(),
): Array<BuiltEntry<R>> {
  if (!Array.isArray(entries)) {
    throw new HookmdTypeError('INVALID_HOOK_CONFIG', `fromConfig: hooks must be an array of { type, ...args }, got ${show(entries)}`, {
      field: 'hooks',
      value: entries,
    });
  }
  return entries.map((entry: unknown, index) => {
    const path = `hooks[${index}]`;
    const { type, enabled, overrides, args } = readEntry(entry, path);
    let factory = factories.get(type);
    if (factory === undefined && isModuleType(type)) {
      try {
        factory = moduleFactory(type, baseDir);
      } catch (error) {
        throw repoint(error, `${path}.type`, type);
      }
    }
    if (factory === undefined) {
      const known = hookTypes();
      throw new HookmdError(
        'UNKNOWN_HOOK',
        `fromConfig: ${path}.type '${type}' is not a registered hook type; known types: ${known.length === 0 ? '(none)' : known.join(', ')}`,
        { path: `${path}.type`, value: type, known },
      );
    }
    try {
      const hook = factory(args);
      // errorPolicy and order belong to the kernel, so every type takes them, its factory none the wiser.
      if (hook !== null && typeof hook === 'object') Object.assign(hook, overrides);
      return { record: prepare(hook, args), enabled };
    } catch (error) {
      throw repoint(error, path, type);
    }
  });
}

interface ReadEntry {
  type: string;
  enabled: boolean;
  overrides: { errorPolicy?: unknown; order?: unknown };
  args: Record<string, unknown>;
}

function readEntry(entry: unknown, path: string): ReadEntry {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new HookmdTypeError('INVALID_HOOK_CONFIG', `fromConfig: ${path} must be an object { type, ...args }, got ${show(entry)}`, {
      path,
      value: entry,
    });
  }
  const { type, enabled, errorPolicy, order, ...args } = entry as Record<string, unknown>;
  if (typeof type !== 'string') {
    throw new HookmdTypeError('INVALID_HOOK_CONFIG', `fromConfig: ${path}.type must be a string, got ${show(type)}`, {
      path: `${path}.type`,
      value: type,
    });
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') {
    throw new HookmdTypeError('INVALID_HOOK_CONFIG', `fromConfig: ${path}.enabled must be a boolean, got ${show(enabled)}`, {
      path: `${path}.enabled`,
      value: enabled,
    });
  }
  const overrides = { ...(errorPolicy === undefined ? {} : { errorPolicy }), ...(order === undefined ? {} : { order }) };
  return { type, enabled: enabled !== false, overrides, args };
}

// Re-points a validation error into the config: same class and code, message and details with the
// path (`hooks[2].frequency: must be …`). Errors of other kinds from a factory become INVALID_HOOK_CONFIG.
function repoint(error: unknown, path: string, type: string): Error {
  if (!isHookmdError(error)) {
    return new HookmdError('INVALID_HOOK_CONFIG', `fromConfig: ${path} (${type}): ${describeCause(error)}`, { path, type }, { cause: error });
  }
  const { field, problem } = error.details;
  const where = typeof field === 'string' && field !== 'hook' ? `${path}.${field}` : path;
  const text = typeof problem === 'string' ? `${where}: ${problem}` : `${where} (${type}): ${error.message}`;
  const details = { ...error.details, path: where, type };
  if (error instanceof HookmdRangeError) return new HookmdRangeError(error.code, `fromConfig: ${text}`, details);
  if (error instanceof HookmdTypeError) return new HookmdTypeError(error.code, `fromConfig: ${text}`, details);
  return new HookmdError(error.code, `fromConfig: ${text}`, details);
}
