// MLIAPNetwork: a feed-forward network on SNAP descriptors (LAMMPS ML-IAP's `nn` model, NET format) that a
// Trainer fits, made by MLIAP.network(...). It is plain data (descriptor file, elements, layer sizes,
// activation, seed): the weights live in the trainer, and writeFiles() writes them as the `.mliap.model`/
// `.mliap.descriptor` pair LAMMPS reads, from which the trainer makes the MLIAP that computes and runs MD.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { atomicNumber, chemicalSymbol, createRng } from '../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { ACTIVATIONS, type MliapActivation } from './mliap-file.js';
import { readSnapParameters, snapComponents, type SnapParameters } from './snap-file.js';
import { showValue } from '../describe-value.js';

/**
 * Options of `MLIAP.network(...)`: plain data, as a config file gives them.
 *
 * @example
 * const options: MLIAPNetworkOptions = {
 *   descriptor: { file: '/usr/share/lammps/potentials/Si_Zuo_JPCA2020.snapparam', elements: { Si: { radius: 0.5, weight: 1 } } },
 *   layers: [16, 16], activation: 'tanh', seed: 1,
 * };
 */
export interface MLIAPNetworkOptions {
  /** A `.snapparam` file and, per element, its radius R and weight w (as a `.snapcoeff` header gives them; weight default 1). */
  descriptor: { file: string; elements: Readonly<Record<string, { radius: number; weight?: number }>> };
  /** Nodes of each hidden layer (integers ≥ 1); a linear output node (the atom's energy) follows them. */
  layers: readonly number[];
  /** The hidden layers' activation: 'tanh' (default), 'sigmoid', 'relu' or 'linear'. */
  activation?: MliapActivation;
  /** Seeds the initial weights (integer, default 0). */
  seed?: number;
}

/** Each layer's nodes and activation, the output node included. */
export interface NetworkLayer {
  readonly nodes: number;
  readonly activation: MliapActivation;
}

/**
 * A network on SNAP descriptors for the Trainer: atom j of element e has the energy NN_e((B_j − s₀)/s₁), with
 * B_j its bispectrum and s₀, s₁ the mean and standard deviation of each descriptor over the training set's
 * atoms of e (LAMMPS's two scale rows, fixed at the start of a fit). Its parameters are named as PyTorch
 * names an `nn.Sequential`'s: `layers.0.weight` (nodes × inputs, row-major), `layers.0.bias`, …, the output
 * layer last; `Si.layers.0.weight` and so on with several elements. Initial weights are Glorot (Xavier)
 * uniform, U(−a, a) with a = √(6/(fan_in + fan_out)), drawn from `seed`; biases start at 0, the output bias
 * at the training set's mean energy per atom.
 *
 * @example
 * const network = MLIAP.network({
 *   descriptor: { file: 'Si_Zuo_JPCA2020.snapparam', elements: { Si: { radius: 0.5 } } }, layers: [16, 16], seed: 1,
 * });
 * const trainer = new Trainer({ model: network, train, epochs: 100 });
 */
export class MLIAPNetwork {
  readonly name = 'MLIAPNetwork';
  /** The options, canonical (what a trainer's config records). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly descriptorFile: string;
  readonly parameters: Omit<SnapParameters, 'quadraticflag'>;
  /** Element symbols, in the descriptor's order. */
  readonly elements: readonly string[];
  readonly radius: readonly number[];
  readonly weight: readonly number[];
  /** Bispectrum components per atom. */
  readonly numDescriptors: number;
  readonly layers: readonly NetworkLayer[];
  readonly seed: number;
  /** Weights and biases of one element's network. */
  readonly paramsPerElement: number;

