// Per-system scalars for hooks: computed on first access within a dispatch and cached for the rest of it, so
// hooks that never read them cost nothing.
import { acrossNative, nativeBatchOf, type Batch } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { degreesOfFreedom } from './degrees-of-freedom.js';
import type { EngineModel } from './engine-model.js';

/** |det(cell)| of each system (0 for a system without a cell). */
function volumes(cells: Float64Array): Float64Array {
  return Float64Array.from({ length: cells.length / 9 }, (_, s) => {
    const m = cells.subarray(9 * s, 9 * s + 9);
    return Math.abs(m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]));
  });
}

/**
 * Thermodynamic scalars per system, as hooks see them in `ctx.scalars`: potential, kinetic and total
 * energy, temperature, fmax, volume, the stress tensor and the pressure. Energies are in the batch's energy
 * unit, volume in length³, stress and pressure in energy/length³ (eV/Å³ in metal units, as ASE's stress).
 *
 * The stress is the engine's when the step computed it (a hook with `needs: ['stress']`, a stress
 * criterion, a cell filter); otherwise reading `stress` or `pressure` evaluates it once, at the current
 * positions.
 *
 * @example
 * md.register({ stage: DynamicsStage.AFTER_STEP, frequency: 100, needs: ['stress'], call: (ctx) => console.log(ctx.scalars.pressure) });
 */
export class SystemScalars {
  readonly #batch: Batch;
  readonly #model: EngineModel | undefined;
  readonly #frozen: Int32Array | undefined;
  #kinetic: Float64Array | undefined;
  #temperature: Float64Array | undefined;
  #fmax: Float64Array | undefined;
  #volume: Float64Array | undefined;
  #stress: Float64Array | undefined;
  #pressure: Float64Array | undefined;

  /**
   * `model` evaluates the stress when the step did not; without it, `stress` is the batch's as it stands.
   * `frozen` counts each system's frozen atoms, which change its degrees of freedom (an engine passes those
   * of its FreezeAtomsHooks).
   */
  constructor(batch: Batch, model?: EngineModel, frozen?: Int32Array) {
    this.#batch = batch;
    this.#model = model;
    this.#frozen = frozen;
  }

  /** Potential energy per system (energy units). */
  get energy(): Float64Array {
    return this.#batch.read('energy');
  }

  /** Kinetic energy per system, ½Σmv² (energy units). */
  get kineticEnergy(): Float64Array {
    return (this.#kinetic ??= nativeBatchOf(this.#batch).kineticEnergy());
  }

  /** Potential plus kinetic energy per system (energy units). */
  get totalEnergy(): Float64Array {
    const kinetic = this.kineticEnergy;
    return Float64Array.from(this.energy, (e, s) => e + kinetic[s]);
  }

  /**
   * Kinetic temperature per system, 2·KE/(dof·k_B) with hookmd's degrees of freedom: 3N − 3, or 3·N_mobile
   * with frozen atoms (docs/dynamics.md, "Temperature"), as the thermostats count them.
   */
  get temperature(): Float64Array {
    if (this.#temperature === undefined) {
      const n = this.#batch.read('numAtoms');
      const kB = this.#batch.units.kB;
      this.#temperature = Float64Array.from(this.kineticEnergy, (k, s) => {
        const dof = degreesOfFreedom(n[s], this.#frozen?.[s] ?? 0);
        return dof > 0 ? (2 * k) / (dof * kB) : 0;
      });
    }
    return this.#temperature;
  }

  /** Largest per-atom force norm per system. */
  get fmax(): Float64Array {
    return (this.#fmax ??= nativeBatchOf(this.#batch).fmax());
  }

  /** Cell volume per system, |det(cell)| (length³; 0 for a system without a cell). */
  get volume(): Float64Array {
    return (this.#volume ??= volumes(this.#batch.read('cell')));
  }

  /**
   * The stress tensor per system, B×9 row-major: the virial stress σ = −W/V that the model reports (ASE's
   * `get_stress()` convention: negative under compression; 0 for a system without a cell volume).
   */
  get stress(): Float64Array {
    if (this.#stress === undefined) {
      const batch = this.#batch;
      if (this.#model !== undefined && !batch.resultValid('stress').every((valid) => valid === 1)) {
        if (this.#model.asyncCompute === true) {
          throw new HookmdTypeError('ASYNC_MODEL_STRESS', `scalars.stress: ${this.#model.name ?? 'the model'} computes asynchronously, so the stress must come with the step's compute: give the hook needs: ['stress']`, { field: 'stress' });
        }
        // Only the energy and stress: the forces stay those the step computed.
        const model = this.#model;
        acrossNative(batch, () => model.compute(batch, { forces: false, stress: true }));
      }
      this.#stress = batch.read('stress');
    }
    return this.#stress;
  }

  /**
   * Pressure per system, LAMMPS's definition: P = (2·KE/3 + tr(W)/3)/V = 2·KE/(3V) − tr(σ)/3, the kinetic
   * part from all velocities (energy/length³; 0 for a system without a cell volume). Under an optimizer the
   * atoms are at rest, so it is the virial part, −tr(σ)/3, as LAMMPS reports it during minimize.
   */
  get pressure(): Float64Array {
    if (this.#pressure === undefined) {
      const [stress, volume] = [this.stress, this.volume];
      const kinetic = this.kineticEnergy;
      this.#pressure = Float64Array.from(volume, (v, s) => (v > 0 ? (2 * kinetic[s]) / (3 * v) - (stress[9 * s] + stress[9 * s + 4] + stress[9 * s + 8]) / 3 : 0));
    }
    return this.#pressure;
  }

  /** @internal Forgets cached values; the engine calls it before each dispatch. */
  invalidate(): void {
    this.#kinetic = undefined;
    this.#temperature = undefined;
    this.#fmax = undefined;
    this.#volume = undefined;
    this.#stress = undefined;
    this.#pressure = undefined;
  }
}
