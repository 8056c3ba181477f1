// SNAP: the TS handle of native/cpp/models/SnapPotential for LAMMPS's `pair_style snap` files (linear and
// quadratic SNAP, the explicit multi-element form, a ZBL core; the bispectrum in
// native/cpp/math/SnapBispectrum.h), read by snap-file.ts.
import { atomicNumber, chemicalSymbol } from '../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { loadBinding } from '../native/index.js';
import { checkKeys } from '../option-keys.js';
import { checkPrefix, writeLammpsFiles } from './lammps-write.js';
import type { ModelDescription } from './model.js';
import { NativeFileModel } from './native-file-model.js';
import {
  readSnapCoefficients,
  readSnapInclude,
  readSnapParameters,
  snapCoefficientCount,
  snapError,
  snapParametersOf,
  type SnapElementCoefficients,
  type SnapParameterKeywords,
  type SnapParameters,
} from './snap-file.js';
import { snapCoefficientText, snapIncludeText, snapParameterText, type SnapBlock } from './snap-write.js';
import { showValue } from '../describe-value.js';

export type { SnapBlock } from './snap-write.js';
export type { SnapParameterKeywords } from './snap-file.js';

/** A ZBL core under the potential, as `pair_style hybrid/overlay zbl inner outer snap` adds it. */
export interface SnapZbl {
  /** Where the switching to zero starts, and where the core ends (Å). */
  inner: number;
  outer: number;
  /** The nuclear charge of each element; default: its atomic number. */
  charges?: Readonly<Record<string, number>>;
}

/**
 * Options of `new SNAP(...)`.
 *
 * @example
 * const options: SNAPOptions = {
 *   coefficients: '/usr/share/lammps/potentials/Ni_Zuo_JPCA2020.snapcoeff',
 *   parameters: '/usr/share/lammps/potentials/Ni_Zuo_JPCA2020.snapparam',
 * };
 */
