// The constraints every engine takes (`constraints: [...]`): ASE's FixAtoms, FixCom and FixSymmetry, each run
// inside the native loop like the native built-in hooks.
import { HookmdError, HookmdTypeError } from '../../errors.js';
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

/**
 * @internal Refuses FixCom (among an engine's native hooks and constraints, a FusedStage's sub-stages'
 * included) on a system with fixed atoms (`frozen` counts them per system): the fixed atoms
 * already pin the system, and the degrees of freedom would be 3·N_mobile − 3, which no thermostat counts.
 */
export function checkFixComCompatible(owner: string, constraints: readonly unknown[], frozen: Int32Array | undefined): void {
  if (frozen === undefined || !constraints.some((c) => c instanceof FixCom)) return;
  const system = frozen.findIndex((count) => count > 0);
  if (system >= 0) {
    throw new HookmdError('INVALID_CONSTRAINT', `${owner}: FixCom cannot hold system ${system}, which has ${frozen[system]} fixed atoms (FixAtoms or FreezeAtomsHook already pin it)`, {
      field: 'constraints',
      system,
    });
  }
}
