// Maxwell–Boltzmann initial velocities, as ASE's MaxwellBoltzmannDistribution + Stationary, and the kinetic
// temperature with hookmd's degrees of freedom.
import { Batch, createRng } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { degreesOfFreedom, frozenFlags, frozenPerSystem } from './degrees-of-freedom.js';
import { checkParameter, expandParameter, type PerSystem } from './parameters.js';

/** Options of `initializeVelocities`. */
export interface VelocityOptions {
  /** Temperature (K in metal units, ε/k_B in lj); a scalar or one per system. */
  temperature: PerSystem;
  /** Random seed (default 0); the same seed gives the same velocities. */
  seed?: number;
  /**
   * Zero each system's total momentum, as ASE's `Stationary` (default: true for systems without frozen atoms,
   * whose momentum the dynamics conserve; false where atoms are frozen).
   */
  removeDrift?: boolean;
  /** Rescale so each system's temperature (as `temperatures()` counts it) is exactly the target (default false). */
  exact?: boolean;
  /** Atoms held fixed (one entry per atom of the batch, truthy = frozen, as FreezeAtomsHook's mask): they get no velocity. */
  frozen?: ArrayLike<number | boolean>;
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
  checkKeys('initializeVelocities', options, ['temperature', 'seed', 'removeDrift', 'exact', 'frozen'], '', { stationary: 'removeDrift' });
  checkParameter('initializeVelocities', 'temperature', options.temperature, 'nonNegative');
  checkParameter('initializeVelocities', 'seed', options.seed ?? 0, 'integer≥0');
  const temperature = expandParameter('initializeVelocities', 'temperature', options.temperature, batch.numSystems);
  const frozen = frozenFlags('initializeVelocities', batch, options.frozen);
  const frozenCount = frozenPerSystem(batch, frozen);
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
      for (let c = 0; c < 3; c++) v[3 * i + c] = frozen?.[i] === 1 ? 0 : sigma * rng.normal();
    }
    if ((options.removeDrift ?? frozenCount[s] === 0) && end > begin) {
      let mass = 0;
      const p = [0, 0, 0];
      for (let i = begin; i < end; i++) {
        if (frozen?.[i] === 1) continue;
        mass += m[i];
        for (let c = 0; c < 3; c++) p[c] += m[i] * v[3 * i + c];
      }
      for (let i = begin; i < end; i++) if (frozen?.[i] !== 1 && mass > 0) for (let c = 0; c < 3; c++) v[3 * i + c] -= p[c] / mass;
    }
    if (options.exact === true && end > begin && temperature[s] > 0) {
      const current = systemTemperature(batch, v, m, begin, end, frozenCount[s]);
      const scale = current > 0 ? Math.sqrt(temperature[s] / current) : 0;
      for (let i = 3 * begin; i < 3 * end; i++) v[i] *= scale;
    }
  }
  batch.commitHostViews();
}

/** 2·KE/(dof·k_B) of the atoms [begin, end) with `frozen` of them frozen (0 without degrees of freedom). */
function systemTemperature(batch: Batch, v: Float64Array, m: Float64Array, begin: number, end: number, frozen: number): number {
  const { kB, forceToAccel } = batch.units;
  let twiceKinetic = 0;
  for (let i = begin; i < end; i++) for (let c = 0; c < 3; c++) twiceKinetic += (m[i] * v[3 * i + c] ** 2) / forceToAccel;
  const dof = degreesOfFreedom(end - begin, frozen);
  return dof > 0 ? twiceKinetic / (dof * kB) : 0;
}

/**
 * Kinetic temperature per system, 2·KE/(dof·k_B), with hookmd's degrees of freedom (docs/dynamics.md,
 * "Temperature"): 3N − 3 (LAMMPS's `compute temp`), or 3·N_mobile for a system with atoms in `frozen` (one
 * entry per atom of the batch; ASE's get_temperature with FixAtoms). The thermostats, `ctx.scalars` and the
 * logs count the same.
 *
 * @example
 * temperatures(batch);                                   // Float64Array [300.2, ...]
 * temperatures(batch, { frozen: freezeHook.maskFor(batch) });
 */
export function temperatures(batch: Batch, options: { frozen?: ArrayLike<number | boolean> } = {}): Float64Array {
  checkKeys('temperatures', options, ['frozen']);
  const frozenCount = frozenPerSystem(batch, frozenFlags('temperatures', batch, options.frozen));
  const v = batch.read('velocities');
  const m = batch.read('masses');
  const ptr = batch.read('ptr');
  return Float64Array.from({ length: batch.numSystems }, (_, s) => systemTemperature(batch, v, m, ptr[s], ptr[s + 1], frozenCount[s]));
}
