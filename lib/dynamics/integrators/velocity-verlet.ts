// Velocity Verlet: NVE molecular dynamics.
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { initialVelocityParameters, withInitialVelocities, type InitialVelocityOptions } from '../initial-velocities.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `VelocityVerlet`. */
export interface VelocityVerletOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj), a scalar or one per system. */
  dt: PerSystem;
  /** Draw each system's velocities from Maxwell–Boltzmann the first time the engine steps it (LAMMPS's `velocity create`). */
  velocities?: InitialVelocityOptions;
}

/**
 * Velocity Verlet (NVE), as ASE's `VelocityVerlet` and LAMMPS's `fix nve`.
 *
 * @example
 * const nve = new VelocityVerlet({ model: lj, dt: 0.005 });
 * await nve.run(batch, { steps: 1000 });
 */
export class VelocityVerlet extends Dynamics {
  readonly #velocities: EngineParameter[] | undefined;
  readonly #dt: EngineParameter;

  constructor(options: VelocityVerletOptions) {
    super(options, ['dt', 'velocities']);
    this.#velocities = initialVelocityParameters('VelocityVerlet', options.velocities);
    this.#dt = engineParameter('VelocityVerlet', 'dt', options.dt, 'positive');
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  integratorSpec(): IntegratorSpec {
    return withInitialVelocities({ type: 'VelocityVerlet', parameters: [this.#dt] }, this.#velocities);
  }
}
