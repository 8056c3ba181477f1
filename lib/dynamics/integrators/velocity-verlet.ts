// Velocity Verlet: NVE molecular dynamics.
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `VelocityVerlet`. */
export interface VelocityVerletOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj), a scalar or one per system. */
  dt: PerSystem;
}

/**
 * Velocity Verlet (NVE), as ASE's `VelocityVerlet` and LAMMPS's `fix nve`.
 *
 * @example
 * const nve = new VelocityVerlet({ model: lj, dt: 0.005 });
 * await nve.run(batch, { steps: 1000 });
 */
export class VelocityVerlet extends Dynamics {
  readonly #dt: EngineParameter;

  constructor(options: VelocityVerletOptions) {
    super(options, ['dt']);
    this.#dt = engineParameter('VelocityVerlet', 'dt', options.dt, 'positive');
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  integratorSpec(): IntegratorSpec {
    return { type: 'VelocityVerlet', parameters: [this.#dt] };
  }
}
