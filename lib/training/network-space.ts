// The trainable space of an MLIAPNetwork (lib/models/mliap-network.ts): its weights and biases, fitted as they
// are (u = θ), named per tensor ('layers.0.weight', 'layers.0.bias', …; 'Si.layers.0.weight' with several
// elements), in the flat order of LAMMPS's NET format (per element, per layer, per node: its bias then its
// weights). The training set fixes the scale rows (each descriptor's mean and standard deviation over the
// atoms of its element) and the output bias (the mean energy per atom), once, when it is bound.
import { HookmdError, HookmdTypeError } from '../errors.js';
import { atomicNumber, chemicalSymbol } from '../data/index.js';
import { MLIAP, type MLIAPNetwork } from '../models/index.js';
import type { NativeBatch } from '../native/binding.js';
import { loadBinding } from '../native/index.js';
import type { BoundReferences, NativeLossHandle, ParameterTensors, TrainableSpace } from './trainable-space.js';

interface Tensor {
  readonly name: string;
  /** Flat index of each of its entries (row-major for a weight). */
  readonly index: Int32Array;
}

/** @internal */
export class NetworkSpace implements TrainableSpace {
  readonly variables = 'identity' as const;
  readonly names: readonly string[];
  readonly size: number;
  readonly initial: Float64Array;
  readonly network: MLIAPNetwork;
  readonly #tensors: readonly Tensor[];
  readonly #owner: string;
  #scales: Float64Array | null = null;

  constructor(network: MLIAPNetwork, owner: string) {
    this.network = network;
    this.#owner = owner;
    const tensors: Tensor[] = [];
    const several = network.elements.length > 1;
    let at = 0;
    for (const element of network.elements) {
      let inputs = network.numDescriptors;
      network.layers.forEach(({ nodes }, l) => {
        const prefix = `${several ? `${element}.` : ''}layers.${l}`;
        const weight = new Int32Array(nodes * inputs);
        const bias = new Int32Array(nodes);
        for (let k = 0; k < nodes; k++) {
          bias[k] = at++;
          for (let i = 0; i < inputs; i++) weight[k * inputs + i] = at++;
        }
        tensors.push({ name: `${prefix}.weight`, index: weight }, { name: `${prefix}.bias`, index: bias });
        inputs = nodes;
      });
    }
    this.#tensors = tensors;
    this.names = Object.freeze(tensors.map((t) => t.name));
    this.size = at;
    this.initial = network.initialWeights();
  }