export interface SNAPOptions {
  /**
   * Path of the `.snapcoeff` file, or its blocks as data: per element (in the file's order) its radius,
   * weight and coefficients (β₀, β (, α's upper triangle row by row), as {@link SNAP.coefficients} gives them).
   */
  coefficients: string | Readonly<Record<string, SnapBlock>>;
  /** Path of the `.snapparam` file, or its keywords as data: rcutfac, twojmax and the optional ones. */
  parameters: string | SnapParameterKeywords;
  /** The elements to use, as `pair_coeff * * X.snapcoeff X.snapparam A B` names them; default: every element of the coefficient file. */
  elements?: readonly string[];
  /** A ZBL core (the `hybrid/overlay zbl` of the shipped W, Ta and InP files); `SNAP.fromLammps` reads it from the include file. */
  zbl?: SnapZbl;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin` (2.0 Å in metal units). */
  skin?: number;
}

const ALIASES = { cutoff: 'the .snapparam file sets rcutfac, and each element its radius', file: 'coefficients and parameters', snapcoeff: 'coefficients', snapparam: 'parameters' };

/**
 * The spectral neighbour analysis potential: each atom's energy is β₀ + β·B (+ ½ Bᵀ α B with quadraticflag)
 * of the bispectrum B of its neighbour density within r_cut = rcutfac (R_i + R_j), read from LAMMPS's
 * `.snapcoeff` and `.snapparam` files and computed as `pair_style snap` computes it (energies, forces and
 * stress to rounding). Every keyword of those files is honoured (switchflag, bzeroflag, quadraticflag, and the
 * explicit multi-element chemflag, bnormflag and wselfallflag); a keyword hookmd does not know is an error.
 * Metal units (eV, Å), as the files are.
 *
 * @example
 * const nickel = SNAP.fromLammps('/usr/share/lammps/potentials/Ni_Zuo_JPCA2020.snap');
 * const batch = Batch.fromSystems([repeat(bulk('Ni', 'fcc', { a: 3.52, cubic: true }), [2, 2, 2])]);
 * nickel.compute(batch);
 * batch.energy[0] / batch.numAtoms; // ≈ −5.78 eV/atom, the DFT energy the potential was fitted to
 */
export class SNAP extends NativeFileModel {
  readonly name = 'SNAP';
  /** The elements, in the order of the coefficient file's blocks that are used. */
  readonly elements: readonly string[];
  /** The `.snapparam` settings, LAMMPS's defaults filled in. */
  readonly parameters: Readonly<SnapParameters>;
  /** Per element (in {@link SNAP.elements}' order) its radius, weight and coefficients, as a `.snapcoeff` block holds them. */
  readonly coefficients: Readonly<Record<string, SnapBlock>>;
  readonly #parametersFile: string;
  readonly #zbl: SnapZbl | undefined;

  constructor(options: SNAPOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'SNAP: options must be an object with coefficients and parameters', { field: 'options', value: options });
    }
    checkKeys('SNAP', options, ['coefficients', 'parameters', 'elements', 'zbl', 'skin'], '', ALIASES);
    const { skin, elements, zbl } = options;
    for (const key of ['coefficients', 'parameters'] as const) {
      const value: unknown = options[key];
      if (value === '' || (typeof value !== 'string' && (value === null || typeof value !== 'object' || Array.isArray(value)))) {
        throw new HookmdTypeError('INVALID_OPTIONS', `SNAP: ${key} must be the path of the .snap${key === 'coefficients' ? 'coeff' : 'param'} file or its content as an object`, { field: key, value });
      }
    }
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `SNAP: skin must be a finite number >= 0, got ${showValue(skin)}`, { field: 'skin', value: skin });
    }
    if (elements !== undefined && (!Array.isArray(elements) || elements.length === 0 || elements.some((e) => typeof e !== 'string'))) {
      throw new HookmdTypeError('INVALID_OPTIONS', 'SNAP: elements must be a non-empty list of element symbols', { field: 'elements', value: elements });
    }
    const parameters = typeof options.parameters === 'string' ? readSnapParameters('SNAP', options.parameters) : snapParametersOf('SNAP', options.parameters);
    const coefficientsFile = typeof options.coefficients === 'string' ? options.coefficients : '(coefficients in memory)';
    const parametersFile = typeof options.parameters === 'string' ? options.parameters : '(parameters in memory)';
    const file = typeof options.coefficients === 'string' ? readSnapCoefficients('SNAP', options.coefficients) : blocksOf(options.coefficients, snapCoefficientCount(parameters, Object.keys(options.coefficients).length));
    const names = elements ?? file.elements.map((e) => e.name);
    const blocks = names.map((name) => {
      const block = file.elements.find((e) => e.name === name);
      if (block === undefined) {
        throw new HookmdError('MISSING_SPECIES', `SNAP: ${coefficientsFile} has no coefficients for ${name}; it covers ${file.elements.map((e) => e.name).join(', ')}`, { field: 'elements', value: name });
      }
      return block;
    });
    const symbols = blocks.map((b) => {
      try {
        return chemicalSymbol(atomicNumber(b.name));
      } catch {
        throw snapError('SNAP', coefficientsFile, b.line, `'${b.name}' is not an element symbol`);
      }
    });
    const expected = snapCoefficientCount(parameters, blocks.length);
    if (file.perElement !== expected) {
      const form = `twojmax ${parameters.twojmax}${parameters.quadraticflag ? ', quadraticflag 1' : ''}${parameters.chemflag ? `, chemflag 1 with ${blocks.length} elements` : ''}`;
      throw snapError('SNAP', coefficientsFile, 1, `ncoeff is ${file.perElement}, but ${form} (${parametersFile}) needs ${expected} per element`);
    }
    const zblNumbers = zbl === undefined ? new Float64Array(0) : zblArray('SNAP', zbl, symbols);
    const settings = Float64Array.of(
      parameters.twojmax,
      parameters.rcutfac,
      parameters.rfac0,
      parameters.rmin0,
      ...[parameters.switchflag, parameters.bzeroflag, parameters.quadraticflag, parameters.chemflag, parameters.bnormflag, parameters.wselfallflag].map(Number),
    );
    const Native = loadBinding().Snap;
    const native = new Native(
      'SNAP',
      Float64Array.from(symbols, (s) => atomicNumber(s)),
      settings,
      Float64Array.from(blocks, (b) => b.radius),
      Float64Array.from(blocks, (b) => b.weight),
      Float64Array.from(blocks.flatMap((b) => b.coefficients)),
      zblNumbers,
      new Float64Array(0),
      skin,
    );
    super(native, coefficientsFile, skin);
    this.elements = symbols;
    this.parameters = Object.freeze({ ...parameters });
    this.coefficients = Object.freeze(
      Object.fromEntries(blocks.map((b, k) => [symbols[k] as string, Object.freeze({ radius: b.radius, weight: b.weight, coefficients: Object.freeze([...b.coefficients]) })])),
    );
    this.#parametersFile = parametersFile;
    this.#zbl = zbl;
  }

  /**
   * Writes the files LAMMPS runs: `<prefix>.snapcoeff`, `<prefix>.snapparam` and the include file
   * `<prefix>.snap` (`pair_style snap`, or `hybrid/overlay zbl inner outer snap` with the ZBL lines when the
   * model has a core), each atomically, every number to full precision, so that `SNAP.fromLammps` of the
   * include file gives the same bits and `include <prefix>.snap` in LAMMPS runs the same potential. Returns
   * the three paths. Throws WRITE_FAILED naming the file that could not be written.
   *
   * @example
   * const paths = nickel.save('/tmp/hookmd-doc/Ni');
   * paths.include; // '/tmp/hookmd-doc/Ni.snap'
   */
  save(prefix: string): { coefficients: string; parameters: string; include: string } {
    checkPrefix('SNAP', prefix);
    const paths = { coefficients: `${prefix}.snapcoeff`, parameters: `${prefix}.snapparam`, include: `${prefix}.snap` };
    const zbl = this.#zbl === undefined ? undefined : { inner: this.#zbl.inner, outer: this.#zbl.outer, charges: zblCharges(this.#zbl, this.elements) };
    writeLammpsFiles('SNAP', [
      { path: paths.coefficients, text: snapCoefficientText(this.coefficients) },
      { path: paths.parameters, text: snapParameterText(this.parameters) },
      { path: paths.include, text: snapIncludeText(paths.coefficients, paths.parameters, this.elements, zbl) },
    ]);
    return paths;
  }

  /**
   * The potential of a LAMMPS include file (`X.snap`): `pair_style snap`, or `hybrid/overlay zbl inner outer
   * snap` with its ZBL `pair_coeff` lines, and `pair_coeff * * [snap] X.snapcoeff X.snapparam El…`, whose file
   * names resolve against the include file's folder. `options` adds a skin.
   *
   * @example
   * const tungsten = SNAP.fromLammps('/usr/share/lammps/potentials/W_2940_2017_2.snap', { skin: 1.0 });
   * tungsten.describe().zbl; // { inner: 4, outer: 4.8, charges: { W: 74 } }
   */
  static fromLammps(file: string, options: { skin?: number } = {}): SNAP {
    if (typeof file !== 'string' || file === '') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'SNAP.fromLammps: file must be the path of a .snap include file', { field: 'file', value: file });
    }
    checkKeys('SNAP.fromLammps', options, ['skin']);
    const include = readSnapInclude('SNAP', file);
    return new SNAP({
      coefficients: include.coefficients,
      parameters: include.parameters,
      elements: include.elements,
      ...(include.zbl === undefined ? {} : { zbl: include.zbl }),
      ...(options.skin === undefined ? {} : { skin: options.skin }),
    });
  }

  describe(): ModelDescription {
    return this.describeWith({
      format: 'snap',
      parameters: this.#parametersFile,
      elements: [...this.elements],
      twojmax: this.parameters.twojmax,
      quadratic: this.parameters.quadraticflag,
      ...(this.#zbl === undefined ? {} : { zbl: { inner: this.#zbl.inner, outer: this.#zbl.outer, charges: zblCharges(this.#zbl, this.elements) } }),
    });
  }
}

/** The blocks of `coefficients: { El: { radius, weight, coefficients } }`, checked as readSnapCoefficients checks a file's; each must hold `perElement` numbers. */
function blocksOf(coefficients: Readonly<Record<string, SnapBlock>>, perElement: number): { perElement: number; elements: SnapElementCoefficients[] } {
  const entries = Object.entries(coefficients);
  if (entries.length === 0) throw new HookmdTypeError('INVALID_OPTIONS', 'SNAP: coefficients must name at least one element', { field: 'coefficients', value: coefficients });
  const elements = entries.map(([name, block]): SnapElementCoefficients => {
    const field = `coefficients.${name}`;
    checkKeys('SNAP', block, ['radius', 'weight', 'coefficients'], `${field}.`);
    const { radius, weight } = block;
    if (typeof radius !== 'number' || !(radius > 0) || !Number.isFinite(radius)) throw new HookmdRangeError('INVALID_OPTIONS', `SNAP: ${field}.radius must be a finite number > 0, got ${showValue(radius)}`, { field, value: radius });
    if (typeof weight !== 'number' || !Number.isFinite(weight)) throw new HookmdRangeError('INVALID_OPTIONS', `SNAP: ${field}.weight must be a finite number, got ${showValue(weight)}`, { field, value: weight });
    const list: unknown = block.coefficients;
    if (!Array.isArray(list) || list.length !== perElement || list.some((c) => typeof c !== 'number' || !Number.isFinite(c))) {
      throw new HookmdRangeError('INVALID_OPTIONS', `SNAP: ${field}.coefficients must be ${perElement} finite numbers for these parameters, got ${Array.isArray(list) ? `${list.length} values` : JSON.stringify(list)}`, { field, value: list });
    }
    return { name, radius, weight, coefficients: list as number[], line: 1 };
  });
  return { perElement, elements };
}

export function zblCharges(zbl: SnapZbl, symbols: readonly string[]): Record<string, number> {
  return Object.fromEntries(symbols.map((s) => [s, zbl.charges?.[s] ?? atomicNumber(s)]));
}

/** [inner, outer, zi zj per element pair] for the native potential (SNAP and MLIAP). */
export function zblArray(model: string, zbl: SnapZbl, symbols: readonly string[]): Float64Array {
  if (zbl === null || typeof zbl !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', `${model}: zbl must be { inner, outer, charges? }`, { field: 'zbl', value: zbl });
  checkKeys(model, zbl, ['inner', 'outer', 'charges'], 'zbl.');
  const { inner, outer } = zbl;
  if (typeof inner !== 'number' || typeof outer !== 'number' || !(inner > 0 && outer > inner && Number.isFinite(outer))) {
    throw new HookmdRangeError('INVALID_OPTIONS', `${model}: zbl needs 0 < inner < outer (Å), got ${showValue(inner)} and ${showValue(outer)}`, { field: 'zbl', value: zbl });
  }
  const charges = zblCharges(zbl, symbols);
  for (const [element, z] of Object.entries(charges)) {
    if (typeof z !== 'number' || !(z > 0) || !Number.isFinite(z)) {
      throw new HookmdRangeError('INVALID_OPTIONS', `${model}: the ZBL charge of ${element} must be a number > 0, got ${showValue(z)}`, { field: `zbl.charges.${element}`, value: z });
    }
  }
  const pairs = symbols.flatMap((a) => symbols.flatMap((b) => [charges[a] as number, charges[b] as number]));
  return Float64Array.of(inner, outer, ...pairs);
}
