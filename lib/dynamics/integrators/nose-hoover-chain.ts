// Nosé–Hoover chain thermostat (NVT).
import { HookmdRangeError } from '../../errors.js';
import type { RescalingThermostat } from '../cold-start.js';
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { initialVelocityParameters, withInitialVelocities, type InitialVelocityOptions } from '../initial-velocities.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';
import { showText } from '../../describe-value.js';

/** Options of `NoseHooverChain`. */
export interface NoseHooverChainOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj). */
  dt: PerSystem;
  /** Target temperature (K in metal units, ε/k_B in lj). */
  temperature: PerSystem;
  /** Thermostat damping time (default 100·dt, as LAMMPS recommends for fix nvt). */
  tdamp?: PerSystem;
  /** Chain length (default 3). */
  chainLength?: number;
  /** Draw each system's velocities from Maxwell–Boltzmann the first time the engine steps it (LAMMPS's `velocity create`). */
  velocities?: InitialVelocityOptions;
}

/**
 * Nosé–Hoover chain NVT (Martyna–Tuckerman–Klein), as LAMMPS's `fix nvt`.
 *
 * @example
 * const nvt = new NoseHooverChain({ model: lj, dt: 0.005, temperature: 1.44 });
 */
export class NoseHooverChain extends Dynamics {
  readonly #velocities: EngineParameter[] | undefined;
  readonly #dt: EngineParameter;
  readonly #parameters: EngineParameter[];

  constructor(options: NoseHooverChainOptions) {
    super(options, ['dt', 'temperature', 'tdamp', 'chainLength', 'velocities']);
    this.#velocities = initialVelocityParameters('NoseHooverChain', options.velocities);
    const chainLength = options.chainLength ?? 3;
    if (!Number.isInteger(chainLength) || chainLength < 1 || chainLength > 10) {
      throw new HookmdRangeError('INVALID_PARAMETER', `NoseHooverChain: chainLength must be an integer in [1, 10], got ${showText(chainLength)}`, {
        field: 'chainLength',
        value: chainLength,
      });
    }
    const dt = options.dt;
    const tdamp = options.tdamp ?? (typeof dt === 'number' ? 100 * dt : Array.from(dt, (v) => 100 * v));
    this.#dt = engineParameter('NoseHooverChain', 'dt', dt, 'positive');
    this.#parameters = [
      this.#dt,
      engineParameter('NoseHooverChain', 'temperature', options.temperature, 'positive'),
      engineParameter('NoseHooverChain', 'tdamp', tdamp, 'positive'),
      engineParameter('NoseHooverChain', 'chainLength', chainLength, 'integer≥1'),
    ];
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal Without `velocities`, the chain only rescales the velocities it is given. */
  override rescalingThermostat(): RescalingThermostat | undefined {
    return this.#velocities === undefined ? { name: 'NoseHooverChain', temperature: this.#parameters[1].value } : undefined;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    return withInitialVelocities({ type: 'NoseHooverChain', parameters: this.#parameters }, this.#velocities);
  }
}
