// Small molecules with the geometries of ASE's ase.build.molecule (the G2 test set: MP2(full)/6-31G(d)
// structures from Curtiss et al., J. Chem. Phys. 106, 1063 (1997)), atoms in ASE's order.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { System } from './system.js';
import { showText, showValue } from '../describe-value.js';

type Geometry = readonly (readonly [string, number, number, number])[];

const G2: Readonly<Record<string, Geometry>> = {
  H2: [['H', 0, 0, 0.368583], ['H', 0, 0, -0.368583]],
  N2: [['N', 0, 0, 0.56499], ['N', 0, 0, -0.56499]],
  O2: [['O', 0, 0, 0.622978], ['O', 0, 0, -0.622978]],
  CO: [['O', 0, 0, 0.493003], ['C', 0, 0, -0.657337]],
  H2O: [['O', 0, 0, 0.119262], ['H', 0, 0.763239, -0.477047], ['H', 0, -0.763239, -0.477047]],
  NH3: [['N', 0, 0, 0.116489], ['H', 0, 0.939731, -0.271808], ['H', 0.813831, -0.469865, -0.271808], ['H', -0.813831, -0.469865, -0.271808]],
  CH4: [['C', 0, 0, 0], ['H', 0.629118, 0.629118, 0.629118], ['H', -0.629118, -0.629118, 0.629118], ['H', 0.629118, -0.629118, -0.629118], ['H', -0.629118, 0.629118, -0.629118]],
  CO2: [['C', 0, 0, 0], ['O', 0, 0, 1.178658], ['O', 0, 0, -1.178658]],
  C2H4: [['C', 0, 0, 0.66748], ['C', 0, 0, -0.66748], ['H', 0, 0.922832, 1.237695], ['H', 0, -0.922832, 1.237695], ['H', 0, 0.922832, -1.237695], ['H', 0, -0.922832, -1.237695]],
  C2H6: [
    ['C', 0, 0, 0.762209], ['C', 0, 0, -0.762209], ['H', 0, 1.018957, 1.157229], ['H', -0.882443, -0.509479, 1.157229],
    ['H', 0.882443, -0.509479, 1.157229], ['H', 0, -1.018957, -1.157229], ['H', -0.882443, 0.509479, -1.157229], ['H', 0.882443, 0.509479, -1.157229],
  ],
  C6H6: [
    ['C', 0, 1.395248, 0], ['C', 1.20832, 0.697624, 0], ['C', 1.20832, -0.697624, 0], ['C', 0, -1.395248, 0], ['C', -1.20832, -0.697624, 0],
    ['C', -1.20832, 0.697624, 0], ['H', 0, 2.48236, 0], ['H', 2.149787, 1.24118, 0], ['H', 2.149787, -1.24118, 0], ['H', 0, -2.48236, 0],
    ['H', -2.149787, -1.24118, 0], ['H', -2.149787, 1.24118, 0],
  ],
  CH3OH: [['C', -0.047131, 0.664389, 0], ['O', -0.047131, -0.758551, 0], ['H', -1.092995, 0.969785, 0], ['H', 0.878534, -1.048458, 0], ['H', 0.437145, 1.080376, 0.891772], ['H', 0.437145, 1.080376, -0.891772]],
};

/** The names `molecule` knows. */
export const MOLECULES: readonly string[] = Object.keys(G2);

/**
 * Options of `molecule`.
 *
 * @example
 * const options: MoleculeOptions = { vacuum: 8 };
 */
export interface MoleculeOptions {
  /** Put the molecule in an orthorhombic box with this much vacuum (Å) on every side, as ASE's `vacuum`. Default: no cell. */
  vacuum?: number;
}

/**
 * A molecule of ASE's G2 set by formula (H2, N2, O2, CO, H2O, NH3, CH4, CO2, C2H4, C2H6, C6H6, CH3OH), with the
 * positions and atom order of `ase.build.molecule(name)`: no cell and no periodicity, or with `vacuum` a box
 * around it (ASE's `molecule(name, vacuum=…)`), still non-periodic.
 *
 * @example
 * const water = molecule('H2O');       // O, H, H
 * const boxed = molecule('CH4', { vacuum: 6 });
 */
export function molecule(name: string, options: MoleculeOptions = {}): System {
  const geometry = G2[name];
  if (geometry === undefined) {
    throw new HookmdTypeError('UNKNOWN_MOLECULE', `molecule: unknown molecule ${showValue(name)}; known: ${MOLECULES.join(', ')}`, { field: 'name', value: name });
  }
  const positions = geometry.map(([, x, y, z]) => [x, y, z]);
  const system: System = { symbols: geometry.map(([symbol]) => symbol), positions, pbc: false };
  const { vacuum } = checkKeys('molecule', options, ['vacuum']) as MoleculeOptions;
  if (vacuum === undefined) return system;
  if (!(Number.isFinite(vacuum) && vacuum >= 0)) {
    throw new HookmdRangeError('INVALID_VACUUM', `molecule: vacuum must be a finite number >= 0, got ${showText(vacuum)}`, { field: 'vacuum', value: vacuum });
  }
  // ASE's Atoms.center(vacuum): each axis spans the molecule plus vacuum on both sides.
  const cell = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let c = 0; c < 3; c++) {
    const values = positions.map((p) => p[c]);
    const low = Math.min(...values);
    const high = Math.max(...values);
    for (const p of positions) p[c] += vacuum - low;
    cell[c][c] = high - low + 2 * vacuum;
  }
  return { ...system, cell };
}
