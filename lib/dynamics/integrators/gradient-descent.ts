// Steepest descent with a capped step.
import { checkCellFilter, type CellFilter } from '../cell-filter.js';
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `GradientDescent`. */
export interface GradientDescentOptions extends DynamicsOptions {
  /** x += stepSize · F (Å²/eV in metal units; default 0.01). */
  stepSize?: PerSystem;
  /** Largest displacement norm per step, per system (default 0.2). */
  maxStep?: PerSystem;
  /** Relax each system's cell too (ASE's FrechetCellFilter). */
  cellFilter?: CellFilter;
}

/**
 * Gradient descent: x += stepSize · F, with each system's displacement norm capped at maxStep.
 *
 * @example
 * const gd = new GradientDescent({ model: lj, stepSize: 0.01, convergence: ConvergenceHook.fromFmax(0.05) });
 */
export class GradientDescent extends Dynamics {
  readonly #parameters: EngineParameter[];
  /** The cell filter it relaxes through, if any. */
  readonly cellFilter: CellFilter | undefined;

  constructor(options: GradientDescentOptions) {
    super(options, ['stepSize', 'maxStep', 'cellFilter']);
    this.cellFilter = checkCellFilter('GradientDescent', options.cellFilter);
    this.#parameters = [
      engineParameter('GradientDescent', 'stepSize', options.stepSize ?? 0.01, 'positive'),
      engineParameter('GradientDescent', 'maxStep', options.maxStep ?? 0.2, 'positive'),
    ];
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    const spec = { type: 'GradientDescent', parameters: this.#parameters };
    return this.cellFilter?.wrap(spec) ?? spec;
  }
}
