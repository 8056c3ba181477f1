// Maxwell–Boltzmann initial velocities, as ASE's MaxwellBoltzmannDistribution + Stationary.
import { Batch, createRng } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { checkParameter, expandParameter, type PerSystem } from './parameters.js';

/** Options of `initializeVelocities`. */
export interface VelocityOptions {
  /** Temperature (K in metal units, ε/k_B in lj); a scalar or one per system. */
  temperature: PerSystem;
  /** Random seed (default 0); the same seed gives the same velocities. */
  seed?: number;
  /** Zero each system's total momentum (default true), as ASE's `Stationary`. */
  removeDrift?: boolean;
  /** Rescale so each system's kinetic temperature is exactly the target (default false). */
  exact?: boolean;
}

/**
 * Draws velocities from the Maxwell–Boltzmann distribution at `temperature`: each component is normal with
 * variance k_B·T/m (converted to length/time with the batch's units), then each system's momentum is zeroed.
 *
 * @example
 * initializeVelocities(batch, { temperature: 300, seed: 1 });
 */
export function initializeVelocities(batch: Batch, options: VelocityOptions): void {
  if (!(batch instanceof Batch)) throw new HookmdTypeError('INVALID_BATCH', 'initializeVelocities: batch must be a Batch', { field: 'batch' });
  checkKeys('initializeVelocities', options, ['temperature', 'seed', 'removeDrift', 'exact'], '', { stationary: 'removeDrift' });
  checkParameter('initializeVelocities', 'temperature', options.temperature, 'nonNegative');
  checkParameter('initializeVelocities', 'seed', options.seed ?? 0, 'integer≥0');
  const temperature = expandParameter('initializeVelocities', 'temperature', options.temperature, batch.numSystems);
  const rng = createRng(options.seed ?? 0);
  const { kB, forceToAccel } = batch.units;
  const v = batch.velocities;
  const m = batch.read('masses');
  const ptr = batch.read('ptr');
  for (let s = 0; s < batch.numSystems; s++) {
    const begin = ptr[s];
    const end = ptr[s + 1];
    for (let i = begin; i < end; i++) {
      const sigma = Math.sqrt((kB * temperature[s] * forceToAccel) / m[i]);
      for (let c = 0; c < 3; c++) v[3 * i + c] = sigma * rng.normal();
    }
    if (options.removeDrift !== false && end > begin) {
      let mass = 0;
      const p = [0, 0, 0];
      for (let i = begin; i < end; i++) {
        mass += m[i];
        for (let c = 0; c < 3; c++) p[c] += m[i] * v[3 * i + c];
      }
      for (let i = begin; i < end; i++) for (let c = 0; c < 3; c++) v[3 * i + c] -= p[c] / mass;
    }
    if (options.exact === true && end > begin && temperature[s] > 0) {
      let twiceKinetic = 0;
      for (let i = begin; i < end; i++) for (let c = 0; c < 3; c++) twiceKinetic += (m[i] * v[3 * i + c] ** 2) / forceToAccel;
      const dof = 3 * (end - begin) - (options.removeDrift !== false ? 3 : 0);
      const current = twiceKinetic / (Math.max(dof, 1) * kB);
      const scale = current > 0 ? Math.sqrt(temperature[s] / current) : 0;
      for (let i = 3 * begin; i < 3 * end; i++) v[i] *= scale;
    }
  }
  batch.commitHostViews();
}

/** Kinetic temperature per system, 2·KE / (dof·k_B) with dof = 3N (ASE's `get_temperature`), or 3N − 3 with `removeDrift`. */
export function temperatures(batch: Batch, options: { removeDrift?: boolean } = {}): Float64Array {
  checkKeys('temperatures', options, ['removeDrift']);
  const { kB, forceToAccel } = batch.units;
  const v = batch.read('velocities');
  const m = batch.read('masses');
  const ptr = batch.read('ptr');
  const out = new Float64Array(batch.numSystems);
  for (let s = 0; s < batch.numSystems; s++) {
    let twiceKinetic = 0;
    for (let i = ptr[s]; i < ptr[s + 1]; i++) for (let c = 0; c < 3; c++) twiceKinetic += (m[i] * v[3 * i + c] ** 2) / forceToAccel;
    const dof = 3 * (ptr[s + 1] - ptr[s]) - (options.removeDrift === true ? 3 : 0);
    out[s] = dof > 0 ? twiceKinetic / (dof * kB) : 0;
  }
  return out;
}
