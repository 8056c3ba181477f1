// NPT: Nosé–Hoover chains with the Martyna–Tobias–Klein barostat, as LAMMPS's fix npt (native/cpp/dynamics/Npt.h).
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import type { RescalingThermostat } from '../cold-start.js';
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { initialVelocityParameters, withInitialVelocities, type InitialVelocityOptions } from '../initial-velocities.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';
import { showText, showValue } from '../../describe-value.js';

/** Options of `NPT`. */
export interface NptOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj). */
  dt: PerSystem;
  /** Target temperature (K in metal units, ε/k_B in lj). */
  temperature: PerSystem;
  /** Target pressure (the batch's pressure unit: eV/Å³ in metal units, ε/σ³ in lj). */
  pressure: PerSystem;
  /** Thermostat damping time (default 100·dt, as LAMMPS recommends). */
  tdamp?: PerSystem;
  /** Barostat damping time (default 1000·dt, as LAMMPS recommends). */
  pdamp?: PerSystem;
  /** 'iso': one strain rate scales the cell uniformly (default); 'aniso': each axis of an orthorhombic cell on its own. */
  couple?: 'iso' | 'aniso';
  /** Links of each Nosé–Hoover chain (default 3, as LAMMPS's tchain and pchain). */
  chainLength?: number;
  /** Draw each system's velocities from Maxwell–Boltzmann the first time the engine steps it (LAMMPS's `velocity create`). */
  velocities?: InitialVelocityOptions;
}

const times = (value: PerSystem, factor: number): PerSystem => (typeof value === 'number' ? factor * value : Array.from(value, (v) => factor * v));

/**
 * Constant temperature and pressure: Nosé–Hoover chains on the atoms and on the barostat, and the
 * Martyna–Tobias–Klein barostat, step for step as LAMMPS's `fix npt temp T T tdamp iso P P pdamp` (or
 * `aniso`). Every system has its own targets and damping times. Cells must be orthorhombic; the stress is
 * computed on every step.
 *
 * @example
 * const npt = new NPT({ model: lj, dt: 0.005, temperature: 1.5, pressure: 1.0, tdamp: 0.5, pdamp: 5, couple: 'iso' });
 * npt.register({ stage: DynamicsStage.AFTER_STEP, frequency: 100, call: (ctx) => console.log(ctx.scalars.volume[0]) });
 */
export class NPT extends Dynamics {
  readonly #velocities: EngineParameter[] | undefined;
  readonly #dt: EngineParameter;
  readonly #parameters: EngineParameter[];

  constructor(options: NptOptions) {
    super(options, ['dt', 'temperature', 'pressure', 'tdamp', 'pdamp', 'couple', 'chainLength', 'velocities']);
    this.#velocities = initialVelocityParameters('NPT', options.velocities);
    const couple = options.couple ?? 'iso';
    if (couple !== 'iso' && couple !== 'aniso') {
      throw new HookmdTypeError('INVALID_PARAMETER', `NPT: couple must be 'iso' or 'aniso', got ${showValue(couple)}`, { field: 'couple', value: couple });
    }
    const chainLength = options.chainLength ?? 3;
    if (!Number.isInteger(chainLength) || chainLength < 1 || chainLength > 10) {
      throw new HookmdRangeError('INVALID_PARAMETER', `NPT: chainLength must be an integer in [1, 10], got ${showText(chainLength)}`, { field: 'chainLength', value: chainLength });
    }
    this.#dt = engineParameter('NPT', 'dt', options.dt, 'positive');
    this.#parameters = [
      this.#dt,
      engineParameter('NPT', 'temperature', options.temperature, 'positive'),
      engineParameter('NPT', 'pressure', options.pressure, 'finite'),
      engineParameter('NPT', 'tdamp', options.tdamp ?? times(options.dt, 100), 'positive'),
      engineParameter('NPT', 'pdamp', options.pdamp ?? times(options.dt, 1000), 'positive'),
      engineParameter('NPT', 'couple', couple === 'iso' ? 0 : 1, 'integer≥0'),
      engineParameter('NPT', 'chainLength', chainLength, 'integer≥1'),
    ];
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal Without `velocities`, the chain only rescales the velocities it is given. */
  override rescalingThermostat(): RescalingThermostat | undefined {
    return this.#velocities === undefined ? { name: 'NPT', temperature: this.#parameters[1].value } : undefined;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    return withInitialVelocities({ type: 'NPT', parameters: this.#parameters, needsStress: true }, this.#velocities);
  }
}
