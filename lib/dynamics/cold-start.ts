// A Nosé–Hoover thermostat only rescales the velocities it is given: a system at rest (a fresh crystal, or one
// arriving from an optimizer, which leaves the atoms at rest) would stay near 0 K. Refused, naming the way on.
import type { Batch } from '../data/index.js';
import { HookmdError } from '../errors.js';
import type { PerSystem } from './parameters.js';
import { SystemScalars } from './scalars.js';

/** @internal An engine that cannot heat a system at rest: its name and target temperature. */
export interface RescalingThermostat {
  readonly name: string;
  readonly temperature: PerSystem;
}

/** The advice of a COLD_START error, for a target temperature `t`. */
export function coldStartAdvice(t: number): string {
  return `give the engine velocities: { temperature: ${t}, seed: 1 } (drawn the first time it steps each system, as LAMMPS's velocity create), or call initializeVelocities(batch, { temperature: ${t}, seed: 1 }) before the run`;
}

/**
 * Throws COLD_START for the first system whose engine (`thermostatFor(status)`) is a rescaling thermostat
 * and whose velocities are all zero; `from` is the first system to check (a refill checks its new ones).
 */
export function refuseColdStart(batch: Batch, owner: string, thermostatFor: (status: number) => RescalingThermostat | undefined, from = 0): void {
  const status = batch.read('status');
  // ½Σmv² per system, reduced natively: B numbers cross, not the N×3 velocities. With masses > 0 it is 0
  // exactly when every velocity of the system is.
  let kinetic: Float64Array | undefined;
  for (let s = from; s < batch.numSystems; s++) {
    const thermostat = thermostatFor(status[s]);
    if (thermostat === undefined) continue;
    kinetic ??= new SystemScalars(batch).kineticEnergy;
    if (kinetic[s] !== 0) continue;
    const t = typeof thermostat.temperature === 'number' ? thermostat.temperature : thermostat.temperature[s];
    throw new HookmdError(
      'COLD_START',
      `${owner}: system ${s} is at rest, and ${thermostat.name} only rescales the velocities it is given, so it would stay near 0 K instead of reaching ${t}; ${coldStartAdvice(t)}`,
      { field: 'velocities', system: s, systemId: batch.read('systemId')[s], temperature: t },
    );
  }
}
