// The graph-model inputs (lib/models/graph-inputs.ts): the directed edge list from the native EdgeList
// against a brute-force enumeration of periodic images, its rebuilds, and the other convention arrays.
import { describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { GraphInputs, GRAPH_INPUTS } from '../../lib/models/graph-inputs.js';
import { fcc, forEachPair, randomCluster, rattled, rng } from './reference.js';

const argon = (positions: number[][], extra: Partial<System> = {}): System => ({ symbols: positions.map(() => 'Ar'), positions, ...extra });

const geometries: { name: string; system: System }[] = [
  { name: 'a cluster', system: argon(randomCluster(30, 4, 0.9, 1)) },
  { name: 'a narrow triclinic cell (several images of one atom)', system: argon(randomCluster(5, 1.6, 0.8, 3), { cell: [[1.7, 0, 0], [0.9, 1.6, 0], [-0.6, 0.5, 1.8]], pbc: true }) },
  { name: 'a binned triclinic cell', system: argon(rattled(fcc(1.68, 4).positions, 0.1, 4), { cell: [[6.72, 0, 0], [1.6, 6.72, 0], [-1.1, 1.3, 6.72]], pbc: true }) },
  { name: 'a slab', system: argon(rattled(fcc(1.68, 3).positions, 0.1, 5), { cell: [[5.04, 0, 0], [0, 5.04, 0], [0, 0, 0.5]], pbc: [true, true, false] }) },
  { name: 'a wire with atoms far outside its cell', system: argon(randomCluster(40, 4, 0.9, 6).map((p) => [p[0] + 37.3, p[1] - 12, p[2]]), { cell: [[2.5, 0, 0], [0, 1, 0], [0, 0, 1]], pbc: [true, false, false] }) },
];

type Edge = string;

/** Every ordered pair (i ≠ j or an image of i) closer than rc, keyed `i j n₀ n₁ n₂` with n the lattice image of j. */
function bruteEdges(system: System, rc: number, offset: number): Edge[] {
  const edges: Edge[] = [];
  forEachPair(system, rc, (i, j, _, n) => {
    edges.push(`${i + offset} ${j + offset} ${n.map((v) => v + 0).join(' ')}`, `${j + offset} ${i + offset} ${n.map((v) => 0 - v).join(' ')}`);
  });
  return edges;
}

/** The native edges as keys: each shift is resolved into its lattice image n (shift = n·cell, exactly integral). */
function nativeEdges(index: BigInt64Array, shift: Float64Array | Float32Array, systems: System[], ptr: Int32Array): Edge[] {
  const e = index.length / 2;
  const keys: Edge[] = [];
  let offGrid = 0;
  for (let k = 0; k < e; k++) {
    const i = Number(index[k]);
    const j = Number(index[e + k]);
    let s = 0;
    while (ptr[s + 1] <= i) s++;
    const cell = (systems[s].cell as number[][] | undefined) ?? [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    const n = solve(cell, [shift[3 * k], shift[3 * k + 1], shift[3 * k + 2]]);
    for (const value of n) offGrid = Math.max(offGrid, Math.abs(value - Math.round(value)));
    keys.push(`${i} ${j} ${n.map((v) => Math.round(v) + 0).join(' ')}`);
  }
  expect(offGrid).toBeLessThan(1e-9);
  return keys;
}

/** n with n·cell = v (cell rows are lattice vectors); zero rows stand for directions without images. */
function solve(cell: number[][], v: number[]): number[] {
  const rows = cell.map((row, k) => (row.every((c) => c === 0) ? [0, 1, 2].map((c) => (c === k ? 1 : 0)) : row));
  const [a, b, c] = rows;
  const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  // Cramer's rule on nᵀ·M = v, i.e. Mᵀ n = v.
  const m = [[a[0], b[0], c[0]], [a[1], b[1], c[1]], [a[2], b[2], c[2]]];
  return [0, 1, 2].map((col) => {
    const replaced = m.map((row, r) => row.map((value, k) => (k === col ? v[r] : value)));
    const [p, q, t] = replaced;
    return (p[0] * (q[1] * t[2] - q[2] * t[1]) - p[1] * (q[0] * t[2] - q[2] * t[0]) + p[2] * (q[0] * t[1] - q[1] * t[0])) / det;
  });
}

function edgesOf(inputs: GraphInputs, batch: Batch): { index: BigInt64Array; shift: Float64Array | Float32Array } {
  const built = inputs.build(batch);
  return { index: built.get('edge_index')?.data as BigInt64Array, shift: built.get('edge_shift')?.data as Float64Array };
}

describe('graph inputs: the directed edge list', () => {
  it.each(geometries)('holds every ordered pair within the cutoff, both directions and every image, in $name', ({ system }) => {
    const batch = Batch.fromSystems([system], { units: 'lj' });
    const inputs = new GraphInputs(2.5, 0.3, 'float64', ['edge_index', 'edge_shift']);
    const { index, shift } = edgesOf(inputs, batch);
    expect(nativeEdges(index, shift, [system], batch.ptr).sort()).toEqual(bruteEdges(system, 2.5, 0).sort());
  });

  it('gives r_ij = x_j − x_i + shift from the positions as they are, and comes grouped by source atom', () => {
    const systems = geometries.map((g) => g.system);
    const batch = Batch.fromSystems(systems, { units: 'lj' });
    const inputs = new GraphInputs(2.5, 0.3, 'float64', ['edge_index', 'edge_shift']);
    const { index, shift } = edgesOf(inputs, batch);
    const x = batch.read('positions');
    const e = index.length / 2;
    expect(e).toBeGreaterThan(1000);
    let previous = -1;
    for (let k = 0; k < e; k++) {
      const i = Number(index[k]);
      const j = Number(index[e + k]);
      expect(i).toBeGreaterThanOrEqual(previous);
      previous = i;
      const r = Math.hypot(...[0, 1, 2].map((c) => x[3 * j + c] - x[3 * i + c] + shift[3 * k + c]));
      expect(r).toBeLessThan(2.5);
    }
    const offsets = Array.from(batch.ptr);
    const expected = systems.flatMap((system, s) => bruteEdges(system, 2.5, offsets[s]));
    expect(nativeEdges(index, shift, systems, batch.ptr).sort()).toEqual(expected.sort());
  });

  it('reuses its neighbor lists until an atom moved more than skin/2, and follows the positions in between', () => {
    const system = geometries[2].system;
    const batch = Batch.fromSystems([system], { units: 'lj' });
    const inputs = new GraphInputs(2.5, 0.4, 'float64', ['edge_index', 'edge_shift']);
    edgesOf(inputs, batch);
    expect(inputs.neighborStats().builds).toBe(1);
    const random = rng(3);
    const moved = batch.positions;
    for (let k = 0; k < moved.length; k++) moved[k] += 0.09 * (random() - 0.5);
    const small = edgesOf(inputs, batch);
    expect(inputs.neighborStats().builds).toBe(1);
    const now = { ...system, positions: Array.from({ length: moved.length / 3 }, (_, i) => Array.from(moved.subarray(3 * i, 3 * i + 3))) };
    expect(nativeEdges(small.index, small.shift, [now], batch.ptr).sort()).toEqual(bruteEdges(now, 2.5, 0).sort());
    batch.positions[0] += 0.25;
    edgesOf(inputs, batch);
    expect(inputs.neighborStats().builds).toBe(2);
  });

  it('writes float32 shifts for a float32 model', () => {
    const system = geometries[1].system;
    const batch = Batch.fromSystems([system], { units: 'lj' });
    const inputs = new GraphInputs(2.5, 0.3, 'float32', GRAPH_INPUTS);
    const built = inputs.build(batch);
    expect(built.get('edge_shift')?.data).toBeInstanceOf(Float32Array);
    expect(built.get('positions')?.data).toBeInstanceOf(Float32Array);
    const { index, shift } = { index: built.get('edge_index')?.data as BigInt64Array, shift: built.get('edge_shift')?.data as Float32Array };
    expect(index.length / 2).toBe(bruteEdges(system, 2.5, 0).length);
    expect(shift.length).toBe((3 * index.length) / 2);
  });
});

describe('graph inputs: the other arrays', () => {
  it('hold the batch’s atomic numbers, cells, pbc and system indices in the convention’s types and shapes', () => {
    const systems: System[] = [
      { symbols: ['Cu', 'Ni'], positions: [[0, 0, 0], [1.2, 1.2, 0]], cell: [[3.6, 0, 0], [0, 3.6, 0], [0, 0, 3.6]], pbc: true },
      { symbols: ['O', 'H', 'H'], positions: [[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]] },
    ];
    const batch = Batch.fromSystems(systems);
    const built = new GraphInputs(5, 2, 'float64', GRAPH_INPUTS).build(batch);
    expect(built.get('atomic_numbers')).toEqual({ type: 'int64', data: BigInt64Array.of(29n, 28n, 8n, 1n, 1n), dims: [5] });
    expect(built.get('system_index')).toEqual({ type: 'int64', data: BigInt64Array.of(0n, 0n, 1n, 1n, 1n), dims: [5] });
    expect(built.get('pbc')).toEqual({ type: 'bool', data: Uint8Array.of(1, 1, 1, 0, 0, 0), dims: [2, 3] });
    expect(built.get('cell')?.dims).toEqual([2, 3, 3]);
    expect(Array.from(built.get('cell')?.data as Float64Array).slice(0, 9)).toEqual([3.6, 0, 0, 0, 3.6, 0, 0, 0, 3.6]);
    expect(built.get('positions')?.dims).toEqual([5, 3]);
  });
});
