// The degrees of freedom every temperature in hookmd counts (docs/dynamics.md, "Temperature"); the native
// thermostats count the same (native/cpp/math/DegreesOfFreedom.h).
import type { Batch } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';

/**
 * Degrees of freedom of a system of `atoms` atoms, `frozen` of them held fixed: 3N − 3 without frozen atoms
 * (the dynamics conserve the total momentum, as LAMMPS's `compute temp` counts), 3·(N − frozen) with them
 * (ASE's get_temperature with FixAtoms); never below 0.
 *
 * @example
 * degreesOfFreedom(108, 0); // 321
 * degreesOfFreedom(108, 12); // 288
 */
export function degreesOfFreedom(atoms: number, frozen: number): number {
  return Math.max(0, frozen > 0 ? 3 * (atoms - frozen) : 3 * atoms - 3);
}

/**
 * Per system, the frozen count a temperature takes when the centre of mass is held (`centre`: FixCom) too:
 * one more where some atom is frozen, so degreesOfFreedom reads 3·(N − frozen − 1) = 3·N_mobile − 3, ASE's
 * get_temperature with FixAtoms and FixCom (without frozen atoms, 3N − 3 holds already). The native stepper
 * counts the same (native/cpp/dynamics/Stepper.cpp).
 *
 * @example
 * withHeldCentre(Int32Array.from([54, 0]), true); // Int32Array [55, 0]
 */
export function withHeldCentre(frozen: Int32Array, centre: boolean): Int32Array {
  return centre ? frozen.map((count) => (count > 0 ? count + 1 : 0)) : frozen;
}

/** One flag per atom of `batch` from an optional mask (truthy = frozen), checked; undefined without one. */
export function frozenFlags(owner: string, batch: Batch, frozen: ArrayLike<number | boolean> | undefined): Uint8Array | undefined {
  if (frozen === undefined) return undefined;
  if (frozen === null || typeof frozen !== 'object' || frozen.length !== batch.numAtoms) {
    throw new HookmdTypeError('INVALID_MASK', `${owner}: frozen must hold one entry per atom of the batch (${batch.numAtoms})`, { field: 'frozen', value: frozen });
  }
  return Uint8Array.from({ length: batch.numAtoms }, (_, i) => (frozen[i] ? 1 : 0));
}

/** The frozen atoms of each system of `batch` (all 0 without flags). */
export function frozenPerSystem(batch: Batch, flags: Uint8Array | undefined): Int32Array {
  const counts = new Int32Array(batch.numSystems);
  if (flags === undefined) return counts;
  const ptr = batch.read('ptr');
  for (let s = 0; s < batch.numSystems; s++) for (let i = ptr[s]; i < ptr[s + 1]; i++) counts[s] += flags[i];
  return counts;
}
