// A vacancy hop in fcc argon (2×2×2 conventional cells, 31 atoms) for NEB tests: the crystal without its
// atom at the origin, and the state after a neighbour of the empty site hops into it.
import { bulk, repeat, type System } from '../../lib/data/index.js';

const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 2);

/** The crystal with the site at the origin empty. */
export const vacancy: System = {
  atomicNumbers: (crystal.atomicNumbers as number[]).slice(1), positions: (crystal.positions as number[][]).slice(1), cell: crystal.cell, pbc: true,
};

/** The state after atom `atom` of `vacancy` (0 and 1 are nearest neighbours of the empty site) hops into it. */
export const hop = (atom: number): System => ({ ...vacancy, positions: (vacancy.positions as number[][]).map((r, i) => (i === atom ? [0, 0, 0] : r)) });
