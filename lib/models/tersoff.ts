// Tersoff: the TS handle of native/cpp/models/ManyBodyPotential for LAMMPS's `pair_style tersoff`,
// `tersoff/mod` and `tersoff/zbl` files (formulas in native/cpp/math/TersoffEval.h).
import { HookmdTypeError } from '../errors.js';
import { ManyBodyModel, type ManyBodyOptions } from './many-body-model.js';
import { showValue } from '../describe-value.js';

/**
 * Options of `new Tersoff(...)`.
 *
 * @example
 * const options: TersoffOptions = { file: '/usr/share/lammps/potentials/SiC.tersoff', elements: ['Si', 'C'] };
 */
export interface TersoffOptions extends ManyBodyOptions {
  /**
   * The variant: `'mod'` (Kumagai et al., LAMMPS `tersoff/mod`) or `'zbl'` (a ZBL core, `tersoff/zbl`).
   * Default: what the file's entries say (14 numbers: tersoff, 17: tersoff/mod, 18: tersoff/zbl).
   */
  style?: 'mod' | 'zbl';
}

/**
 * The Tersoff bond-order potential, E = ½ Σ_i Σ_{j≠i} f_c(r_ij) [A e^{−λ₁ r_ij} − b_ij B e^{−λ₂ r_ij}] with the
 * bond order b_ij of the three-body sum ζ_ij over the neighbours k of i, read from a LAMMPS parameter file
 * and computed as LAMMPS computes it (energies, forces and stress to rounding). Metal units (eV, Å), as the
 * files are. Species are matched by element; each triplet (i, j, k) takes its numbers from the file's
 * entry for it, as LAMMPS does.
 *
 * @example
 * const silicon = new Tersoff({ file: '/usr/share/lammps/potentials/Si.tersoff' });
 * const batch = Batch.fromSystems([repeat(bulk('Si', 'diamond', { a: 5.432, cubic: true }), [2, 2, 2])]);
 * silicon.compute(batch);
 * batch.energy[0] / batch.numAtoms; // ≈ −4.63 eV/atom, Tersoff's cohesive energy of diamond silicon
 */
export class Tersoff extends ManyBodyModel {
  readonly name = 'Tersoff';

  constructor(options: TersoffOptions) {
    const style = options?.style;
    if (style !== undefined && style !== 'mod' && style !== 'zbl') {
      throw new HookmdTypeError('INVALID_OPTIONS', `Tersoff: style must be 'mod' or 'zbl', got ${showValue(style)}`, { field: 'style', value: style });
    }
    super('Tersoff', { ...options, ...(style === undefined ? {} : { style: `tersoff/${style}` }) }, ['style']);
  }
}
