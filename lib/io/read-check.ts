// The last step of every structure reader: the system it built must be one Batch.fromSystems takes (finite
// coordinates, positive masses, ...), so a reader never hands out a system the batch would refuse. The
// refusal becomes the reader's own parse error, at the line the offending value came from. A cell without
// volume in its periodic directions is read, as ASE reads it (`pbc="T T F"` without a Lattice), by readers
// of formats that describe slabs and clusters too; the batch refuses it, as models and engines need the
// volume. A crystal format (CIF) describes a 3D cell, so one without volume is a broken file there.
import { normalizeSystemAt, unitSystem } from '../data/index.js';
import type { NormalizeOptions, System } from '../data/index.js';
import { isHookmdError, type HookmdError } from '../errors.js';

/** The line a value of the system came from: `field` as Batch.fromSystems names it, `index` the atom. */
export type LineOf = (field: string, index: number | undefined) => number;

/**
 * Builds the reader's error: `code` is undefined for the reader's own parse code, or SINGULAR_CELL, which
 * a crystal reader keeps for a cell without volume (as its own checks of the lattice do).
 */
export type ReadFailure = (reason: string, line: number, cause: unknown, code: string | undefined) => HookmdError;

/**
 * Returns `system` once Batch.fromSystems would take it; otherwise throws `fail(...)` with the batch's
 * reason (`structure.positions[3][0] is Infinity; values must be finite`) and its line.
 */
export function checkReadSystem(system: System, units: 'metal' | 'lj', lineOf: LineOf, fail: ReadFailure, options: NormalizeOptions = { singularCell: true }): System {
  try {
    normalizeSystemAt(system, 'structure', unitSystem(units), 0, options);
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    const { field, index } = error.details as { field?: unknown; index?: unknown };
    const code = error.code === 'SINGULAR_CELL' ? error.code : undefined;
    throw fail(error.message, lineOf(String(field ?? ''), typeof index === 'number' ? index : undefined), error, code);
  }
  return system;
}
