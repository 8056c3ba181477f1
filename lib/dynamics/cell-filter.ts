// The cell filter (ASE's FrechetCellFilter): optimizers relax each system's cell together with its atoms.
// The filter's algebra runs natively (native/cpp/dynamics/CellFilter.h); this is its typed, checked options.
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { engineParameter, type EngineParameter, type IntegratorSpec, type PerSystem } from './parameters.js';
import { showValue } from '../describe-value.js';

/** Options of `new CellFilter`. */
export interface CellFilterOptions {
  /**
   * Target pressure P, one or one per system, in the batch's pressure units (eV/Å³ in metal units, as ASE's
   * `scalar_pressure`; 1 GPa = 1/160.21766 eV/Å³). The optimizer minimises E + P·V. Default 0.
   */
  scalarPressure?: PerSystem;
  /** Only hydrostatic deformation: the cell keeps its shape and only scales (ASE's `hydrostatic_strain`). */
  hydrostaticStrain?: boolean;
  /** Scale of the cell coordinates against the positions (ASE's `exp_cell_factor`); default: each system's atom count. */
  cellFactor?: PerSystem;
}

/**
 * Lets an optimizer (FIRE, FIRE2, GradientDescent, LBFGS) relax each system's cell with its positions, with the
 * deformation-gradient parametrisation of ASE's `FrechetCellFilter`: the optimizer moves the atoms in the
 * undeformed cell and the matrix logarithm of the deformation gradient, whose force is the exact gradient
 * of E + P·V. The stress is then computed on every step. Pair it with a stress criterion, because in a
 * symmetric crystal the atomic forces vanish before the cell has relaxed.
 *
 * @example
 * const fire = new FIRE({
 *   model,
 *   cellFilter: new CellFilter({ scalarPressure: 1 / 160.21766 }),
 *   convergence: ConvergenceHook.fromFmaxAndStress(1e-3, 1e-5, { pressure: 1 / 160.21766 }),
 * });
 */
export class CellFilter {
  /** Target pressure per system (energy/volume). */
  readonly scalarPressure: PerSystem;
  /** Whether only the cell's scale changes. */
  readonly hydrostaticStrain: boolean;
  /** Cell-coordinate scale; 0 means each system's atom count. */
  readonly cellFactor: PerSystem;
  readonly #parameters: EngineParameter[];

  constructor(options: CellFilterOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'CellFilter: options must be an object', { field: 'options', value: options });
    }
    checkKeys('CellFilter', options, ['scalarPressure', 'hydrostaticStrain', 'cellFactor']);
    const hydrostatic = options.hydrostaticStrain ?? false;
    if (typeof hydrostatic !== 'boolean') {
      throw new HookmdTypeError('INVALID_PARAMETER', `CellFilter: hydrostaticStrain must be a boolean, got ${showValue(hydrostatic)}`, {
        field: 'hydrostaticStrain',
        value: hydrostatic,
      });
    }
    const scalarPressure = engineParameter('CellFilter', 'scalarPressure', options.scalarPressure ?? 0, 'finite');
    const cellFactor = engineParameter('CellFilter', 'cellFactor', options.cellFactor ?? 0, options.cellFactor === undefined ? 'nonNegative' : 'positive');
    this.scalarPressure = scalarPressure.value;
    this.hydrostaticStrain = hydrostatic;
    this.cellFactor = cellFactor.value;
    this.#parameters = [scalarPressure, engineParameter('CellFilter', 'hydrostaticStrain', hydrostatic ? 1 : 0, 'integer≥0'), cellFactor];
  }

  /** @internal The optimizer's native spec, relaxing through this filter. */
  wrap(spec: IntegratorSpec): IntegratorSpec {
    return { type: `CellFilter:${spec.type}`, parameters: [...spec.parameters, ...this.#parameters], needsStress: true };
  }
}

/** @internal Checks an optimizer's `cellFilter` option. */
export function checkCellFilter(owner: string, filter: unknown): CellFilter | undefined {
  if (filter === undefined) return undefined;
  if (!(filter instanceof CellFilter)) {
    throw new HookmdTypeError('INVALID_CELL_FILTER', `${owner}: cellFilter must be a CellFilter (new CellFilter({ scalarPressure }))`, { field: 'cellFilter', value: filter });
  }
  return filter;
}
