// The vacancy hop the NEB tests share, as Python lines for their ASE scripts: a 2×2×2 cubic fcc argon crystal
// without its atom 0 (`initial`), and the same with the atom nearest the vacancy moved into it (`final`, that
// atom `j`), taken the short way, with no periodic wrap.

/** Python defining `crystal`, `initial`, `final` and `j` for lattice constant `a` (Å); imports its own. */
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
