// The typed surface of the native potential classes (native/cpp/binding/PairPotentialWrap, EamWrap)
// and of the graph models' EdgeList (EdgeListWrap). Only lib/models constructs them; the dynamics engine
// hands `model.native` to the native stepping loop, which calls the potential without crossing into JS.
import type { NativeBatch } from './batch-binding.js';

/**
 * Neighbor-list counters of one native potential (`model.neighborStats()`).
 *
 * @example
 * const { builds, pairs, bytes } = lj.neighborStats();
 */
export interface NativeNeighborStats {
  /** System lists built since the potential was created. */
  builds: number;
  /** Times the whole neighbor state was dropped (new batch, new layout, new cutoff or skin). */
  resets: number;
  /** Half-list pairs held now, over every system. */
  pairs: number;
  /** Systems with a list now. */
  systems: number;
  /** Heap bytes of the lists and the positions saved at build time. */
  bytes: number;
}

/**
 * Members every native potential shares (PotentialWrapBase); `model.native` for the dynamics engine.
 *
 * @example
 * new NativeStepper(nativeBatch, lennardJones.native, ...); // the stepping loop calls it without JS
 */
export interface NativePotential {
  /** Energy always; forces and stress on request. Throws HookmdError with the native code on bad input. */
  compute(batch: NativeBatch, forces: boolean, stress: boolean): void;
  setSkin(skin: number): void;
  neighborStats(): NativeNeighborStats;
  /** B×9 virial W = Σ d⊗F of the last compute that asked for stress. */
  virial(): Float64Array;
  /** Negative until set. */
  readonly skin: number;
  readonly cutoff: number;
  readonly name: string;
}

/**
 * new PairPotential(model, rows of [z1, z2, θ..., cutoff], shift, switchOn (0: off), skin?): every pair
 * potential of native/cpp/math/PairEvaluators.h, `model` one of its names and θ in its ParamGrad's order
 * (lib/models/pair-models.ts declares them). Throws UNKNOWN_MODEL for another name.
 *
 * @example
 * const lj = new binding.PairPotential('LennardJones', Float64Array.of(0, 0, 1, 1, 2.5), false, 0);
 */
export type NativePairPotentialConstructor = new (
  model: string,
  pairs: Float64Array,
  shift: boolean,
  switchOn: number,
  skin?: number,
) => NativePotential;

/**
 * The pair evaluators compiled into the addon, by name, with the θ values each takes per species pair.
 *
 * @example
 * binding.pairEvaluators; // { LennardJones: 2, Morse: 3 }
 */
export type NativePairEvaluators = Readonly<Record<string, number>>;

/** new EAM(format, atomic numbers, [nrho, drho, nr, dr, cutoff], frho, rhor, z2r, skin?), tables as the file lists them. */
export type NativeEamConstructor = new (
  format: 'funcfl' | 'setfl' | 'fs',
  elements: Float64Array,
  grid: Float64Array,
  frho: Float64Array,
  rhor: Float64Array,
  z2r: Float64Array,
  skin?: number,
) => NativePotential;

/**
 * new ManyBody(name, LAMMPS style, atomic numbers, entries, skin?): nt³ entries in the file's column order,
 * (a, b, c) at (a·nt + b)·nt + c (lib/models/many-body-file.ts).
 */
export type NativeManyBodyConstructor = new (
  name: 'Tersoff' | 'StillingerWeber',
  style: 'tersoff' | 'tersoff/mod' | 'tersoff/zbl' | 'sw',
  elements: Float64Array,
  entries: Float64Array,
  skin?: number,
) => NativePotential;

/**
 * new Snap(name, atomic numbers, settings, radius, weight, coefficients, zbl, network, skin?, descriptor?)
 * (native/cpp/binding/SnapWrap.h): settings [twojmax, rcutfac, rfac0, rmin0, switchflag, bzeroflag,
 * quadraticflag, chemflag, bnormflag, wselfallflag], or with descriptor 'so3' [rcutfac, nmax, lmax, alpha,
 * quadraticflag]; per element its radius, weight and coefficients in the
 * file's order; zbl empty, or [inner, outer, then zi zj for each element pair a·nt + b]; network empty, or
 * [layers, then each layer's activation (0 linear, 1 sigmoid, 2 tanh, 3 relu) and node count].
 */
export type NativeSnapConstructor = new (
  name: 'SNAP' | 'MLIAP',
  elements: Float64Array,
  settings: Float64Array,
  radius: Float64Array,
  weight: Float64Array,
  coefficients: Float64Array,
  zbl: Float64Array,
  network: Float64Array,
  skin?: number,
  descriptor?: 'sna' | 'so3',
) => NativePotential;

/**
 * The directed edge list of graph models (native/cpp/models/EdgeList.h): every ordered pair within the
 * cutoff, both directions, periodic images included, from neighbor lists rebuilt only when stale.
 *
 * @example
 * const edges = new binding.EdgeList(5.0, 2.0);
 * const count = edges.build(nativeBatch, index, shift); // writes when index holds 2·count and shift 3·count
 */
export interface NativeEdgeList {
  /**
   * Counts the edges of the batch's current positions and returns that count E; when `index` holds at least
   * 2E values and `shift` 3E, also writes sources to index[0, E), targets to index[E, 2E) and the Cartesian
   * image shifts (r_ij = x_j − x_i + shift) to shift[0, 3E).
   */
  build(batch: NativeBatch, index: BigInt64Array, shift: Float64Array | Float32Array): number;
  neighborStats(): NativeNeighborStats;
}

/** new EdgeList(cutoff, skin), both in length units. */
export type NativeEdgeListConstructor = new (cutoff: number, skin: number) => NativeEdgeList;
