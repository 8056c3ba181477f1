// What a finished run is checked for before the command reports it as done: a temperature far above its
// start or target (a time step too large, a model used outside its range), an NVE run whose total energy
// drifted, an input without a single structure. Each finding is a warning on stderr and in the summary;
// `--strict` turns any of them into exit code 3 (docs/cli.md, "Flagged runs").
import { Batch, type System } from '../data/index.js';
import { SystemScalars } from '../dynamics/index.js';
import type { UnitsName } from './run-config.js';

/** A run is flagged when a temperature ends above this multiple of its start or target temperature. */
export const TEMPERATURE_FACTOR = 100;
/** An NVE run is flagged when |ΔE_total| exceeds this fraction of |E_potential| at the start. */
export const DRIFT_FRACTION = 0.01;
// Systems named one by one, per kind of finding, before the rest are counted.
const LISTED = 3;

function temperatureUnit(units: UnitsName): string {
  return units === 'lj' ? 'ε/k_B' : 'K';
}

function energyUnit(units: UnitsName): string {
  return units === 'lj' ? 'ε' : 'eV';
}

function shown(value: number): string {
  return Number.isFinite(value) ? value.toPrecision(4) : String(value);
}

/** One thing found wrong with a run, about one system (or the input). */
export interface Finding {
  readonly kind: 'temperature' | 'energyDrift' | 'emptyInput';
  readonly text: string;
}

// How the systems beyond the listed ones are counted, per kind.
const MORE: Readonly<Record<Finding['kind'], string>> = {
  temperature: `temperature above ${TEMPERATURE_FACTOR}× the start or target, or not finite`,
  energyDrift: `total energy drifted by more than ${100 * DRIFT_FRACTION}% of the potential energy`,
  emptyInput: 'empty inputs',
};

/**
 * The warnings of a run: each kind's first findings as they are, then how many more systems had it.
 *
 * @example
 * warningsOf([...temperatureFindings(t, ref, 'metal'), emptyInputFinding('in.xyz')]);
 */
export function warningsOf(findings: readonly Finding[]): string[] {
  const warnings: string[] = [];
  for (const kind of Object.keys(MORE) as Array<Finding['kind']>) {
    const texts = findings.filter((finding) => finding.kind === kind).map((finding) => finding.text);
    warnings.push(...texts.slice(0, LISTED));
    if (texts.length > LISTED) warnings.push(`${texts.length - LISTED} more systems: ${MORE[kind]}`);
  }
  return warnings;
}

/**
 * Systems whose temperature is not finite or exceeds TEMPERATURE_FACTOR × `reference` (their start or
 * target temperature; a reference of 0 has nothing to compare with). `name` says which system it is.
 *
 * @example
 * temperatureFindings([4.5e9], [300], 'metal'); // [{ kind: 'temperature', text: 'system 0: temperature 4.500e+9 K is more than 100× …' }]
 */
export function temperatureFindings(
  temperature: ArrayLike<number>,
  reference: ArrayLike<number>,
  units: UnitsName,
  name: (s: number) => string = (s) => `system ${s}`,
): Finding[] {
  const unit = temperatureUnit(units);
  const findings: Finding[] = [];
  for (let s = 0; s < temperature.length; s++) {
    const t = temperature[s];
    const ref = reference[s];
    if (!Number.isFinite(t)) findings.push({ kind: 'temperature', text: `${name(s)}: temperature is ${t}` });
    else if (ref > 0 && t > TEMPERATURE_FACTOR * ref) {
      const text = `${name(s)}: temperature ${shown(t)} ${unit} is more than ${TEMPERATURE_FACTOR}× its start or target (${shown(ref)} ${unit}); is the time step too large for the model?`;
      findings.push({ kind: 'temperature', text });
    }
  }
  return findings;
}

/** Per-system energies at the start of an NVE run, to measure its drift against. */
export interface StartEnergies {
  readonly potential: Float64Array;
  readonly total: Float64Array;
}

/**
 * The potential and total energy of each system now (the batch's energies must be computed).
 *
 * @example
 * model.compute(batch);
 * const start = startEnergies(batch);
 */
export function startEnergies(batch: Batch): StartEnergies {
  const scalars = new SystemScalars(batch);
  return { potential: Float64Array.from(scalars.energy), total: scalars.totalEnergy };
}

/**
 * Systems of an NVE run whose total energy moved by more than DRIFT_FRACTION of their start potential
 * energy (velocity Verlet conserves it to O(dt²), so a time step too large shows here first).
 *
 * @example
 * driftFindings(start, new SystemScalars(batch).totalEnergy, 'metal');
 */
export function driftFindings(start: StartEnergies, total: ArrayLike<number>, units: UnitsName): Finding[] {
  const unit = energyUnit(units);
  const findings: Finding[] = [];
  for (let s = 0; s < total.length; s++) {
    const drift = total[s] - start.total[s];
    const scale = Math.abs(start.potential[s]);
    if (!Number.isFinite(drift) || (scale > 0 && Math.abs(drift) > DRIFT_FRACTION * scale)) {
      const text = `system ${s}: the total energy of an NVE run drifted by ${shown(drift)} ${unit}, more than ${100 * DRIFT_FRACTION}% of the potential energy (${shown(start.potential[s])} ${unit}); is the time step too large?`;
      findings.push({ kind: 'energyDrift', text });
    }
  }
  return findings;
}

/**
 * The temperatures of systems that left a streamed run (their velocities as written), for
 * {@link temperatureFindings}.
 */
export function systemTemperatures(systems: readonly System[], units: UnitsName): Float64Array {
  return systems.length === 0 ? new Float64Array(0) : new SystemScalars(Batch.fromSystems(systems, { units })).temperature;
}

/**
 * An input without a single structure: the run computed nothing.
 *
 * @example
 * emptyInputFinding('inputs.xyz').text; // 'inputs.xyz holds no structures: nothing was computed'
 */
export function emptyInputFinding(input: string): Finding {
  return { kind: 'emptyInput', text: `${input} holds no structures: nothing was computed` };
}
