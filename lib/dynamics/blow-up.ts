// Turns a native failure caused by numbers that blew up (non-finite positions, or atoms flung more than 1e9
// cells away, reaching the neighbor list) into an error that names the systems, the step, the time step and
// the cause (docs/dynamics.md, "When numbers blow up").
import { completedCell, invert3, type Batch } from '../data/index.js';
import { HookmdError, isHookmdError } from '../errors.js';
import { nanDetected } from './hooks/nan-detector.js';
import { nonFiniteValues } from './non-finite.js';
import type { PerSystem } from './parameters.js';

// Codes that a non-finite number produces on its way through a step (NON_FINITE_RESULT: a model's compute
// that gave one). OVERLAPPING_ATOMS already names the pair; the run adds the step and keeps that code.
const BLOW_UP_CODES: readonly string[] = ['INVALID_POSITIONS', 'OVERLAPPING_ATOMS', 'NON_FINITE_RESULT'];

interface SystemDiagnosis {
  system: number;
  systemId: number;
  cause: string;
  /** The system's time step (fs in metal units, τ in lj), for an MD engine. */
  dt?: number;
}

// The native neighbor list refuses an atom this many periodic cells from its own (NeighborList.cpp, locate).
const FAR_CELLS = 1e9;

/** The first atom of system `s` at least FAR_CELLS cells out of its cell along a periodic direction, and how far. */
function firstFlung(batch: Batch, s: number, ptr: Int32Array): { atom: number; cells: number } | undefined {
  const pbc = batch.read('pbc');
  const inverse = invert3(completedCell(batch.read('cell'), pbc, s));
  if (inverse === undefined) return undefined;
  const x = batch.read('positions');
  for (let i = ptr[s]; i < ptr[s + 1]; i++) {
    for (let k = 0; k < 3; k++) {
      if (!pbc[3 * s + k]) continue;
      const f = x[3 * i] * inverse[k] + x[3 * i + 1] * inverse[3 + k] + x[3 * i + 2] * inverse[6 + k];
      if (Math.abs(Math.floor(f)) >= FAR_CELLS) return { atom: i - ptr[s], cells: Math.abs(f) };
    }
  }
  return undefined;
}

/** Why system `s` blew up, or undefined when its numbers are all finite and its atoms near their cell. */
function diagnose(batch: Batch, s: number, ptr: Int32Array): string | undefined {
  const bad = nonFiniteValues(batch, s);
  const energy = bad.find((value) => value.quantity === 'energy');
  const energyNote = energy === undefined ? '' : `; its energy was ${energy.value}: atoms overlapped or the time step is too large`;
  const atom = bad.find((value) => value.atom !== undefined);
  if (atom !== undefined) return `${atom.quantity} of atom ${atom.atom} became ${atom.value}${energyNote}`;
  const flung = firstFlung(batch, s, ptr);
  if (flung !== undefined) return `positions of atom ${flung.atom} went ${flung.cells.toExponential(1)} cells out of the cell${energyNote}`;
  return energy === undefined ? undefined : `its energy is ${energy.value}: atoms overlap`;
}

/**
 * `error` itself, or an error that names the step, the time step (`timeStep`, an MD engine's) and the
 * systems whose numbers are not finite or whose atoms were flung out of reach: the native
 * OVERLAPPING_ATOMS keeps its code and message, NAN_DETECTED its code with the quantities named, anything
 * else becomes NUMERICAL_BLOWUP.
 */
export function diagnoseBlowUp(error: unknown, batch: Batch, step: number, owner: string, timeStep?: PerSystem): unknown {
  // The native detector names the systems; the quantities that went bad are read here, on every backend.
  if (isHookmdError(error) && error.code === 'NAN_DETECTED') return nanDetected(batch, step) ?? error;
  if (!isHookmdError(error) || !BLOW_UP_CODES.includes(error.code)) return error;
  const ptr = batch.ptr;
  const ids = batch.read('systemId');
  const unit = batch.units.name === 'lj' ? 'τ' : 'fs';
  const systems: SystemDiagnosis[] = [];
  for (let s = 0; s < batch.numSystems; s++) {
    const cause = diagnose(batch, s, ptr);
    if (cause === undefined) continue;
    const dt = timeStep === undefined ? undefined : typeof timeStep === 'number' ? timeStep : timeStep[s];
    systems.push(dt === undefined ? { system: s, systemId: ids[s], cause } : { system: s, systemId: ids[s], cause, dt });
  }
  if (systems.length === 0) return error;
  // One time step for all systems is named once, at the end; per-system ones with each system.
  const perSystem = timeStep !== undefined && typeof timeStep !== 'number';
  const listed = systems.map((d) => `system ${d.system} (systemId ${d.systemId}${perSystem ? `, dt ${d.dt} ${unit}` : ''}): ${d.cause}`).join('; ');
  const overlap = error.code === 'OVERLAPPING_ATOMS';
  const code = overlap ? error.code : 'NUMERICAL_BLOWUP';
  const dtNote = typeof timeStep === 'number' ? `; dt is ${timeStep} ${unit}` : '';
  const advice = timeStep === undefined || overlap ? '' : `${dtNote} (a time step too large for the forces blows up this way: try a smaller dt)`;
  const message = `${owner}: the numbers blew up at step ${step}: ${listed}${advice}${overlap ? ` (${error.message})` : ''}`;
  return new HookmdError(code, message, { step, systems, cause: error }, { cause: error });
}
