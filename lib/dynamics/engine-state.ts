// What `engine.stateDict()` returns and `engine.loadStateDict()` takes: everything an exact restart needs
// besides the batch (docs/dynamics.md, "Exact restart"). Plain JSON: the native state's doubles travel as the
// base64 of their bytes, so that every bit (and an ∞ or NaN) survives a file.
import { HookmdError, HookmdTypeError } from '../errors.js';
import type { StateDict } from '../hooks/index.js';
import { showText } from '../describe-value.js';

/** The format tag of an engine state. */
export const ENGINE_STATE_FORMAT = 'hookmd.engine-state';

/**
 * An engine's state (nvalchemi's `state_dict()` of a dynamics engine): its step count, the native state of
 * the batch it last ran (integrator variables such as FIRE's dt and α, FIRE/L-BFGS velocities and history,
 * thermostat and barostat variables, FusedStage step counters, convergence memory), and its hooks' states.
 *
 * @example
 * const state: EngineState = fire.stateDict();
 * await writeFile('fire.json', JSON.stringify(state));
 */
export interface EngineState {
  readonly format: typeof ENGINE_STATE_FORMAT;
  readonly version: 1;
  /** The engine's class (`'FIRE'`), checked on load. */
  readonly engine: string;
  /** The native integrator it runs (`'FIRE'`, `'Fused:FIRE|Langevin'`), checked on load. */
  readonly integrator: string;
  readonly stepCount: number;
  /** Systems of the batch the native state belongs to; null before the engine ran a batch. */
  readonly numSystems: number | null;
  /** The native state, base64 of little-endian float64s; null before the engine ran a batch. */
  readonly native: string | null;
  /** Each hook registry's `stateDict()` (the engine's, then each FusedStage sub-stage's). */
  readonly hooks: readonly StateDict[];
}

/** The base64 of `values`' bytes (little-endian float64, as every platform hookmd builds for). */
export function encodeDoubles(values: Float64Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
}

/** The doubles `encodeDoubles` wrote. */
export function decodeDoubles(text: string, owner: string): Float64Array {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength % 8 !== 0 || bytes.toString('base64') !== text) {
    throw new HookmdError('INVALID_STATE', `${owner}: native must be the base64 of float64 values`, { field: 'native' });
  }
  const out = new Float64Array(bytes.byteLength / 8);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** Checks an engine state's shape against the engine loading it; returns it typed. */
export function checkEngineState(state: unknown, engine: string, integrator: string, owner: string): EngineState {
  const bad = (field: string, problem: string, value: unknown): never => {
    throw new HookmdTypeError('INVALID_STATE', `${owner}: ${field} ${problem}`, { field, value });
  };
  if (state === null || typeof state !== 'object') return bad('state', `must be what stateDict() returned, got ${typeof state}`, state);
  const s = state as Partial<Record<keyof EngineState, unknown>>;
  if (s.format !== ENGINE_STATE_FORMAT || s.version !== 1) return bad('format', `must be '${ENGINE_STATE_FORMAT}' version 1`, s.format);
  if (s.engine !== engine || s.integrator !== integrator) {
    throw new HookmdError('STATE_MISMATCH', `${owner}: the state is of a ${showText(s.engine)} (${showText(s.integrator)}), not of this ${engine} (${integrator})`, {
      field: 'engine',
      saved: s.engine,
      here: engine,
    });
  }
  if (typeof s.stepCount !== 'number' || !Number.isSafeInteger(s.stepCount) || s.stepCount < 0) return bad('stepCount', 'must be a safe integer ≥ 0', s.stepCount);
  if (s.native !== null && typeof s.native !== 'string') return bad('native', 'must be a base64 string or null', s.native);
  if (s.numSystems !== null && !(typeof s.numSystems === 'number' && Number.isSafeInteger(s.numSystems) && s.numSystems >= 0)) {
    return bad('numSystems', 'must be an integer ≥ 0 or null', s.numSystems);
  }
  if (!Array.isArray(s.hooks) || !s.hooks.every((h) => h !== null && typeof h === 'object')) return bad('hooks', 'must be an array of hook state objects', s.hooks);
  return state as EngineState;
}
