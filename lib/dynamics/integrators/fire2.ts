// FIRE 2.0 (Guénolé et al. 2020).
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

  constructor(options: FireOptions) {
    super(options, FIRE_KEYS);
    this.#parameters = fireParameters('FIRE2', options, 'nDelay');
  }

  /** @internal The native integrator's name and its per-system parameters. */
  integratorSpec(): IntegratorSpec {
    return { type: 'FIRE2', parameters: this.#parameters };
  }
}
