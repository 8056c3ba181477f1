// NPT with Langevin dynamics and stochastic cell rescaling (native/cpp/dynamics/NptLangevin.h).
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { initialVelocityParameters, withInitialVelocities, type InitialVelocityOptions } from '../initial-velocities.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `NPTLangevin`. */
export interface NptLangevinOptions extends DynamicsOptions {
  /** Time step (fs in metal units, τ in lj). */
  dt: PerSystem;
  /** Target temperature (K in metal units, ε/k_B in lj). */
  temperature: PerSystem;
  /** Target pressure (the batch's pressure unit: eV/Å³ in metal units, ε/σ³ in lj). */
  pressure: PerSystem;
  /** Isothermal compressibility β_T (volume/energy: Å³/eV in metal units; water is about 72 Å³/eV). It sets the barostat's speed, not the ensemble. */
  compressibility: PerSystem;
  /**
   * Friction γ (1/fs in metal units, 1/τ in lj). Not ASE's unit: ASE's `friction` is per ASE time unit
   * (10.1805 fs), so ASE's `friction=f` is `friction: f / 10.1805` here, and ASE's `f / units.fs` is `f`.
   */
  friction: PerSystem;
  /** Barostat relaxation time τ_p (default 1000·dt). */
  tauP?: PerSystem;
  /** Random seed (an integer ≥ 0), for the atoms' noise and the barostat's. */
  seed?: PerSystem;
  /** Draw each system's velocities from Maxwell–Boltzmann the first time the engine steps it (LAMMPS's `velocity create`). */
  velocities?: InitialVelocityOptions;
}

/**
 * Constant temperature and pressure with Langevin dynamics (BAOAB) and the stochastic cell-rescaling
 * barostat of Bernetti and Bussi ("C-rescale", J. Chem. Phys. 153, 114107, 2020), isotropic: the volume
 * relaxes at a first-order rate with the right fluctuations, so it equilibrates robustly from far away and
 * samples the isothermal–isobaric ensemble. Any cell shape (kept as it is); per-system targets.
 *
 * @example
 * const npt = new NPTLangevin({ model: lj, dt: 0.005, temperature: 1.5, pressure: 1.0, friction: 1, compressibility: 0.1, tauP: 1, seed: 1 });
 */
export class NPTLangevin extends Dynamics {
  readonly #velocities: EngineParameter[] | undefined;
  readonly #dt: EngineParameter;
  readonly #parameters: EngineParameter[];

  constructor(options: NptLangevinOptions) {
    super(options, ['dt', 'temperature', 'pressure', 'compressibility', 'friction', 'tauP', 'seed', 'velocities']);
    this.#velocities = initialVelocityParameters('NPTLangevin', options.velocities);
    const dt = options.dt;
    this.#dt = engineParameter('NPTLangevin', 'dt', dt, 'positive');
    this.#parameters = [
      this.#dt,
      engineParameter('NPTLangevin', 'temperature', options.temperature, 'nonNegative'),
      engineParameter('NPTLangevin', 'friction', options.friction, 'nonNegative'),
      engineParameter('NPTLangevin', 'seed', options.seed ?? 0, 'integer≥0'),
      engineParameter('NPTLangevin', 'pressure', options.pressure, 'finite'),
      engineParameter('NPTLangevin', 'compressibility', options.compressibility, 'positive'),
      engineParameter('NPTLangevin', 'tauP', options.tauP ?? (typeof dt === 'number' ? 1000 * dt : Array.from(dt, (v) => 1000 * v)), 'positive'),
    ];
  }

  /** The time step (fs in metal units, τ in lj), one or one per system. */
  override get timeStep(): PerSystem {
    return this.#dt.value;
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    return withInitialVelocities({ type: 'NPTLangevin', parameters: this.#parameters, needsStress: true }, this.#velocities);
  }
}