  /** Per element s₀ then s₁ (set by the training set's bind). */
  get scales(): Float64Array {
    if (this.#scales === null) throw new HookmdError('NOT_BOUND', `${this.#owner}: the network's scales come from its training set, which is not bound yet`, {});
    return this.#scales;
  }

  bindLoss(batch: NativeBatch, refs: BoundReferences, field: string, train: boolean): NativeLossHandle {
    const net = this.network;
    const elements = net.elements.map((symbol) => atomicNumber(symbol));
    refs.atomicNumbers.forEach((z, i) => {
      if (!elements.includes(z)) {
        const system = refs.ptr.findIndex((start, s) => i >= start && i < refs.ptr[s + 1]);
        throw new HookmdError('MISSING_SPECIES', `${this.#owner}(${field}): systems[${system}] has ${chemicalSymbol(z)}, which the network's descriptor lacks (it covers ${net.elements.join(', ')})`, {
          field: `${field}[${system}]`,
          value: chemicalSymbol(z),
        });
      }
    });
    const native = new (loadBinding().NetworkLoss)(Float64Array.from(elements), net.nativeSettings, Float64Array.from(net.radius), Float64Array.from(net.weight), net.nativeShape);
    native.bind(batch, refs.energy, refs.forces, refs.stress, refs.present);
    if (train || this.#scales === null) this.#fixFromTrainingSet(native, refs);
    native.setScales(this.#scales as Float64Array);
    return { forward: (t, s) => native.forward(t, s), loss: (w, g) => native.loss(w, g), predictions: () => native.predictions(), activations: () => native.activations() };
  }

  // s₀, s₁ per element from the descriptors of its atoms (s₁ = 1 where a descriptor does not vary), and the
  // output bias at the mean energy per atom of the systems with an energy.
  #fixFromTrainingSet(native: { descriptors(): { values: Float64Array; types: Int32Array }; readonly numDescriptors: number }, refs: BoundReferences): void {
    const n = native.numDescriptors;
    const { values, types } = native.descriptors();
    const ne = this.network.elements.length;
    const scales = new Float64Array(2 * n * ne);
    for (let e = 0; e < ne; e++) {
      const mean = new Float64Array(n);
      const square = new Float64Array(n);
      let count = 0;
      types.forEach((type, a) => {
        if (type !== e) return;
        count += 1;
        for (let c = 0; c < n; c++) mean[c] += values[a * n + c];
      });
      for (let c = 0; c < n; c++) mean[c] /= Math.max(count, 1);
      types.forEach((type, a) => {
        if (type !== e) return;
        for (let c = 0; c < n; c++) square[c] += (values[a * n + c] - mean[c]) ** 2;
      });
      for (let c = 0; c < n; c++) {
        const deviation = Math.sqrt(square[c] / Math.max(count, 1));
        scales[2 * n * e + c] = mean[c];
        scales[2 * n * e + n + c] = deviation > 1e-12 * Math.max(1, Math.abs(mean[c])) ? deviation : 1;
      }
    }
    this.#scales = scales;
    let energy = 0;
    let systems = 0;
    for (let s = 0; s + 1 < refs.ptr.length; s++) {
      if (refs.present[3 * s] !== 1) continue;
      energy += refs.energy[s] / (refs.ptr[s + 1] - refs.ptr[s]);
      systems += 1;
    }
    const outputBias = systems > 0 ? energy / systems : 0;
    for (const tensor of this.#tensors) if (tensor.name.endsWith(`layers.${this.network.layers.length - 1}.bias`)) this.initial[tensor.index[0]] = outputBias;
  }

  values(theta: ArrayLike<number>): Readonly<ParameterTensors> {
    return Object.freeze(this.gradientRecord(theta));
  }

  plainValues(theta: ArrayLike<number>): Readonly<Record<string, number[]>> {
    return Object.freeze(Object.fromEntries(this.#tensors.map((t) => [t.name, Array.from(t.index, (p) => theta[p])])));
  }

  gradientRecord(flat: ArrayLike<number>): ParameterTensors {
    const out: ParameterTensors = {};
    for (const t of this.#tensors) out[t.name] = Float64Array.from(t.index, (p) => flat[p]);
    return out;
  }

  readGradients(record: unknown): Float64Array {
    if (record === null || typeof record !== 'object') {
      throw new HookmdTypeError('INVALID_GRADIENT', 'Trainer: ctx.gradients must stay an object of Float64Arrays by parameter name', { field: 'gradients', value: record });
    }
    const out = new Float64Array(this.size);
    for (const t of this.#tensors) {
      const value = (record as Record<string, unknown>)[t.name];
      if (!(value instanceof Float64Array) || value.length !== t.index.length) {
        throw new HookmdTypeError('INVALID_GRADIENT', `Trainer: gradients['${t.name}'] must be a Float64Array of ${t.index.length} after BEFORE_OPTIMIZER_STEP`, { field: t.name, value });
      }
      t.index.forEach((p, k) => {
        out[p] = value[k];
      });
    }
    return out;
  }

  scalarName(p: number): string {
    for (const t of this.#tensors) {
      const k = t.index.indexOf(p);
      if (k >= 0) return `${t.name}[${k}]`;
    }
    return `parameter ${p}`;
  }

  spec(theta: ArrayLike<number>): Readonly<Record<string, unknown>> {
    return { ...this.network.config, weights: Array.from(theta), ...(this.#scales === null ? {} : { scales: Array.from(this.#scales) }) };
  }

  toModel(theta: ArrayLike<number>): MLIAP {
    return new MLIAP({ ...this.network.writeFiles(theta, this.scales), kind: 'nn' });
  }
}