  constructor(options: MLIAPNetworkOptions) {
    const owner = 'MLIAP.network';
    if (options === null || typeof options !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: options must be an object { descriptor, layers, activation, seed }`, { field: 'options', value: options });
    }
    checkKeys(owner, options, ['descriptor', 'layers', 'activation', 'seed'], '', { hidden: 'layers', nodes: 'layers' });
    const { descriptor } = options;
    if (descriptor === null || typeof descriptor !== 'object' || typeof descriptor.file !== 'string' || descriptor.file === '') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: descriptor must be { file: 'X.snapparam', elements: { El: { radius, weight } } }`, { field: 'descriptor', value: descriptor });
    }
    checkKeys(owner, descriptor, ['file', 'elements'], 'descriptor.');
    const elements = descriptor.elements;
    if (elements === null || typeof elements !== 'object' || Array.isArray(elements) || Object.keys(elements).length === 0) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: descriptor.elements must name each element with its radius: { Si: { radius: 0.5, weight: 1 } }`, { field: 'descriptor.elements', value: elements });
    }
    const symbols = Object.keys(elements).map((name) => {
      let symbol: string;
      try {
        symbol = chemicalSymbol(atomicNumber(name));
      } catch {
        throw new HookmdError('UNKNOWN_ELEMENT', `${owner}: descriptor.elements: '${name}' is not an element symbol`, { field: 'descriptor.elements', value: name });
      }
      const entry = elements[name] as { radius?: unknown; weight?: unknown };
      checkKeys(owner, entry, ['radius', 'weight'], `descriptor.elements.${name}.`);
      if (typeof entry.radius !== 'number' || !(entry.radius > 0) || !Number.isFinite(entry.radius)) {
        throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: descriptor.elements.${name}.radius must be a finite number > 0, got ${showValue(entry.radius)}`, { field: `descriptor.elements.${name}.radius`, value: entry.radius });
      }
      if (entry.weight !== undefined && (typeof entry.weight !== 'number' || !Number.isFinite(entry.weight))) {
        throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: descriptor.elements.${name}.weight must be a finite number, got ${showValue(entry.weight)}`, { field: `descriptor.elements.${name}.weight`, value: entry.weight });
      }
      return symbol;
    });
    const layers = options.layers;
    if (!Array.isArray(layers) || layers.length === 0) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: layers must be a non-empty list of hidden-layer sizes, e.g. [16, 16]`, { field: 'layers', value: layers });
    }
    layers.forEach((nodes: unknown, l: number) => {
      if (typeof nodes !== 'number' || !Number.isInteger(nodes) || nodes < 1 || nodes > 4096) {
        throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: layers[${l}] must be a whole number of nodes from 1 to 4096, got ${showValue(nodes)}`, { field: `layers[${l}]`, value: nodes });
      }
    });
    const activation = options.activation ?? 'tanh';
    if (typeof activation !== 'string' || !(activation in ACTIVATIONS)) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: activation must be one of ${Object.keys(ACTIVATIONS).join(', ')}, got ${showValue(activation)}`, { field: 'activation', value: activation });
    }
    const seed = options.seed ?? 0;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
      throw new HookmdRangeError('INVALID_OPTIONS', `${owner}: seed must be a safe integer, got ${showValue(seed)}`, { field: 'seed', value: seed });
    }
    const { quadraticflag, ...parameters } = readSnapParameters(owner, descriptor.file);
    if (quadraticflag) {
      throw new HookmdError('INVALID_OPTIONS', `${owner}: ${descriptor.file} sets quadraticflag; a network takes the linear bispectrum (set quadraticflag 0)`, { field: 'descriptor.file', value: descriptor.file });
    }
    this.descriptorFile = descriptor.file;
    this.parameters = parameters;
    this.elements = Object.freeze(symbols);
    this.radius = Object.freeze(Object.keys(elements).map((name) => (elements[name] as { radius: number }).radius));
    this.weight = Object.freeze(Object.keys(elements).map((name) => (elements[name] as { weight?: number }).weight ?? 1));
    this.numDescriptors = snapComponents(parameters.twojmax) * (parameters.chemflag ? symbols.length ** 3 : 1);
    this.layers = Object.freeze([...layers.map((nodes: number) => ({ nodes, activation: activation as MliapActivation })), { nodes: 1, activation: 'linear' as const }]);
    this.seed = seed;
    let count = 0;
    let inputs = this.numDescriptors;
    for (const { nodes } of this.layers) {
      count += nodes * (inputs + 1);
      inputs = nodes;
    }
    this.paramsPerElement = count;
    const canonicalElements = Object.fromEntries(symbols.map((symbol, e) => [symbol, { radius: this.radius[e], weight: this.weight[e] }]));
    this.config = Object.freeze({ type: 'mliap-network', descriptor: { file: descriptor.file, elements: canonicalElements }, layers: [...layers], activation, seed });
  }

  /** [layers, then each layer's activation code and nodes]: the network as the native code takes it. */
  get nativeShape(): Float64Array {
    return Float64Array.of(this.layers.length, ...this.layers.flatMap((l) => [ACTIVATIONS[l.activation], l.nodes]));
  }

  /** The descriptor settings as the native code takes them (twojmax, rcutfac, rfac0, rmin0, then the flags). */
  get nativeSettings(): Float64Array {
    const p = this.parameters;
    return Float64Array.of(p.twojmax, p.rcutfac, p.rfac0, p.rmin0, ...[p.switchflag, p.bzeroflag, p.chemflag, p.bnormflag, p.wselfallflag].map(Number));
  }

  /** Glorot-uniform weights and zero biases from the seed, per element in LAMMPS's order (per layer, per node: bias, weights). */
  initialWeights(): Float64Array {
    const rng = createRng(this.seed);
    const out = new Float64Array(this.paramsPerElement * this.elements.length);
    let at = 0;
    for (let e = 0; e < this.elements.length; e++) {
      let inputs = this.numDescriptors;
      for (const { nodes } of this.layers) {
        const limit = Math.sqrt(6 / (inputs + nodes));
        for (let k = 0; k < nodes; k++) {
          out[at++] = 0;
          for (let i = 0; i < inputs; i++) out[at++] = (2 * rng.uniform() - 1) * limit;
        }
        inputs = nodes;
      }
    }
    return out;
  }

  /**
   * Writes weights `theta` (initialWeights' layout) and scale rows `scales` (per element s₀ then s₁) as
   * `prefix.mliap.model` (NET format) and `prefix.mliap.descriptor` (default prefix: in a new temporary
   * folder); returns the two paths, what `new MLIAP({ model, descriptor, kind: 'nn' })` takes.
   */
  writeFiles(theta: ArrayLike<number>, scales: ArrayLike<number>, prefix?: string): { model: string; descriptor: string } {
    const base = prefix ?? join(mkdtempSync(join(tmpdir(), 'hookmd-mliap-')), 'network');
    const n = this.numDescriptors;
    const per = this.paramsPerElement;
    const numbers = (values: ArrayLike<number>, from: number, to: number): string => Array.from({ length: to - from }, (_, k) => String(values[from + k])).join(' ');
    const net = `NET ${n} ${this.layers.length} ${this.layers.map((l) => `${l.activation} ${l.nodes}`).join(' ')}`;
    const blocks = this.elements.flatMap((_, e) => [numbers(scales, 2 * n * e, 2 * n * e + n), numbers(scales, 2 * n * e + n, 2 * n * (e + 1)), numbers(theta, per * e, per * (e + 1))]);
    writeFileSync(`${base}.mliap.model`, [`# ML-IAP nn model trained by hookmd (NET format)`, `${this.elements.length} ${per}`, net, ...blocks, ''].join('\n'));
    const p = this.parameters;
    const flags = (['switchflag', 'bzeroflag', 'chemflag', 'bnormflag', 'wselfallflag'] as const).map((flag) => `${flag} ${p[flag] ? 1 : 0}`);
    writeFileSync(
      `${base}.mliap.descriptor`,
      [`rcutfac ${p.rcutfac}`, `twojmax ${p.twojmax}`, `rfac0 ${p.rfac0}`, `rmin0 ${p.rmin0}`, ...flags, `nelems ${this.elements.length}`,
        `elems ${this.elements.join(' ')}`, `radelems ${this.radius.join(' ')}`, `welems ${this.weight.join(' ')}`, ''].join('\n'),
    );
    return { model: `${base}.mliap.model`, descriptor: `${base}.mliap.descriptor` };
  }
}
