// phonons against ASE's ase.phonons.Phonons (Debian's ASE 3.22, run here) with the same potential on the same
// structures: argon with ASE's LennardJones calculator (energies shifted at the cutoff, as hookmd's
// `shift: true`), fcc (one atom) and hcp (two atoms), frequencies to 1e-4 THz at general q points; and the
// input checks.
import { describe, expect, it } from 'vitest';

import { LennardJones } from '../../lib/models/index.js';
import { phonons } from '../../lib/workflows/index.js';
import { aseSkipReason } from '../helpers/ase.js';
import { asePhonons, EV_PER_THZ } from '../helpers/ase-phonons.js';

/** Argon of spec's structure and lattice constant, and ASE's LennardJones, for ASE's Phonons. */
const SETUP = `
from ase.build import bulk
from ase.calculators.lj import LennardJones
atoms = bulk('Ar', spec['structure'], a=spec['a'])
calc = LennardJones(epsilon=0.0104, sigma=3.4, rc=10.2)
`;

const Q: [number, number, number][] = [
  [0, 0, 0],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0.5],
  [0.1, 0.2, 0.3],
  [0.25, -0.15, 0.05],
];
const model = new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 10.2, shift: true });

describe.skipIf(aseSkipReason !== '')(`phonons vs ASE's Phonons ${aseSkipReason}`, () => {
  it.each([
    ['fcc', 5.26, [7, 7, 7]],
    ['hcp', 3.72, [7, 7, 4]],
  ] as const)('%s argon, Lennard-Jones: every frequency within 1e-4 THz', async (structure, a, supercell) => {
    const reference = asePhonons(SETUP, `(${supercell.join(', ')})`, { structure, a, q: Q });
    const result = await phonons(model, { symbols: reference.positions.map(() => 'Ar'), positions: reference.positions, cell: reference.cell, pbc: true }, { supercell: [...supercell] });
    Q.forEach((q, k) => {
      const ours = result.frequencies(q, 'THz');
      const theirs = (reference.eV[k] as number[]).map((e) => e / EV_PER_THZ);
      expect(ours.length).toBe(theirs.length);
      theirs.forEach((f, l) => expect(Math.abs((ours[l] as number) - f), `q ${q} mode ${l}`).toBeLessThan(1e-4));
    });
    // Units agree with each other, and the acoustic modes vanish at Γ.
    const gamma = result.frequencies([0, 0, 0], 'meV');
    for (let l = 0; l < 3; l++) expect(Math.abs(gamma[l] as number)).toBeLessThan(1e-4);
    const dos = result.dos({ kpts: [4, 4, 4], bins: 50 });
    const states = dos.dos.reduce((sum, d) => sum + d, 0) * ((dos.frequencies[1] as number) - (dos.frequencies[0] as number));
    expect(states).toBeCloseTo(3 * reference.positions.length, 9);
  });
});

describe('phonons input checks', () => {
  const argon = { symbols: ['Ar'], positions: [[0, 0, 0]], cell: [[0, 2.63, 2.63], [2.63, 0, 2.63], [2.63, 2.63, 0]], pbc: true };
  it('a supercell smaller than the cutoff demands names the supercell to use, before any force call', async () => {
    await expect(phonons(model, argon, { supercell: 3 })).rejects.toThrow(/less than twice the model's cutoff \(20.4 Å\): use supercell \[7, 7, 7\]/);
  });
  it.each([
    [{ displacement: 0 }, /displacement must be a number > 0/],
    [{ supercell: [2, 2] }, /supercell must be three integers/],
    [{ symmetrize: -1 }, /symmetrize must be an integer/],
    [{ delta: 0.01 }, /UNKNOWN_OPTION|did you mean|displacement/],
    [{ onProgress: 'bar' }, /onProgress must be a function, got "bar"/],
  ])('%o is refused', async (options, message) => {
    await expect(phonons(model, argon, options as never)).rejects.toThrow(message);
  });
  it('a slab or a cluster is INVALID_PBC', async () => {
    await expect(phonons(model, { ...argon, pbc: [true, true, false] }, { supercell: 7 })).rejects.toThrow(expect.objectContaining({ code: 'INVALID_PBC' }));
  });
});
