// MLIAP: the TS handle of native/cpp/models/SnapPotential for LAMMPS's ML-IAP `pair_style mliap` with the
// `sna` or `so3` descriptor and a `linear`, `quadratic` or `nn` model (the network in native/cpp/math/DescriptorNetwork.h),
// read by mliap-file.ts.
import { atomicNumber, chemicalSymbol } from '../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { loadBinding } from '../native/index.js';
import { readStructureText } from '../io/structure-text.js';
import { checkKeys } from '../option-keys.js';
import { checkPrefix, writeLammpsFiles } from './lammps-write.js';
import { ACTIVATIONS, descriptorCount, mliapError, readMliapDescriptor, readMliapInclude, readMliapModel, type MliapDescriptor, type MliapDescriptorStyle, type MliapModel, type MliapModelKind } from './mliap-file.js';
import { mliapDescriptorText, mliapIncludeText, mliapModelText } from './mliap-write.js';
import type { ModelDescription } from './model.js';
import { MLIAPNetwork, type MLIAPNetworkOptions } from './mliap-network.js';
import { NativeFileModel } from './native-file-model.js';
import { zblArray, zblCharges, type SnapZbl } from './snap.js';
import { showValue } from '../describe-value.js';

/**
 * Options of `new MLIAP(...)`.
 *
 * @example
 * const options: MLIAPOptions = {
 *   model: '/usr/share/lammps/potentials/Ta06A.nn.mliap.model',
 *   descriptor: '/usr/share/lammps/potentials/Ta06A.mliap.descriptor',
 *   kind: 'nn',
 * };
 */
export interface MLIAPOptions {
  /** Path of the model file (`X.mliap.model`). */
  model: string;
  /** Path of the descriptor file (`X.mliap.descriptor`). */
  descriptor: string;
  /** The descriptor's style, as `descriptor STYLE FILE` names it; default: `so3` when the file sets nmax, lmax or alpha, else `sna`. */
  descriptorStyle?: MliapDescriptorStyle;
  /** The model's kind, as `pair_style mliap model KIND` names it; default: `nn` when the file has a NET line, else what its coefficient count says. */
  kind?: MliapModelKind;
  /** The elements to use, as `pair_coeff * * A B` names them; default: the descriptor's. */
  elements?: readonly string[];
  /** A ZBL core, as `pair_style hybrid/overlay zbl inner outer mliap ...` adds it. */
  zbl?: SnapZbl;
  /** Verlet skin (length units, ≥ 0). Default: the batch units' `defaultSkin` (2.0 Å in metal units). */
  skin?: number;
}

/**
 * A machine-learned potential of LAMMPS's ML-IAP package on SNAP's bispectrum descriptor or the SO(3) power
 * spectrum (`so3`): each atom's energy is a linear or quadratic function of its descriptors B, or a
 * feed-forward network of them, computed as
 * `pair_style mliap` computes it, the network's forward and backward passes included, natively. Metal units.
 *
 * @example
 * const tantalum = MLIAP.fromLammps('/usr/share/lammps/potentials/Ta06A.nn.mliap');
 * const batch = Batch.fromSystems([repeat(bulk('Ta', 'bcc', { a: 3.31, cubic: true }), [3, 3, 3])]);
 * tantalum.compute(batch);
 * batch.energy[0] / batch.numAtoms; // ≈ −11.85 eV/atom
 */
export class MLIAP extends NativeFileModel {
  readonly name = 'MLIAP';
  readonly kind: MliapModelKind;
  readonly descriptorStyle: MliapDescriptorStyle;
  readonly elements: readonly string[];
  readonly #files: { model: string; descriptor: string };
  readonly #zbl: SnapZbl | undefined;
  readonly #layers: readonly { nodes: number; activation: string }[] | undefined;
  /** What save() writes: the descriptor and the model of the elements in use. */
  readonly #saved: { descriptor: MliapDescriptor; parameters: readonly (readonly number[])[]; network: MliapModel['network'] };

