// StillingerWeber: the TS handle of native/cpp/models/ManyBodyPotential for LAMMPS's `pair_style sw` files
// (formulas in native/cpp/math/StillingerWeberEval.h).
import { ManyBodyModel, type ManyBodyOptions } from './many-body-model.js';

/**
 * Options of `new StillingerWeber(...)`.
 *
 * @example
 * const options: StillingerWeberOptions = { file: '/usr/share/lammps/potentials/GaN.sw' };
 */
export type StillingerWeberOptions = ManyBodyOptions;

/**
 * The Stillinger–Weber potential, E = Σ_{i<j} φ₂(r_ij) + Σ_i Σ_{j<k} φ₃(r_ij, r_ik, θ_jik), read from a LAMMPS
 * `sw` parameter file and computed as LAMMPS computes it. Metal units (eV, Å), as the files are. Species
 * are matched by element.
 *
 * @example
 * const silicon = new StillingerWeber({ file: '/usr/share/lammps/potentials/Si.sw' });
 * const batch = Batch.fromSystems([repeat(bulk('Si', 'diamond', { a: 5.431, cubic: true }), [2, 2, 2])]);
 * silicon.compute(batch);
 * batch.energy[0] / batch.numAtoms; // ≈ −4.34 eV/atom, 2ε per atom: the model's diamond cohesive energy
 */
export class StillingerWeber extends ManyBodyModel {
  readonly name = 'StillingerWeber';

  constructor(options: StillingerWeberOptions) {
    super('StillingerWeber', options, []);
  }
}
