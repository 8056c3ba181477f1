// EAM: the TS handle of native/cpp/models/Eam (formulas in native/cpp/math/EamEval.h), built from a LAMMPS
// potential file read by eam-file.ts.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { Batch } from '../data/index.js';
import { loadBinding } from '../native/index.js';
import { checkKeys } from '../option-keys.js';
import type { NativeNeighborStats, NativePotential } from '../native/models-binding.js';
import { readEamFile, type EamElement, type EamFormat } from './eam-file.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { computeNative } from './native-compute.js';

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
export class EAM implements Model {
  readonly name = 'EAM';
  /** The file's cutoff (Å). */
  readonly cutoff: number;
  /** The file's format. */
  readonly format: EamFormat;
  /** The file's elements, with the masses and lattice constants of their header lines. */
  readonly elements: readonly EamElement[];
  readonly #file: string;
  readonly #skin: number | undefined;
  readonly #native: NativePotential;

  constructor(options: EAMOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'EAM: options must be an object with a file', { field: 'options', value: options });
    }
    checkKeys('EAM', options, ['file', 'format', 'skin'], '', EAM_ALIASES);
    const { skin } = options;
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `EAM: skin must be a finite number >= 0, got ${JSON.stringify(skin)}`, { field: 'skin', value: skin });
    }
    const data = readEamFile(options.file, options.format);
    const Native = loadBinding().EAM;
    const elements = Float64Array.from(data.elements, (e) => e.atomicNumber);
    const grid = Float64Array.of(data.nrho, data.drho, data.nr, data.dr, data.cutoff);
    this.#native = new Native(data.format, elements, grid, data.frho, data.rhor, data.z2r, skin);
    this.cutoff = data.cutoff;
    this.format = data.format;
    this.elements = data.elements;
    this.#file = options.file;
    this.#skin = skin;
  }

  /** The native potential, for the dynamics engine's native stepping loop. */
  get native(): NativePotential {
    return this.#native;
  }

  /**
   * Fills `batch.energy`, `batch.forces` (unless `forces: false`) and `batch.stress` (when `stress: true`).
   * Throws MISSING_SPECIES when an atom's element is not in the file.
   */
  compute(batch: Batch, options: ComputeOptions = {}): void {
    computeNative(this.name, this.#native, this.#skin, batch, options);
  }

  /** Neighbor-list counters: builds so far, pairs and bytes held now. */
  neighborStats(): NativeNeighborStats {
    return this.#native.neighborStats();
  }

  /** B×9 virial W = Σ_pairs d⊗F (eV) of the last compute with `stress: true`; σ = −W/V. */
  virial(): Float64Array {
    return this.#native.virial();
  }

  describe(): ModelDescription {
    return {
      name: this.name,
      cutoff: this.cutoff,
      file: this.#file,
      format: this.format,
      elements: this.elements.map((e) => e.symbol),
      skin: this.#skin ?? 'units default (2.0 Å metal)',
    };
  }
}
