// The engine names of `--optimizer`, `--ensemble` and a run config's `stages[].type`: the short names of the
// command line and the class names of the library, any case (`fire` and `FIRE`, `nve` and `VelocityVerlet`).
import { Vocabulary } from '../vocabulary.js';

/** The canonical stage types. */
export type StageType = 'fire' | 'fire2' | 'gd' | 'lbfgs' | 'nve' | 'langevin' | 'nhc' | 'npt' | 'npt-langevin';

/**
 * Every spelling of each stage type.
 *
 * @example
 * STAGE_TYPES.resolve('LBFGS'); // 'lbfgs'
 */
export const STAGE_TYPES: Vocabulary<StageType> = new Vocabulary<StageType>({
  fire: ['FIRE'],
  fire2: ['FIRE2'],
  gd: ['GradientDescent'],
  lbfgs: ['LBFGS', 'L-BFGS'],
  nve: ['VelocityVerlet'],
  langevin: ['Langevin'],
  nhc: ['NoseHooverChain'],
  npt: ['NPT'],
  'npt-langevin': ['NPTLangevin'],
});

/** The stage types that relax (`relax --optimizer`). */
export const MINIMIZER_TYPES: readonly StageType[] = ['fire', 'fire2', 'gd', 'lbfgs'];
/** The stage types that run MD (`md --ensemble`). */
export const ENSEMBLE_TYPES: readonly StageType[] = ['nve', 'langevin', 'nhc', 'npt', 'npt-langevin'];

/**
 * A commander parser for a flag that names one of `allowed`, in any spelling; it returns the canonical name.
 *
 * @example
 * .option('--optimizer <name>', 'optimizer', stageTypeParser(MINIMIZER_TYPES, (m) => new InvalidArgumentError(m)), 'fire')
 */
export function stageTypeParser<T extends StageType>(allowed: readonly T[], invalid: (message: string) => Error): (text: string) => T {
  return (text) => {
    const type = STAGE_TYPES.resolve(text);
    if (type === undefined || !(allowed as readonly StageType[]).includes(type)) {
      throw invalid(`Allowed choices are ${STAGE_TYPES.describe(allowed)}, in any case.`);
    }
    return type as T;
  };
}
