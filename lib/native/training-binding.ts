// The typed surface of the native force-matching losses (native/cpp/binding/LossWrap, NetworkLossWrap), which
// NativeBinding lists as PairLoss and NetworkLoss. Only lib/training constructs them.
import type { NativeBatch } from './batch-binding.js';

/**
 * Predictions of the last `forward`, in mini-batch order (copies).
 *
 * @example
 * const { energy, forces, stress } = native.predictions(); // energy[k] is the k-th listed system's
 */
export interface NativePredictions {
  /** One energy per listed system. */
  energy: Float64Array;
  /** 3 per atom of the listed systems, system after system. */
  forces: Float64Array;
  /** 9 per listed system (row-major 3×3, σ = −W/V; 0 without a cell volume). */
  stress: Float64Array;
}

/**
 * The native loss object: bind a training set once, then forward and loss per mini-batch.
 *
 * @example
 * const native = new (loadBinding().PairLoss)('LennardJones', Float64Array.of(0, 0, 8.5), true, 0);
 * native.bind(batch, refEnergy, refForces, refStress, present);
 * native.forward(theta, Int32Array.of(0, 1, 2));
 * const stats = native.loss(Float64Array.of(1, 1, 0, 1), gradient);
 */
export interface NativePairLoss {
  bind(batch: NativeBatch, refEnergy: Float64Array, refForces: Float64Array, refStress: Float64Array, present: Uint8Array): void;
  forward(theta: Float64Array, systems: Int32Array): void;
  /**
   * Returns [total, energy, forces, stress, energyAbs, energySq, energyCount, forceAbs, forceSq, forceCount,
   * stressAbs, stressSq, stressCount]; writes ∂L/∂θ into `gradient` when one is given.
   */
  loss(weights: Float64Array, gradient: Float64Array | null): Float64Array;
  predictions(): NativePredictions;
  readonly numParams: number;
  readonly paramsPerPair: number;
  readonly numSystems: number;
}

/** new PairLoss(model: a name of `pairEvaluators`, rows of [z1, z2, cutoff], shift, switchOn (0: off)). */
export type NativePairLossConstructor = new (model: string, rows: Float64Array, shift: boolean, switchOn: number) => NativePairLoss;


/**
 * The native loss of an ML-IAP network on SNAP descriptors (native/cpp/binding/NetworkLossWrap): bind
 * computes the descriptors and their derivatives once; setScales, then forward and loss per mini-batch.
 *
 * @example
 * const native = new (loadBinding().NetworkLoss)(Float64Array.of(14), settings, Float64Array.of(0.5), Float64Array.of(1), Float64Array.of(2, 2, 16, 0, 1));
 * native.bind(batch, refEnergy, refForces, refStress, present);
 */
export interface NativeNetworkLoss {
  bind(batch: NativeBatch, refEnergy: Float64Array, refForces: Float64Array, refStress: Float64Array, present: Uint8Array): void;
  /** B per atom (atoms × numDescriptors) and each atom's element index. */
  descriptors(): { values: Float64Array; types: Int32Array };
  /** dB_j/dr_i of each atom j's entries [entryBegin[j], entryBegin[j + 1]) (n × 3 each), and V_j (n × 6: xx yy zz xy xz yz). */
  derivatives(): { entryBegin: Float64Array; entryAtom: Int32Array; values: Float64Array; virial: Float64Array };
  setScales(scales: Float64Array): void;
  forward(theta: Float64Array, systems: Int32Array): void;
  loss(weights: Float64Array, gradient: Float64Array | null): Float64Array;
  predictions(): NativePredictions;
  /** Per layer, the nodes' values of every atom of the last forward (atoms × nodes). */
  activations(): Float64Array[];
  readonly numParams: number;
  readonly numDescriptors: number;
}

/** new NetworkLoss(elements (atomic numbers), settings [9], radius, weight, network [layers, activation, nodes, …]). */
export type NativeNetworkLossConstructor = new (elements: Float64Array, settings: Float64Array, radius: Float64Array, weight: Float64Array, network: Float64Array) => NativeNetworkLoss;
