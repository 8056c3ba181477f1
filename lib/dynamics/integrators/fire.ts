// FIRE, with ASE's semantics and defaults.
import { checkCellFilter, type CellFilter } from '../cell-filter.js';
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `FIRE` (ASE's names in camelCase; defaults are ASE's). */
export interface FireOptions extends DynamicsOptions {
  /** Initial step (default 0.1). */
  dt?: PerSystem;
  /** Largest step (default 1.0). */
  dtMax?: PerSystem;
  /** Smallest step after repeated uphill moves (default 0.02·dt). */
  dtMin?: PerSystem;
  /** Largest displacement norm per step, per system (Å in metal units; default 0.2). */
  maxStep?: PerSystem;
  /** Downhill steps before dt grows (default 5). */
  nMin?: PerSystem;
  /** dt growth factor (default 1.1). */
  fInc?: PerSystem;
  /** dt shrink factor on an uphill step (default 0.5). */
  fDec?: PerSystem;
  /** Initial mixing α (default 0.1). */
  alphaStart?: PerSystem;
  /** α decay factor (default 0.99). */
  fAlpha?: PerSystem;
  /** Relax each system's cell too (ASE's FrechetCellFilter). */
  cellFilter?: CellFilter;
}

/** @internal The options FIRE and FIRE2 take beyond those of every engine. */
export const FIRE_KEYS: readonly string[] = ['dt', 'dtMax', 'dtMin', 'maxStep', 'nMin', 'fInc', 'fDec', 'alphaStart', 'fAlpha', 'cellFilter'];

/** The FIRE parameter list of both FIRE variants, with defaults filled in. */
export function fireParameters(owner: string, options: FireOptions, nMinName: string): EngineParameter[] {
  const dt = options.dt ?? 0.1;
  const dtMin = options.dtMin ?? (typeof dt === 'number' ? 0.02 * dt : Array.from(dt, (v) => 0.02 * v));
  return [
    engineParameter(owner, 'dt', dt, 'positive'),
    engineParameter(owner, 'dtMax', options.dtMax ?? 1.0, 'positive'),
    engineParameter(owner, 'dtMin', dtMin, 'positive'),
    engineParameter(owner, 'maxStep', options.maxStep ?? 0.2, 'positive'),
    engineParameter(owner, nMinName, options.nMin ?? 5, 'integer≥0'),
    engineParameter(owner, 'fInc', options.fInc ?? 1.1, 'positive'),
    engineParameter(owner, 'fDec', options.fDec ?? 0.5, 'positive'),
    engineParameter(owner, 'alphaStart', options.alphaStart ?? 0.1, 'nonNegative'),
    engineParameter(owner, 'fAlpha', options.fAlpha ?? 0.99, 'positive'),
  ];
}

/**
 * FIRE structure relaxation, step for step as ASE's `ase.optimize.FIRE` (unit-free: v += dt·F), per system.
 *
 * @example
 * const fire = new FIRE({ model: lj, convergence: ConvergenceHook.fromFmax(0.01) });
 * const { converged } = await fire.run(batch, { steps: 1000 });
 */
export class FIRE extends Dynamics {
  readonly #parameters: EngineParameter[];
  /** The cell filter it relaxes through, if any. */
  readonly cellFilter: CellFilter | undefined;

  constructor(options: FireOptions) {
    super(options, FIRE_KEYS);
    this.#parameters = fireParameters('FIRE', options, 'nMin');
    this.cellFilter = checkCellFilter('FIRE', options.cellFilter);
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    const spec = { type: 'FIRE', parameters: this.#parameters };
    return this.cellFilter?.wrap(spec) ?? spec;
  }
}