  constructor(options: MLIAPOptions) {
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'MLIAP: options must be an object with a model and a descriptor', { field: 'options', value: options });
    }
    checkKeys('MLIAP', options, ['model', 'descriptor', 'descriptorStyle', 'kind', 'elements', 'zbl', 'skin'], '', { file: 'model and descriptor', coefficients: 'model' });
    const { skin, elements, zbl } = options;
    for (const key of ['model', 'descriptor'] as const) {
      if (typeof options[key] !== 'string' || options[key] === '') {
        throw new HookmdTypeError('INVALID_OPTIONS', `MLIAP: ${key} must be the path of the ${key} file`, { field: key, value: options[key] });
      }
    }
    if (options.kind !== undefined && options.kind !== 'linear' && options.kind !== 'quadratic' && options.kind !== 'nn') {
      throw new HookmdTypeError('INVALID_OPTIONS', `MLIAP: kind must be 'linear', 'quadratic' or 'nn', got ${showValue(options.kind)}`, { field: 'kind', value: options.kind });
    }
    if (options.descriptorStyle !== undefined && options.descriptorStyle !== 'sna' && options.descriptorStyle !== 'so3') {
      throw new HookmdTypeError('INVALID_OPTIONS', `MLIAP: descriptorStyle must be 'sna' or 'so3', got ${showValue(options.descriptorStyle)}`, { field: 'descriptorStyle', value: options.descriptorStyle });
    }
    if (skin !== undefined && (typeof skin !== 'number' || !Number.isFinite(skin) || skin < 0)) {
      throw new HookmdRangeError('INVALID_SKIN', `MLIAP: skin must be a finite number >= 0, got ${showValue(skin)}`, { field: 'skin', value: skin });
    }
    if (elements !== undefined && (!Array.isArray(elements) || elements.length === 0 || elements.some((e) => typeof e !== 'string'))) {
      throw new HookmdTypeError('INVALID_OPTIONS', 'MLIAP: elements must be a non-empty list of element symbols', { field: 'elements', value: elements });
    }
    const descriptor = readMliapDescriptor('MLIAP', options.descriptor, options.descriptorStyle);
    const ne = descriptor.elements.length;
    const n = descriptorCount(descriptor);
    const kind = options.kind ?? detectKind(options.model, n);
    const model = readMliapModel('MLIAP', kind, options.model);
    if (model.numElements !== ne) {
      throw mliapError('MLIAP', options.model, 1, `the model has ${model.numElements} elements, the descriptor ${options.descriptor} ${ne}`);
    }
    const expected = kind === 'linear' ? 1 + n : kind === 'quadratic' ? 1 + n + (n * (n + 1)) / 2 : undefined;
    if (model.network !== undefined && model.network.descriptors !== n) {
      throw mliapError('MLIAP', options.model, 1, `the network takes ${model.network.descriptors} descriptors, the descriptor (${options.descriptor}, ${descriptorSettings(descriptor)}) gives ${n}`);
    }
    if (expected !== undefined && model.perElement !== expected) {
      throw mliapError('MLIAP', options.model, 1, `a ${kind} model on ${n} descriptors needs ${expected} parameters per element, the file has ${model.perElement}`);
    }
    const names = elements ?? descriptor.elements.map((e) => e.name);
    if (descriptor.style === 'sna' && descriptor.parameters.chemflag && names.length !== ne) {
      throw new HookmdTypeError('INVALID_OPTIONS', `MLIAP: with chemflag every element of the descriptor is used (${descriptor.elements.map((e) => e.name).join(', ')})`, { field: 'elements', value: elements });
    }
    const chosen = names.map((name) => {
      const index = descriptor.elements.findIndex((e) => e.name === name);
      if (index < 0) {
        throw new HookmdError('MISSING_SPECIES', `MLIAP: ${options.descriptor} has no element ${name}; it covers ${descriptor.elements.map((e) => e.name).join(', ')}`, { field: 'elements', value: name });
      }
      return index;
    });
    const symbols = chosen.map((index) => {
      const name = (descriptor.elements[index] as { name: string }).name;
      try {
        return chemicalSymbol(atomicNumber(name));
      } catch {
        throw mliapError('MLIAP', options.descriptor, 1, `'${name}' is not an element symbol`);
      }
    });
    const p = descriptor.parameters;
    const settings =
      descriptor.style === 'so3'
        ? Float64Array.of(descriptor.parameters.rcutfac, descriptor.parameters.nmax, descriptor.parameters.lmax, descriptor.parameters.alpha, Number(kind === 'quadratic'))
        : Float64Array.of(
            descriptor.parameters.twojmax,
            p.rcutfac,
            descriptor.parameters.rfac0,
            descriptor.parameters.rmin0,
            ...[descriptor.parameters.switchflag, descriptor.parameters.bzeroflag, kind === 'quadratic', descriptor.parameters.chemflag, descriptor.parameters.bnormflag, descriptor.parameters.wselfallflag].map(Number),
          );
    const network =
      model.network === undefined ? new Float64Array(0) : Float64Array.of(model.network.layers.length, ...model.network.layers.flatMap((l) => [ACTIVATIONS[l.activation], l.nodes]));
    const Native = loadBinding().Snap;
    const native = new Native(
      'MLIAP',
      Float64Array.from(symbols, (s) => atomicNumber(s)),
      settings,
      Float64Array.from(chosen, (k) => (descriptor.elements[k] as { radius: number }).radius),
      Float64Array.from(chosen, (k) => (descriptor.elements[k] as { weight: number }).weight),
      Float64Array.from(chosen.flatMap((k) => model.parameters[k] as number[])),
      zbl === undefined ? new Float64Array(0) : zblArray('MLIAP', zbl, symbols),
      network,
      skin,
      descriptor.style,
    );
    super(native, options.model, skin);
    this.kind = kind;
    this.descriptorStyle = descriptor.style;
    this.elements = symbols;
    this.#files = { model: options.model, descriptor: options.descriptor };
    this.#zbl = zbl;
    this.#layers = model.network?.layers;
    this.#saved = {
      descriptor: { ...descriptor, elements: chosen.map((k, i) => ({ ...(descriptor.elements[k] as MliapDescriptor['elements'][number]), name: symbols[i] as string })) },
      parameters: chosen.map((k) => model.parameters[k] as number[]),
      network: model.network,
    };
  }

  /**
   * Writes the files LAMMPS runs: `<prefix>.mliap.model` (linear, quadratic, or nn in LAMMPS's NET format),
   * `<prefix>.mliap.descriptor` (the `sna` or `so3` descriptor of the elements in use) and the include file
   * `<prefix>.mliap` (`pair_style mliap model KIND … descriptor STYLE …`, under `hybrid/overlay zbl` when the
   * model has a ZBL core), each atomically, every number to full precision, so that `MLIAP.fromLammps` of
   * the include file gives the same bits. Returns the three paths. Throws WRITE_FAILED naming the file.
   *
   * @example
   * const paths = tantalum.save('/tmp/hookmd-doc/Ta');
   * paths.model; // '/tmp/hookmd-doc/Ta.mliap.model'
   */
  save(prefix: string): { model: string; descriptor: string; include: string } {
    checkPrefix('MLIAP', prefix);
    const paths = { model: `${prefix}.mliap.model`, descriptor: `${prefix}.mliap.descriptor`, include: `${prefix}.mliap` };
    const zbl = this.#zbl === undefined ? undefined : { inner: this.#zbl.inner, outer: this.#zbl.outer, charges: zblCharges(this.#zbl, this.elements) };
    writeLammpsFiles('MLIAP', [
      { path: paths.model, text: mliapModelText(this.#saved.parameters, this.#saved.network) },
      { path: paths.descriptor, text: mliapDescriptorText(this.#saved.descriptor) },
      { path: paths.include, text: mliapIncludeText(this.kind, paths.model, paths.descriptor, this.descriptorStyle, this.elements, zbl) },
    ]);
    return paths;
  }

  /**
   * The potential of a LAMMPS include file (`X.mliap`): `pair_style [hybrid/overlay zbl inner outer] mliap
   * model KIND FILE descriptor sna FILE` with its `pair_coeff` lines; file names resolve against the include
   * file's folder. `options` adds a skin.
   *
   * @example
   * const tungsten = MLIAP.fromLammps('/usr/share/lammps/potentials/W.quadratic.mliap');
   * tungsten.kind; // 'quadratic'
   */
  static fromLammps(file: string, options: { skin?: number } = {}): MLIAP {
    if (typeof file !== 'string' || file === '') {
      throw new HookmdTypeError('INVALID_OPTIONS', 'MLIAP.fromLammps: file must be the path of a .mliap include file', { field: 'file', value: file });
    }
    checkKeys('MLIAP.fromLammps', options, ['skin']);
    const include = readMliapInclude('MLIAP', file);
    return new MLIAP({
      model: include.model.file,
      descriptor: include.descriptor,
      descriptorStyle: include.descriptorStyle,
      kind: include.model.kind,
      elements: include.elements,
      ...(include.zbl === undefined ? {} : { zbl: include.zbl }),
      ...(options.skin === undefined ? {} : { skin: options.skin }),
    });
  }

  /**
   * A network on SNAP descriptors for the Trainer to fit (LAMMPS's `nn` model; see MLIAPNetwork):
   * `trainer.toModel()` then gives the MLIAP of its weights.
   *
   * @example
   * const network = MLIAP.network({ descriptor: { file: 'Si.snapparam', elements: { Si: { radius: 0.5 } } }, layers: [16, 16], seed: 1 });
   */
  static network(options: MLIAPNetworkOptions): MLIAPNetwork {
    return new MLIAPNetwork(options);
  }

  describe(): ModelDescription {
    return this.describeWith({
      format: 'mliap',
      kind: this.kind,
      descriptor: this.#files.descriptor,
      descriptorStyle: this.descriptorStyle,
      elements: [...this.elements],
      ...(this.#layers === undefined ? {} : { layers: this.#layers.map((l) => ({ ...l })) }),
      ...(this.#zbl === undefined ? {} : { zbl: { inner: this.#zbl.inner, outer: this.#zbl.outer, charges: zblCharges(this.#zbl, this.elements) } }),
    });
  }
}

/** What fixes a descriptor's count, for messages. */
function descriptorSettings(descriptor: ReturnType<typeof readMliapDescriptor>): string {
  if (descriptor.style === 'so3') return `so3 nmax ${descriptor.parameters.nmax} lmax ${descriptor.parameters.lmax}`;
  return `twojmax ${descriptor.parameters.twojmax}${descriptor.parameters.chemflag ? ', chemflag' : ''}`;
}

/** nn when the file has a NET line; otherwise linear or quadratic by its parameter count for n descriptors. */
function detectKind(file: string, n: number): MliapModelKind {
  if (/^\s*NET\b/m.test(readStructureText('MLIAP', file))) return 'nn';
  const linear = readMliapModel('MLIAP', 'linear', file);
  return linear.perElement === 1 + n + (n * (n + 1)) / 2 ? 'quadratic' : 'linear';
}
