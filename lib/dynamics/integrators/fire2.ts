// FIRE 2.0 (Guénolé et al. 2020).
import { checkCellFilter, type CellFilter } from '../cell-filter.js';
import { Dynamics } from '../dynamics.js';
import type { EngineParameter, IntegratorSpec } from '../parameters.js';
import { FIRE_KEYS, fireParameters, type FireOptions } from './fire.js';

/**
 * FIRE 2.0 (Guénolé et al., Comput. Mater. Sci. 175, 109584, 2020): semi-implicit Euler, inertia correction
 * and a delayed start of `nMin` steps. Same options and defaults as `FIRE`.
 *
 * @example
 * const fire2 = new FIRE2({ model: lj, convergence: ConvergenceHook.fromFmax(1e-3) });
 */
export class FIRE2 extends Dynamics {
  readonly #parameters: EngineParameter[];
  /** The cell filter it relaxes through, if any. */
  readonly cellFilter: CellFilter | undefined;

  constructor(options: FireOptions) {
    super(options, FIRE_KEYS);
    this.#parameters = fireParameters('FIRE2', options, 'nDelay');
    this.cellFilter = checkCellFilter('FIRE2', options.cellFilter);
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    const spec = { type: 'FIRE2', parameters: this.#parameters };
    return this.cellFilter?.wrap(spec) ?? spec;
  }
}
