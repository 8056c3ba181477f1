// Compacted copies of a batch's systems, and their conversion to plain System objects.
import { determinant3 } from './validate.js';
import type { NativeFieldName } from '../native/index.js';
import type { ResolvedSystem } from './system.js';

/** The arrays of some systems of a batch, copied out and compacted, in the batch's field layout. */
export interface PackedSystems {
  numAtoms: number;
  numSystems: number;
  arrays: {
    positions: Float64Array; velocities: Float64Array; forces: Float64Array; masses: Float64Array;
    atomicNumbers: Int32Array; energy: Float64Array; stress: Float64Array; cell: Float64Array;
    pbc: Uint8Array; status: Int32Array; systemId: Int32Array; numAtoms: Int32Array;
  } & Partial<Record<NativeFieldName, unknown>>;
  /** Per result and system: 1 when the result belongs to the system's positions (Batch.resultValid). */
  valid: { energy: Uint8Array; forces: Uint8Array; stress: Uint8Array };
  info: Record<string, unknown>[];
  extra: Map<string, Float64Array>;
}

// Plain loops: this runs for every atom of every system that leaves a stream.
function rows(values: ArrayLike<number>, start: number, count: number, width: number): number[][] {
  const out: number[][] = new Array(count);
  for (let i = 0; i < count; i++) {
    const row: number[] = new Array(width);
    for (let c = 0; c < width; c++) row[c] = values[(start + i) * width + c];
    out[i] = row;
  }
  return out;
}

/** Whether the cell at `offset` spans a volume, by the native potentials' rule (|det| > 1e-12 · max|H|³). */
function hasVolume(cell: Float64Array, offset: number): boolean {
  let scale = 0;
  for (let k = 0; k < 9; k++) scale = Math.max(scale, Math.abs(cell[offset + k]));
  return scale > 0 && Math.abs(determinant3(cell, offset)) > 1e-12 * scale ** 3;
}

/** Plain Systems from packed arrays: vectors as rows, `info.systemId` set, extra fields added, valid results only. */
export function assembleSystems(
  packed: PackedSystems,
  info: ReadonlyArray<Record<string, unknown>>,
  symbolOf: (z: number) => string,
  extraLayout: Map<string, { per: 'atom' | 'system'; components: number }>,
): ResolvedSystem[] {
  const { arrays } = packed;
  const out: ResolvedSystem[] = [];
  let atom = 0;
  for (let s = 0; s < packed.numSystems; s++) {
    const n = arrays.numAtoms[s];
    const atomicNumbers = Array.from(arrays.atomicNumbers.subarray(atom, atom + n));
    const system: ResolvedSystem = {
      positions: rows(arrays.positions, atom, n, 3),
      symbols: atomicNumbers.map(symbolOf),
      atomicNumbers,
      masses: Array.from(arrays.masses.subarray(atom, atom + n)),
      velocities: rows(arrays.velocities, atom, n, 3),
      cell: rows(arrays.cell, 3 * s, 3, 3),
      pbc: [arrays.pbc[3 * s] !== 0, arrays.pbc[3 * s + 1] !== 0, arrays.pbc[3 * s + 2] !== 0],
      info: { ...info[s], systemId: arrays.systemId[s] },
    };
    if (packed.valid.energy[s] === 1) system.energy = arrays.energy[s];
    if (packed.valid.forces[s] === 1) system.forces = rows(arrays.forces, atom, n, 3);
    // A cell without volume (a cluster) has no stress, as ASE's calculators report it: none, not zeros.
    if (packed.valid.stress[s] === 1 && hasVolume(arrays.cell, 9 * s)) system.stress = rows(arrays.stress, 3 * s, 3, 3);
    for (const [name, layout] of extraLayout) {
      const data = packed.extra.get(name);
      if (data === undefined) continue;
      const [lo, count] = layout.per === 'atom' ? [atom, n] : [s, 1];
      const values = Array.from(data.subarray(lo * layout.components, (lo + count) * layout.components));
      system.info[name] = layout.per === 'system' && layout.components === 1 ? values[0] : values;
    }
    out.push(system);
    atom += n;
  }
  return out;
}
