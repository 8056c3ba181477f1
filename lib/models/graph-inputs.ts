// The inputs of hookmd's graph-model convention (docs/models.md, "Use your ML potential"), built from a
// batch: positions, atomic numbers, cells, pbc, system indices and the directed edge list with its image
// shifts. The edges come from the native EdgeList (neighbor lists rebuilt only when stale); the integer
// arrays are kept between calls and rebuilt only when the batch's species or layout change; floats are
// handed over as the batch holds them (float64) or converted once per call (float32).
import { nativeBatchOf, type Batch } from '../data/index.js';
import { loadBinding } from '../native/index.js';
import type { NativeEdgeList, NativeNeighborStats } from '../native/models-binding.js';

/** The float type of a model's floating-point inputs. */
export type GraphFloat = 'float64' | 'float32';

/** The convention's inputs, in the order the docs list them. */
export const GRAPH_INPUTS = ['positions', 'atomic_numbers', 'cell', 'pbc', 'system_index', 'edge_index', 'edge_shift'] as const;
/** One of the convention's input names. */
export type GraphInputName = (typeof GRAPH_INPUTS)[number];

/** One input: its element type as onnxruntime names it, its data and its shape. */
export interface GraphInput {
  type: 'float32' | 'float64' | 'int64' | 'bool';
  data: Float64Array | Float32Array | BigInt64Array | Uint8Array;
  dims: number[];
}

type FloatArray = Float64Array | Float32Array;

/** The int64 copy of an Int32Array, rebuilt only when the source's values change. */
class Int64Cache {
  #source = new Int32Array(0);
  #value = new BigInt64Array(0);

  of(source: Int32Array): BigInt64Array {
    const same = source.length === this.#source.length && source.every((v, i) => v === this.#source[i]);
    if (!same) {
      this.#source = source.slice();
      this.#value = BigInt64Array.from(source, (v) => BigInt(v));
    }
    return this.#value;
  }
}

/** Builds the inputs for one model; keeps the edge buffers and int64 copies between calls. */
export class GraphInputs {
  readonly cutoff: number;
  readonly float: GraphFloat;
  readonly #wanted: ReadonlySet<GraphInputName>;
  readonly #skin: number | undefined;
  #edges: NativeEdgeList | undefined;
  #edgeSkin = NaN;
  #index = new BigInt64Array(0);
  #shift: FloatArray = new Float64Array(0);
  readonly #atomicNumbers = new Int64Cache();
  readonly #systemIndex = new Int64Cache();
  #edgeCount = 0;

  /** `wanted`: the inputs the model reads (edges are built only when it reads them). */
  constructor(cutoff: number, skin: number | undefined, float: GraphFloat, wanted: Iterable<GraphInputName>) {
    this.cutoff = cutoff;
    this.float = float;
    this.#skin = skin;
    this.#wanted = new Set(wanted);
  }

  /** Edges of the last build (0 before any). */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** Counters of the neighbor lists behind the edges (all zero before the first build). */
  neighborStats(): NativeNeighborStats {
    return this.#edges?.neighborStats() ?? { builds: 0, resets: 0, pairs: 0, systems: 0, bytes: 0 };
  }

  /** The wanted inputs for the batch's current state. */
  build(batch: Batch): Map<GraphInputName, GraphInput> {
    const inputs = new Map<GraphInputName, GraphInput>();
    const n = batch.numAtoms;
    const b = batch.numSystems;
    const want = (name: GraphInputName): boolean => this.#wanted.has(name);
    if (want('positions')) inputs.set('positions', { type: this.float, data: this.#float(batch.read('positions')), dims: [n, 3] });
    if (want('atomic_numbers')) inputs.set('atomic_numbers', { type: 'int64', data: this.#atomicNumbers.of(batch.read('atomicNumbers')), dims: [n] });
    if (want('cell')) inputs.set('cell', { type: this.float, data: this.#float(batch.read('cell')), dims: [b, 3, 3] });
    if (want('pbc')) inputs.set('pbc', { type: 'bool', data: batch.read('pbc'), dims: [b, 3] });
    if (want('system_index')) inputs.set('system_index', { type: 'int64', data: this.#systemIndex.of(batch.read('systemIndex')), dims: [n] });
    if (want('edge_index') || want('edge_shift')) {
      const e = this.#buildEdges(batch);
      if (want('edge_index')) inputs.set('edge_index', { type: 'int64', data: this.#index.subarray(0, 2 * e), dims: [2, e] });
      if (want('edge_shift')) inputs.set('edge_shift', { type: this.float, data: this.#shift.subarray(0, 3 * e), dims: [e, 3] });
    }
    return inputs;
  }

  #float(values: Float64Array): FloatArray {
    return this.float === 'float64' ? values : Float32Array.from(values);
  }

  /** Fills the edge buffers (growing them when the count outgrew them); returns the edge count. */
  #buildEdges(batch: Batch): number {
    const skin = this.#skin ?? batch.units.defaultSkin;
    if (this.#edges === undefined || skin !== this.#edgeSkin) {
      this.#edges = new (loadBinding().EdgeList)(this.cutoff, skin);
      this.#edgeSkin = skin;
    }
    const native = nativeBatchOf(batch);
    batch.commitHostViews();
    let count = this.#edges.build(native, this.#index, this.#shift);
    if (2 * count > this.#index.length) {
      // A quarter of headroom, so that the count drifting up by a few edges does not reallocate every call.
      const capacity = Math.ceil(count * 1.25) + 16;
      this.#index = new BigInt64Array(2 * capacity);
      this.#shift = this.float === 'float64' ? new Float64Array(3 * capacity) : new Float32Array(3 * capacity);
      count = this.#edges.build(native, this.#index, this.#shift);
    }
    this.#edgeCount = count;
    return count;
  }
}
