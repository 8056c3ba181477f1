// What the TS handles of the native many-body potentials (Tersoff, StillingerWeber) share: the file read and
// checked by many-body-file.ts, and the native potential (native/cpp/models/ManyBodyPotential) built from its
// entries.
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { loadBinding } from '../native/index.js';
import { checkKeys, type OptionAliases } from '../option-keys.js';
import { readManyBodyFile, type ManyBodyElements, type ManyBodyStyleName } from './many-body-file.js';
import type { ModelDescription } from './model.js';
import { NativeFileModel } from './native-file-model.js';
import { atomicNumber, chemicalSymbol } from '../data/index.js';
import { showValue } from '../describe-value.js';

/** Options every many-body model takes. */
export interface ManyBodyOptions {
  /** Path of the LAMMPS parameter file. */
  file: string;
  /**
   * The species to use, as `pair_coeff * * file A B` names them: only their triplets must be in the file.
   * Element symbols (`['Si', 'C']`), or a map from each element symbol to the file's name for it
   * (`{ Si: 'Si(D)', C: 'C', Ge: 'Ge' }`, for SiCGe.tersoff). Default: every name of the file, each an
   * element symbol.
   */
  elements?: ManyBodyElements;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin` (2.0 Å in metal units). */
  skin?: number;
}

// What LAMMPS's pair_style/pair_coeff take that a parameter file already holds.
const ALIASES: OptionAliases = { cutoff: 'the parameter file sets its own cutoffs', path: 'file', filename: 'file', potential: 'file' };

export abstract class ManyBodyModel extends NativeFileModel {
  /** The LAMMPS pair style the file was read as. */
  readonly style: ManyBodyStyleName;
  /** The elements, in the order the native potential indexes them. */
  readonly elements: readonly string[];
  readonly #names: readonly string[];

  protected constructor(model: 'Tersoff' | 'StillingerWeber', options: ManyBodyOptions & { style?: string }, extraKeys: readonly string[]) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${model}: options must be an object with a file`, { field: 'options', value: options });
    }
    checkKeys(model, options, ['file', 'elements', 'skin', ...extraKeys], '', ALIASES);
    const { skin, elements } = options;
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `${model}: skin must be a finite number >= 0, got ${showValue(skin)}`, { field: 'skin', value: skin });
    }
    const values = elements === null || typeof elements !== 'object' ? undefined : Object.values(elements);
    if (elements !== undefined && (values === undefined || values.length === 0 || values.some((e) => typeof e !== 'string'))) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${model}: elements must be element symbols, or a map from element symbols to the file's names`, {
        field: 'elements',
        value: elements,
      });
    }
    const family = model === 'Tersoff' ? 'tersoff' : 'sw';
    const data = readManyBodyFile(model, options.file, family, options.style as ManyBodyStyleName | undefined, elements);
    const Native = loadBinding().ManyBody;
    const numbers = Float64Array.from(data.elements, (e) => atomicNumber(e));
    super(new Native(model, data.style, numbers, data.entries, skin), options.file, skin);
    this.style = data.style;
    this.elements = data.elements.map((e) => chemicalSymbol(atomicNumber(e)));
    this.#names = data.names;
  }

  describe(): ModelDescription {
    return this.describeWith({ style: this.style, elements: [...this.elements], names: [...this.#names] });
  }
}
