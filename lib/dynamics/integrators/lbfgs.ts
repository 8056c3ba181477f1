// L-BFGS, batched: each system keeps its own history (native/cpp/dynamics/Lbfgs.h).
import { HookmdRangeError } from '../../errors.js';
import { checkCellFilter, type CellFilter } from '../cell-filter.js';
import { Dynamics, type DynamicsOptions } from '../dynamics.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from '../parameters.js';

/** Options of `LBFGS` (ASE's names in camelCase; defaults are ASE's). */
export interface LbfgsOptions extends DynamicsOptions {
  /** Position/force change pairs kept per system (default 100). */
  memory?: PerSystem;
  /** Largest displacement of any one atom per step (Å in metal units; default 0.2). */
  maxStep?: PerSystem;
  /** Initial Hessian guess, H0 = 1/alpha (eV/Å² in metal units; default 70). */
  alpha?: PerSystem;
  /** Factor on every step (default 1). */
  damping?: PerSystem;
  /** Relax each system's cell too (ASE's FrechetCellFilter). */
  cellFilter?: CellFilter;
}

/**
 * Limited-memory BFGS, step for step as ASE's `ase.optimize.LBFGS` (without line search), for every system of
 * a batch at once: each system has its own history, and the longest atomic displacement of a step is capped
 * at `maxStep`.
 *
 * @example
 * const lbfgs = new LBFGS({ model: lj, convergence: ConvergenceHook.fromFmax(1e-3) });
 * const { converged } = await lbfgs.run(batch, { steps: 1000 });
 */
export class LBFGS extends Dynamics {
  readonly #parameters: EngineParameter[];
  /** The cell filter it relaxes through, if any. */
  readonly cellFilter: CellFilter | undefined;

  constructor(options: LbfgsOptions) {
    super(options, ['memory', 'maxStep', 'alpha', 'damping', 'cellFilter']);
    const memory = options.memory ?? 100;
    const tooLong = typeof memory === 'number' ? memory > 1e6 : Array.from(memory).some((m) => m > 1e6);
    if (tooLong) throw new HookmdRangeError('INVALID_PARAMETER', 'LBFGS: memory must be at most 1e6', { field: 'memory', value: memory });
    this.#parameters = [
      engineParameter('LBFGS', 'memory', memory, 'integer≥1'),
      engineParameter('LBFGS', 'maxStep', options.maxStep ?? 0.2, 'positive'),
      engineParameter('LBFGS', 'alpha', options.alpha ?? 70, 'positive'),
      engineParameter('LBFGS', 'damping', options.damping ?? 1, 'positive'),
    ];
    this.cellFilter = checkCellFilter('LBFGS', options.cellFilter);
  }

  /** @internal The native integrator's name and its per-system parameters. */
  override integratorSpec(): IntegratorSpec {
    const spec = { type: 'LBFGS', parameters: this.#parameters };
    return this.cellFilter?.wrap(spec) ?? spec;
  }
}
