// Issue 39, item 37: EquationOfState fits Birch–Murnaghan as ASE 3.22's EquationOfState(eos='birchmurnaghan')
// does: the same V₀, E₀, B₀ and B₀′ from the same points (ASE's EMT copper, and argon that hookmd computes).
import { describe, expect, it } from 'vitest';

import { Batch, bulk } from '../../lib/data/index.js';
import { LennardJones } from '../../lib/models/index.js';
import { EquationOfState } from '../../lib/workflows/index.js';
import { aseSkipReason, runAse } from '../helpers/ase.js';

interface AseFit { volumes: number[]; energies: number[]; v0: number; e0: number; B: number; BP: number }

const ASE_FIT = `
import json, sys, warnings
import numpy as np
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.eos import EquationOfState
given = json.load(sys.stdin)
if given is None:
    volumes, energies = [], []
    for a in np.linspace(3.45, 3.75, 9):
        atoms = bulk('Cu', 'fcc', a=a)
        atoms.calc = EMT()
        volumes.append(atoms.get_volume())
        energies.append(atoms.get_potential_energy())
else:
    volumes, energies = given['volumes'], given['energies']
eos = EquationOfState(volumes, energies, eos='birchmurnaghan')
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    v0, e0, B = eos.fit()
print(json.dumps({'volumes': list(map(float, volumes)), 'energies': list(map(float, energies)), 'v0': v0, 'e0': e0, 'B': B, 'BP': float(eos.eos_parameters[2])}))
`;

const close = (a: number, b: number, tolerance: number): void => expect(Math.abs(a - b)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(b)));

describe.skipIf(aseSkipReason !== '')(`EquationOfState against ASE ${aseSkipReason}`, () => {
  it("EMT copper's E(V): V₀, E₀, B₀ and B₀′ equal ASE's fit to 1e-8", () => {
    const ase = runAse<AseFit>(ASE_FIT);
    const fit = new EquationOfState(ase.volumes, ase.energies, 'birchmurnaghan').fit();
    close(fit.v0, ase.v0, 1e-8);
    close(fit.e0, ase.e0, 1e-8);
    close(fit.B, ase.B, 1e-8);
    close(fit.BPrime, ase.BP, 1e-6);
    expect(fit.bracketed).toBe(true);
    // About 134 GPa: EMT copper's bulk modulus.
    expect(fit.B * 160.21766208).toBeGreaterThan(120);
  });

  it("argon's E(V) from hookmd's Lennard-Jones, fitted by both", () => {
    const volumes: number[] = [];
    const energies: number[] = [];
    for (let k = 0; k < 11; k++) {
      const a = 5.0 + 0.05 * k;
      const batch = Batch.fromSystems([bulk('Ar', 'fcc', { a, cubic: true })]);
      new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5, shift: true }).compute(batch);
      volumes.push(a ** 3);
      energies.push(batch.read('energy')[0]);
    }
    const ase = runAse<AseFit>(ASE_FIT, { volumes, energies });
    const fit = new EquationOfState(volumes, energies).fit();
    close(fit.v0, ase.v0, 1e-8);
    close(fit.e0, ase.e0, 1e-8);
    close(fit.B, ase.B, 1e-7);
    close(fit.BPrime, ase.BP, 1e-5);
  });
});

describe('EquationOfState refuses what it cannot fit', () => {
  it('other forms, too few points, and data without a minimum, by name', () => {
    const v = [10, 11, 12, 13, 14];
    expect(() => new EquationOfState(v, [1, 2, 3, 4, 5], 'sj' as never)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_EOS', message: expect.stringMatching(/it fits 'birchmurnaghan'/) }));
    expect(() => new EquationOfState([1, 2, 3], [1, 0, 1])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new EquationOfState(v, [1, 2])).toThrow(expect.objectContaining({ code: 'LENGTH_MISMATCH' }));
    expect(() => new EquationOfState(v, [0, 1, 1.5, 1, 0]).fit()).toThrow(expect.objectContaining({ code: 'EOS_NO_MINIMUM' }));
  });
});
