// Langevin dynamics (NVT), BAOAB splitting.
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { initialVelocityParameters, withInitialVelocities, type InitialVelocityOptions } from '../initial-velocities.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `Langevin`. */
export interface LangevinOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj). */
  dt: PerSystem;
  /** Target temperature (K in metal units, ε/k_B in lj). */
  temperature: PerSystem;
  /**
   * Friction γ (1/fs in metal units, 1/τ in lj). Not ASE's unit: ASE's `friction` is per ASE time unit
   * (10.1805 fs), so ASE's `friction=f` is `friction: f / 10.1805` here, and ASE's `f / units.fs` is `f`.
   */
  friction: PerSystem;
  /** Random seed (an integer ≥ 0); each system draws from its own stream keyed by its systemId. */
  seed?: PerSystem;
  /** Draw each system's velocities from Maxwell–Boltzmann the first time the engine steps it (LAMMPS's `velocity create`). */
  velocities?: InitialVelocityOptions;
}

/**
 * Langevin thermostat with the BAOAB splitting (Leimkuhler–Matthews): reproducible from `seed`, with an
 * independent random stream per system.
 *
 * @example
 * const nvt = new Langevin({ model: lj, dt: 2, temperature: 300, friction: 0.01, seed: 1 });
 */
export class Langevin extends Dynamics {
  readonly #velocities: EngineParameter[] | undefined;
  readonly #dt: EngineParameter;
  readonly #parameters: EngineParameter[];

  constructor(options: LangevinOptions) {
    super(options, ['dt', 'temperature', 'friction', 'seed', 'velocities']);
    this.#velocities = initialVelocityParameters('Langevin', options.velocities);
    this.#dt = engineParameter('Langevin', 'dt', options.dt, 'positive');
    this.#parameters = [
      this.#dt,
      engineParameter('Langevin', 'temperature', options.temperature, 'nonNegative'),
      engineParameter('Langevin', 'friction', options.friction, 'nonNegative'),
      engineParameter('Langevin', 'seed', options.seed ?? 0, 'integer≥0'),
    ];
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    return withInitialVelocities({ type: 'Langevin', parameters: this.#parameters }, this.#velocities);
  }
}
