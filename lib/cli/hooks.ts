// Hooks of a run config, built by registered type name through the hook-type table (the factories of
// `registerHookType`, as `registry.fromConfig` builds them) and then registered on the engine, which
// routes native built-ins into its native loop and ON_CONVERGE hooks apart: registering straight into
// `engine.hooks` would run every built-in from JS.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

import '../dynamics/hooks/logging-hook.js';
import '../dynamics/hooks/snapshot-hook.js';
import './analysis-hooks.js';
import type { Dynamics } from '../dynamics/index.js';
import { isHookmdError } from '../errors.js';
import { buildEntries } from '../hooks/config.js';
import type { AnyHook, HookConfigEntry } from '../hooks/index.js';
import { checkHook } from '../hooks/validate.js';
import { configError, parsePath } from './config-file.js';
import type { PathSegment } from './json-schema.js';
import type { UnitsName } from './run-config.js';

// Hook types that open a file sink themselves; they write in the run's units unless told otherwise.
const FILE_SINK_HOOKS: ReadonlySet<string> = new Set(['SnapshotHook', 'ConvergedSnapshotHook']);

/** Imports plugin modules (paths relative to `baseDir`, the config's directory) so that they can register hook types. */
export async function loadPlugins(plugins: readonly string[], baseDir: string, locate: (path: readonly PathSegment[]) => string): Promise<void> {
  for (const [i, plugin] of plugins.entries()) {
    try {
      await import(pathToFileURL(resolve(baseDir, plugin)).href);
    } catch (error) {
      throw configError([`${locate(['plugins', i])}: plugins[${i}]: cannot import '${plugin}': ${(error as Error).message}`]);
    }
  }
}

/**
 * Builds the enabled hooks of `entries` and registers them on `engine`. Problems point into the config:
 * `run.yaml:9: hooks[1].type 'Nope' is not a registered hook type; known types: …`. Module-path types
 * (`'./my-hooks.js#MyHook'`) are resolved from `baseDir`, the config's directory.
 */
export function registerConfigHooks(
  engine: Dynamics,
  entries: readonly HookConfigEntry[],
  units: UnitsName,
  locate: (path: readonly PathSegment[]) => string,
  baseDir: string = process.cwd(),
): AnyHook[] {
  const withUnits = entries.map((entry) => (FILE_SINK_HOOKS.has(entry.type) && entry.units === undefined ? { ...entry, units } : entry));
  let built: Array<{ record: AnyHook; enabled: boolean }>;
  try {
    built = buildEntries(withUnits, (hook) => {
      checkHook(hook, 'fromConfig');
      return hook;
    }, baseDir);
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    const path = typeof error.details.path === 'string' ? parsePath(error.details.path) : ['hooks'];
    throw configError([`${locate(path)}: ${error.message.replace(/^fromConfig: /, '')}`], { cause: error.code });
  }
  const hooks: AnyHook[] = [];
  built.forEach(({ record: hook, enabled }, i) => {
    if (!enabled) return;
    try {
      engine.register(hook);
    } catch (error) {
      // A hook of another kernel (a training hook, say) has stages a dynamics engine does not know.
      if (!isHookmdError(error)) throw error;
      throw configError([`${locate(['hooks', i])}: hooks[${i}] (${entries[i].type}): ${error.message}`], { cause: error.code });
    }
    hooks.push(hook);
  });
  return hooks;
}
