// hookmd hook kernel: hook types named by module path in a config, `"./my-hooks.js#MyHook"` or
// `"some-package#MyHook"`. The module is resolved from the config's directory, as `hookmd run` resolves
// its `plugins`, and loaded synchronously with require() (CommonJS, and ES modules on Node ≥ 20.19), so
// that `fromConfig` stays synchronous. The export is a class (constructed with the entry's arguments)
// or a factory function (called with them).

import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

import { HookmdError } from '../errors.js';
import { describeCause } from './errors.js';
import type { AnyHook, HookFactory } from './hook.js';

const MODULE_TYPE = /^(.+)#([A-Za-z_$][\w$]*)$/;

/**
 * True when a config `type` names a module export (`'./hooks.js#Uploader'`, `'pkg#Uploader'`).
 *
 * @example
 * isModuleType('./hooks.js#Uploader'); // true
 * isModuleType('EarlyStoppingHook');   // false
 */
export function isModuleType(type: string): boolean {
  return MODULE_TYPE.test(type);
}

/**
 * The factory of a module-path type: loads the module (relative paths and packages are resolved from
 * `baseDir`) and wraps its export. MODULE_NOT_FOUND when it cannot be loaded, UNKNOWN_HOOK when the
 * export is missing or not a class or function.
 *
 * @example
 * const make = moduleFactory('./hooks.js#Uploader', '/runs/a');
 * const hook = make({ bucket: 's3://b' });
 */
export function moduleFactory(type: string, baseDir: string): HookFactory {
  const match = MODULE_TYPE.exec(type);
  if (match === null) throw new HookmdError('UNKNOWN_HOOK', `fromConfig: '${type}' is not a module path 'file.js#Export'`, { value: type });
  const [, spec, exportName] = match;
  // createRequire needs a file name; the file need not exist, only its directory matters.
  const load = createRequire(join(resolve(baseDir), 'hookmd-config.js'));
  let loaded: Record<string, unknown>;
  try {
    loaded = load(spec) as Record<string, unknown>;
  } catch (error) {
    throw new HookmdError(
      'MODULE_NOT_FOUND',
      `fromConfig: cannot load '${spec}' for hook type '${type}' (resolved from ${resolve(baseDir)}): ${describeCause(error)}`,
      { value: type, module: spec, baseDir: resolve(baseDir) },
      { cause: error },
    );
  }
  const value = loaded[exportName];
  if (typeof value !== 'function') {
    const exports = Object.keys(loaded).filter((k) => typeof loaded[k] === 'function');
    throw new HookmdError(
      'UNKNOWN_HOOK',
      `fromConfig: '${spec}' has no class or function export '${exportName}'; its function exports: ${exports.join(', ') || '(none)'}`,
      { value: type, module: spec, known: exports },
    );
  }
  const make = value as (...args: unknown[]) => unknown;
  const isClass = /^class[\s{]/.test(Function.prototype.toString.call(make));
  return (args) => (isClass ? new (make as unknown as new (a: unknown) => AnyHook)(args) : (make(args) as AnyHook));
}
