// ASE 3.22's ase.phonons.Phonons as the phonon tests' reference: a script that builds `atoms` and a
// calculator, runs the finite displacements (δ = 0.01 Å) on a supercell, restores the acoustic sum rule and
// prints the band structure (eV) at the q points of its input, with the structure it used.
import { runAse } from './ase.js';

/** eV per THz: h. */
export const EV_PER_THZ = 4.135667696e-3;

export interface AsePhonons {
  cell: number[][];
  positions: number[][];
  /** ħω (eV) at each q, ASE's band_structure. */
  eV: number[][];
}

/**
 * Runs Phonons on the structure `setup` (Python lines defining `atoms` and `calc`) with `supercell`, at `q`.
 * `setup` may use `spec`, the JSON input, whose `q` is the q points.
 */
export function asePhonons(setup: string, supercell: string, input: { q: [number, number, number][]; [key: string]: unknown }): AsePhonons {
  const script = `
import json, os, sys, tempfile
from ase.phonons import Phonons
spec = json.load(sys.stdin)
${setup}
os.chdir(tempfile.mkdtemp())
ph = Phonons(atoms, calc, supercell=${supercell}, delta=0.01)
ph.run()
ph.read(acoustic=True)
print(json.dumps({'cell': atoms.cell.tolist(), 'positions': atoms.positions.tolist(), 'eV': ph.band_structure(spec['q'], verbose=False).tolist()}))
`;
  return runAse<AsePhonons>(script, input);
}
