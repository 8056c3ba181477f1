// EAM: the TS handle of native/cpp/models/Eam (formulas in native/cpp/math/EamEval.h), built from a LAMMPS
// potential file read by eam-file.ts.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { loadBinding } from '../native/index.js';
import { checkKeys } from '../option-keys.js';
import { readEamFile, type EamElement, type EamFormat } from './eam-file.js';
import type { ModelDescription } from './model.js';
import { NativeFileModel } from './native-file-model.js';
import { showValue } from '../describe-value.js';

/**
 * Options of `new EAM(...)`.
 *
 * @example
 * const options: EAMOptions = { file: '/usr/share/lammps/potentials/AlCu.eam.alloy', format: 'setfl' };
 */
export interface EAMOptions {
  /** Path of a LAMMPS potential file: DYNAMO funcfl (`*.eam`), setfl (`*.eam.alloy`) or Finnis–Sinclair (`*.eam.fs`). */
  file: string;
  /** The file's format; default: from its name, else from its content. */
  format?: EamFormat;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin` (2.0 Å in metal units). */
  skin?: number;
}

// What LAMMPS's pair_style/pair_coeff take that an EAM file already holds.
const EAM_ALIASES = { cutoff: 'an EAM file sets its own cutoff', path: 'file', filename: 'file', potential: 'file' };

/**
 * The embedded-atom method, E = Σ_i F_i(ρ̄_i) + ½ Σ_{i≠j} φ_ij(r_ij) with ρ̄_i = Σ_j ρ_j(r_ij) (Finnis–Sinclair:
 * ρ_{ji}, the density atom j's element puts on atom i's element), read from the LAMMPS potential files of
 * `pair_style eam`, `eam/alloy` and `eam/fs` and interpolated with LAMMPS's cubic splines, so energies,
 * forces and stress match LAMMPS's to rounding. Metal units (eV, Å): the files are. Species are matched by
 * element; masses stay the batch's (the element table's by default), not the file's.
 *
 * @example
 * const copper = new EAM({ file: '/usr/share/lammps/potentials/Cu_u3.eam' });
 * const batch = Batch.fromSystems([repeat(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), [3, 3, 3])]);
 * copper.compute(batch, { stress: true });
 * batch.energy[0] / batch.numAtoms; // ≈ −3.54 eV/atom, the cohesive energy Foiles et al. fitted
 */
export class EAM extends NativeFileModel {
  readonly name = 'EAM';
  /** The file's format. */
  readonly format: EamFormat;
  /** The file's elements, with the masses and lattice constants of their header lines. */
  readonly elements: readonly EamElement[];

  constructor(options: EAMOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'EAM: options must be an object with a file', { field: 'options', value: options });
    }
    checkKeys('EAM', options, ['file', 'format', 'skin'], '', EAM_ALIASES);
    const { skin } = options;
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `EAM: skin must be a finite number >= 0, got ${showValue(skin)}`, { field: 'skin', value: skin });
    }
    const data = readEamFile(options.file, options.format);
    const Native = loadBinding().EAM;
    const elements = Float64Array.from(data.elements, (e) => e.atomicNumber);
    const grid = Float64Array.of(data.nrho, data.drho, data.nr, data.dr, data.cutoff);
    super(new Native(data.format, elements, grid, data.frho, data.rhor, data.z2r, skin), options.file, skin);
    this.format = data.format;
    this.elements = data.elements;
  }

  describe(): ModelDescription {
    return this.describeWith({ format: this.format, elements: this.elements.map((e) => e.symbol) });
  }
}
