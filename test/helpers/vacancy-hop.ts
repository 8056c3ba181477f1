// The vacancy hop in fcc argon (2×2×2 conventional cells, 31 atoms) the NEB tests share: the crystal without
// its atom at the origin, and the state after a neighbour of the empty site hops into it, both as hookmd
// systems and as Python lines for the ASE scripts.
import { bulk, repeat, type System } from '../../lib/data/index.js';

const crystal = repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), 2);

/** The crystal with the site at the origin empty. */
export const vacancy: System = {
  atomicNumbers: (crystal.atomicNumbers as number[]).slice(1), positions: (crystal.positions as number[][]).slice(1), cell: crystal.cell, pbc: true,
};

/** The state after atom `atom` of `vacancy` (0 and 1 are nearest neighbours of the empty site) hops into it. */
export const hop = (atom: number): System => ({ ...vacancy, positions: (vacancy.positions as number[][]).map((r, i) => (i === atom ? [0, 0, 0] : r)) });

/**
 * Python defining `crystal`, `initial`, `final` and `j` for lattice constant `a` (Å), imports included:
 * `initial` is the crystal without atom 0, `final` the same with the atom nearest the vacancy (`j`) moved
 * into it, the short way, with no periodic wrap.
 */
export function vacancyHopPython(a: string): string {
  return `
import numpy as np
from ase.build import bulk
crystal = bulk('Ar', 'fcc', a=${a}, cubic=True).repeat((2, 2, 2))
initial = crystal.copy()
del initial[0]
final = initial.copy()
pos = final.get_positions()
j = int(np.argmin(np.linalg.norm(pos - crystal.positions[0], axis=1)))
pos[j] = crystal.positions[0]
final.set_positions(pos)
`;
}
