// The constraints every engine takes (`constraints: [...]`): ASE's FixAtoms, FixCom and FixSymmetry, each run
// inside the native loop like the native built-in hooks.
import { HookmdTypeError } from '../../errors.js';
import { FixAtoms } from './fix-atoms.js';
import { FixCom } from './fix-com.js';
import { FixSymmetry } from './fix-symmetry.js';

/** A constraint an engine takes. */
export type Constraint = FixAtoms | FixCom | FixSymmetry;

/** @internal Checks an engine's `constraints` option. */
export function checkConstraints(owner: string, given: unknown): Constraint[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) {
    throw new HookmdTypeError('INVALID_CONSTRAINT', `${owner}: constraints must be an array of FixAtoms, FixCom or FixSymmetry, got ${typeof given}`, { field: 'constraints', value: given });
  }
  return given.map((constraint: unknown, i) => {
    if (constraint instanceof FixAtoms || constraint instanceof FixCom || constraint instanceof FixSymmetry) return constraint;
    throw new HookmdTypeError('INVALID_CONSTRAINT', `${owner}: constraints[${i}] must be a FixAtoms, FixCom or FixSymmetry (hooks go in hooks)`, { field: `constraints[${i}]`, value: constraint });
  });
}
