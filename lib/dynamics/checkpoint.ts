// Dynamics checkpoint files: a batch and the state of the engine that runs on it, for an exact restart
// (docs/dynamics.md, "Exact restart"). JSON: the batch's doubles are written in their shortest round-trip
// form and the engine's native state as the base64 of its bytes, so a run continued from the file is bit
// for bit the run that was not interrupted.
import { readFile } from 'node:fs/promises';

import { Batch, type System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import type { Dynamics } from './dynamics.js';
import type { EngineState } from './engine-state.js';

/** The format tag of a dynamics checkpoint. */
export const DYNAMICS_CHECKPOINT_FORMAT = 'hookmd.dynamics-checkpoint';

/**
 * What `saveDynamicsCheckpoint` writes: the batch (its systems, statuses and ids) and `engine.stateDict()`.
 *
 * @example
 * const checkpoint: DynamicsCheckpoint = dynamicsCheckpoint(batch, md);
 * checkpoint.engine.stepCount; // the step the run continues from
 */
export interface DynamicsCheckpoint {
  readonly format: typeof DYNAMICS_CHECKPOINT_FORMAT;
  readonly version: 1;
  readonly units: 'metal' | 'lj';
  /** The systems as `batch.toSystems()` gives them (positions, velocities, cell, masses, results). */
  readonly systems: readonly System[];
  readonly status: readonly number[];
  readonly systemIds: readonly number[];
  readonly engine: EngineState;
}

/**
 * The checkpoint of `batch` and the engine that ran it (between runs).
 *
 * @example
 * const checkpoint = dynamicsCheckpoint(batch, md);
 */
export function dynamicsCheckpoint(batch: Batch, engine: Dynamics): DynamicsCheckpoint {
  return {
    format: DYNAMICS_CHECKPOINT_FORMAT,
    version: 1,
    units: batch.units.name,
    systems: batch.toSystems(),
    status: Array.from(batch.read('status')),
    systemIds: Array.from(batch.read('systemId')),
    engine: engine.stateDict(),
  };
}

/**
 * Writes the checkpoint of `batch` and `engine` to `path` atomically (the old file stays until the new one
 * is complete).
 *
 * @example
 * await md.run(batch, { steps: 10_000 });
 * await saveDynamicsCheckpoint('md.ckpt.json', batch, md);
 */
export async function saveDynamicsCheckpoint(path: string, batch: Batch, engine: Dynamics): Promise<void> {
  const text = JSON.stringify(dynamicsCheckpoint(batch, engine));
  await writeFileAtomic(path, (write) => write(text), 'saveDynamicsCheckpoint');
}

/**
 * Reads a checkpoint (a file, or the object `dynamicsCheckpoint` made): a new batch as it was saved, its
 * statuses and ids included, and the engine state; with `engine`, that engine also loads the state, so
 * `engine.run(batch, …)` continues the saved run.
 *
 * @example
 * const md = new Langevin({ model, dt: 2, temperature: 300, friction: 0.01, seed: 7 });
 * const { batch } = await loadDynamicsCheckpoint('md.ckpt.json', md);
 * await md.run(batch, { steps: 10_000 });
 */
export async function loadDynamicsCheckpoint(source: string | DynamicsCheckpoint, engine?: Dynamics): Promise<{ batch: Batch; state: EngineState }> {
  const checkpoint = checkCheckpoint(typeof source === 'string' ? await readCheckpointFile(source) : source);
  const batch = Batch.fromSystems(checkpoint.systems, { units: checkpoint.units });
  if (checkpoint.status.length !== batch.numSystems || checkpoint.systemIds.length !== batch.numSystems) {
    throw new HookmdError('INVALID_CHECKPOINT', `loadDynamicsCheckpoint: ${batch.numSystems} systems but ${checkpoint.status.length} statuses and ${checkpoint.systemIds.length} ids`, {
      field: 'status',
    });
  }
  batch.status.set(checkpoint.status);
  batch.restoreSystemIds(checkpoint.systemIds);
  engine?.loadStateDict(checkpoint.engine);
  return { batch, state: checkpoint.engine };
}

async function readCheckpointFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new HookmdError('FILE_NOT_FOUND', `loadDynamicsCheckpoint: cannot read ${path}: ${(cause as Error).message}`, { path }, { cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new HookmdError('INVALID_CHECKPOINT', `loadDynamicsCheckpoint: ${path} is not JSON: ${(cause as Error).message}`, { path }, { cause });
  }
}

function checkCheckpoint(value: unknown): DynamicsCheckpoint {
  const c = value as Partial<Record<keyof DynamicsCheckpoint, unknown>> | null;
  const ok =
    c !== null && typeof c === 'object' && c.format === DYNAMICS_CHECKPOINT_FORMAT && c.version === 1 && (c.units === 'metal' || c.units === 'lj') &&
    Array.isArray(c.systems) && Array.isArray(c.status) && Array.isArray(c.systemIds) && c.engine !== null && typeof c.engine === 'object';
  if (!ok) {
    throw new HookmdTypeError('INVALID_CHECKPOINT', `loadDynamicsCheckpoint: not a ${DYNAMICS_CHECKPOINT_FORMAT} version 1 (units, systems, status, systemIds, engine)`, { field: 'format' });
  }
  if (!(c.status as unknown[]).every((s) => Number.isSafeInteger(s))) {
    throw new HookmdTypeError('INVALID_CHECKPOINT', 'loadDynamicsCheckpoint: status must hold integers', { field: 'status' });
  }
  return c as DynamicsCheckpoint;
}
