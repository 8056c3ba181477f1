// Turns a native failure caused by numbers that blew up (non-finite positions reaching the neighbor list)
// into an error that names the systems, the step and the cause (docs/dynamics.md, "When numbers blow up").
import type { Batch } from '../data/index.js';
import { HookmdError, isHookmdError } from '../errors.js';

// Codes that a non-finite number produces on its way through a step (NON_FINITE_RESULT: a model's compute
// that gave one). OVERLAPPING_ATOMS already names the pair; the run adds the step and keeps that code.
const BLOW_UP_CODES: readonly string[] = ['INVALID_POSITIONS', 'OVERLAPPING_ATOMS', 'NON_FINITE_RESULT'];

interface SystemDiagnosis {
  system: number;
  systemId: number;
  cause: string;
}

function firstNonFinite(values: Float64Array, begin: number, end: number): number {
  for (let i = begin; i < end; i++) if (!Number.isFinite(values[i])) return i;
  return -1;
}

/** Why system `s` blew up, or undefined when its numbers are all finite. */
function diagnose(batch: Batch, s: number, ptr: Int32Array): string | undefined {
  const [begin, end] = [3 * ptr[s], 3 * ptr[s + 1]];
  const energy = batch.read('energy')[s];
  const energyNote = Number.isFinite(energy) ? '' : `; its energy was ${energy}: atoms overlapped or the time step is too large`;
  for (const field of ['positions', 'velocities', 'forces'] as const) {
    const at = firstNonFinite(batch.read(field), begin, end);
    if (at >= 0) return `${field} of atom ${Math.floor(at / 3) - ptr[s]} became ${batch.read(field)[at]}${energyNote}`;
  }
  return Number.isFinite(energy) ? undefined : `its energy is ${energy}: atoms overlap`;
}

/**
 * `error` itself, or an error that names the step and the systems whose numbers are not finite: the
 * native OVERLAPPING_ATOMS keeps its code and message, anything else becomes NUMERICAL_BLOWUP.
 */
export function diagnoseBlowUp(error: unknown, batch: Batch, step: number, owner: string): unknown {
  if (!isHookmdError(error) || !BLOW_UP_CODES.includes(error.code)) return error;
  const ptr = batch.ptr;
  const ids = batch.read('systemId');
  const systems: SystemDiagnosis[] = [];
  for (let s = 0; s < batch.numSystems; s++) {
    const cause = diagnose(batch, s, ptr);
    if (cause !== undefined) systems.push({ system: s, systemId: ids[s], cause });
  }
  if (systems.length === 0) return error;
  const listed = systems.map((d) => `system ${d.system} (systemId ${d.systemId}): ${d.cause}`).join('; ');
  const overlap = error.code === 'OVERLAPPING_ATOMS';
  const code = overlap ? error.code : 'NUMERICAL_BLOWUP';
  const message = `${owner}: the numbers blew up at step ${step}: ${listed}${overlap ? ` (${error.message})` : ''}`;
  return new HookmdError(code, message, { step, systems, cause: error }, { cause: error });
}
