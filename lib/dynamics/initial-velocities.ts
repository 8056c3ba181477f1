// The `velocities` option of the MD engines: Maxwell–Boltzmann velocities drawn natively for each system the
// first time the engine steps it (native/cpp/dynamics/InitialVelocities.h).
import { checkKeys } from '../option-keys.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from './parameters.js';

/**
 * Initial velocities of an MD engine, as LAMMPS's `velocity create T seed mom yes`: the first time the engine
 * updates a system (its first step, or in a FusedStage its first step after it arrived from the previous
 * sub-stage), the system's velocities are drawn from Maxwell–Boltzmann at `temperature` and its total
 * momentum is removed. Without it, an engine starts from the velocities the batch holds (zero after an
 * optimizer).
 *
 * @example
 * fuse(new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.05) }), new NoseHooverChain({ model, dt: 2, temperature: 300, velocities: { temperature: 300, seed: 1 } }));
 */
export interface InitialVelocityOptions {
  /** Temperature of the draw (K in metal units, ε/k_B in lj), one or one per system. */
  temperature: PerSystem;
  /** Random seed (default 0): the same seed, system id and atoms give the same velocities. */
  seed?: number;
}

/** @internal The checked native parameters of an engine's `velocities` option, or undefined without one. */
export function initialVelocityParameters(owner: string, options: InitialVelocityOptions | undefined): EngineParameter[] | undefined {
  if (options === undefined) return undefined;
  checkKeys(owner, options, ['temperature', 'seed'], 'velocities.');
  return [
    engineParameter(owner, 'velocityTemperature', options.temperature, 'nonNegative'),
    engineParameter(owner, 'velocitySeed', options.seed ?? 0, 'integer≥0'),
  ];
}

/** @internal `spec`, drawing initial velocities first when `parameters` (from initialVelocityParameters) are given. */
export function withInitialVelocities(spec: IntegratorSpec, parameters: readonly EngineParameter[] | undefined): IntegratorSpec {
  if (parameters === undefined) return spec;
  return { ...spec, type: `Velocities:${spec.type}`, parameters: [...spec.parameters, ...parameters] };
}
