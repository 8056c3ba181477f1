// What a Trainer fits, as the loop sees it: the parameters of a pair model (parameters.ts, fitted as ln θ) or
// the weights of a network on descriptors (network-space.ts, fitted as they are). The loop keeps flat arrays
// (θ, the optimizer's variables u, ∂L/∂u); a space names them for hooks and checkpoints, binds the native
// loss of a data set, and builds the model that its θ describes.
import type { Model } from '../models/index.js';
import type { NativePredictions } from '../native/training-binding.js';
import type { NativeBatch } from '../native/binding.js';

/**
 * Parameters (or gradients) by name: a number per parameter of a pair model (`'Ar-Ar.epsilon'`), an array
 * per tensor of a network (`'layers.0.weight'`, row-major).
 *
 * @example
 * const values: ParameterTensors = { 'layers.0.weight': new Float64Array(16 * 55), 'layers.0.bias': new Float64Array(16) };
 */
export type ParameterTensors = Record<string, number | Float64Array>;

/** @internal The reference arrays of a data set, as the native losses bind them. */
export interface BoundReferences {
  readonly energy: Float64Array;
  readonly forces: Float64Array;
  readonly stress: Float64Array;
  /** B×3: has energy, forces, stress. */
  readonly present: Uint8Array;
  readonly atomicNumbers: Int32Array;
  readonly ptr: Int32Array;
}

/** @internal A bound native loss: forward and loss per mini-batch, and what the last forward made. */
export interface NativeLossHandle {
  forward(theta: Float64Array, systems: Int32Array): void;
  loss(weights: Float64Array, gradient: Float64Array | null): Float64Array;
  predictions(): NativePredictions;
  /** Each layer's node values of the last forward (networks); null for a model without layers. */
  activations(): Float64Array[] | null;
}

/** @internal */
export interface TrainableSpace {
  /** Parameter (tensor) names, in the order of {@link values}. */
  readonly names: readonly string[];
  /** Scalars in θ, u and the gradient. */
  readonly size: number;
  /** θ of the model the space was made from (for a network: once its training set is bound). */
  readonly initial: Float64Array;
  /** 'ln' when u = ln θ (θ stays > 0), 'identity' when u = θ. */
  readonly variables: 'ln' | 'identity';
  /** Binds a data set's native loss; `train` is the set whose statistics a network's scales take. */
  bindLoss(batch: NativeBatch, references: BoundReferences, field: string, train: boolean): NativeLossHandle;
  /** θ by name (frozen record; arrays are copies). */
  values(theta: ArrayLike<number>): Readonly<ParameterTensors>;
  /** θ by name in JSON form (arrays as number[]). */
  plainValues(theta: ArrayLike<number>): Readonly<Record<string, number | number[]>>;
  /** A new mutable record of a flat ∂L/∂u. */
  gradientRecord(flat: ArrayLike<number>): ParameterTensors;
  /** The flat ∂L/∂u of a record hooks may have changed (INVALID_GRADIENT naming what is wrong). */
  readGradients(record: unknown): Float64Array;
  /** The name of scalar p ('layers.0.weight[3]'). */
  scalarName(p: number): string;
  /** The model's options with parameters θ: plain data (a config's model section). */
  spec(theta: ArrayLike<number>): object;
  /** A new model with parameters θ. */
  toModel(theta: ArrayLike<number>): Model;
}

/** @internal θ from u. */
export function thetaOf(space: TrainableSpace, variables: Float64Array, theta: Float64Array): void {
  if (space.variables === 'ln') for (let p = 0; p < theta.length; p++) theta[p] = Math.exp(variables[p]);
  else theta.set(variables);
}

/** @internal u from θ. */
export function variablesOf(space: TrainableSpace, theta: Float64Array): Float64Array {
  return space.variables === 'ln' ? theta.map(Math.log) : theta.slice();
}

/** @internal ∂L/∂u from ∂L/∂θ: θ·∂L/∂θ for u = ln θ. */
export function chainToVariables(space: TrainableSpace, theta: Float64Array, gradient: Float64Array): Float64Array {
  return space.variables === 'ln' ? theta.map((value, p) => value * gradient[p]) : gradient.slice();
}

/** @internal The first θ a runaway step left unusable (∞, NaN, and ≤ 0 under ln), or −1. */
export function runawayParameter(space: TrainableSpace, theta: Float64Array): number {
  return theta.findIndex((value) => !(Number.isFinite(value) && (space.variables === 'identity' || value > 0)));
}
