// EAM against LAMMPS (`pair_style eam`, `eam/alloy`, `eam/fs`, Debian's `lmp` run here): energy, forces
// and stress of a rattled fcc supercell and of a triclinic random alloy, within 1e-9 relative. The test
// writes the LAMMPS data file itself, so hookmd's own writers are not part of the reference.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { Batch, bulk, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { EAM } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason } from '../helpers/lammps.js';
import { lammpsRun0, triclinicAlloy } from '../helpers/lammps-compare.js';

interface Case {
  name: string;
  file: string;
  style: string;
  elements: string[];
  system: () => System;
}

function rattledFcc(symbol: string, a: number, seed: number): System {
  const crystal = rattle(repeat(bulk(symbol, 'fcc', { a, cubic: true }), [3, 3, 3]), 0.05, seed);
  const cell = crystal.cell as number[][];
  // Wrapped into the cell, as LAMMPS's data file needs them.
  const positions = (crystal.positions as number[][]).map((p) => p.map((x, c) => x - Math.floor(x / (cell[c] as number[])[c]) * (cell[c] as number[])[c]));
  return { symbols: positions.map(() => symbol), positions, cell, pbc: true };
}

function pairCoeff(c: Case, file: string): string {
  return c.style === 'eam' ? `1 1 ${file}` : `* * ${file} ${c.elements.join(' ')}`;
}

const CASES: Case[] = [
  { name: 'funcfl Cu_u3.eam, rattled fcc Cu', file: 'Cu_u3.eam', style: 'eam', elements: ['Cu'], system: () => rattledFcc('Cu', 3.615, 7) },
  { name: 'funcfl Cu_u3.eam, triclinic Cu', file: 'Cu_u3.eam', style: 'eam', elements: ['Cu'], system: () => triclinicAlloy(['Cu'], 3) },
  { name: 'setfl Al_zhou.eam.alloy, rattled fcc Al', file: 'Al_zhou.eam.alloy', style: 'eam/alloy', elements: ['Al'], system: () => rattledFcc('Al', 4.05, 11) },
  { name: 'setfl AlCu.eam.alloy, rattled fcc Cu', file: 'AlCu.eam.alloy', style: 'eam/alloy', elements: ['Al', 'Cu'], system: () => rattledFcc('Cu', 3.615, 5) },
  { name: 'setfl AlCu.eam.alloy, triclinic random Al-Cu', file: 'AlCu.eam.alloy', style: 'eam/alloy', elements: ['Al', 'Cu'], system: () => triclinicAlloy(['Al', 'Cu'], 1) },
  { name: 'fs AlFe_mm.eam.fs, triclinic random Al-Fe', file: 'AlFe_mm.eam.fs', style: 'eam/fs', elements: ['Al', 'Fe'], system: () => triclinicAlloy(['Al', 'Fe'], 2) },
  { name: 'fs AlFe_mm.eam.fs, rattled fcc Al', file: 'AlFe_mm.eam.fs', style: 'eam/fs', elements: ['Al', 'Fe'], system: () => rattledFcc('Al', 4.05, 13) },
];

const skip = lammpsSkipReason !== '' || !existsSync(LAMMPS_POTENTIALS);

describe.skipIf(skip)(`EAM vs LAMMPS ${skip ? '(skipped: no lmp or no /usr/share/lammps/potentials; apt-get install lammps)' : ''}`, () => {
  it.each(CASES)('$name: energy, forces and stress within 1e-9 relative', (c) => {
    const system = c.system();
    const path = join(LAMMPS_POTENTIALS, c.file);
    const reference = lammpsRun0(system, c.elements, c.style, pairCoeff(c, path));

    const batch = Batch.fromSystems([system]);
    const model = new EAM({ file: path });
    model.compute(batch, { stress: true });

    expect(Math.abs(batch.energy[0] - reference.energy)).toBeLessThan(1e-9 * Math.abs(reference.energy));
    const fmax = Math.max(...reference.forces.map(Math.abs));
    expect(reference.forces.length).toBe(3 * batch.numAtoms);
    let worst = 0;
    for (let k = 0; k < reference.forces.length; k++) worst = Math.max(worst, Math.abs(batch.forces[k] - reference.forces[k]));
    expect(worst).toBeLessThan(1e-9 * fmax);
    const scale = Math.max(...reference.stress.map(Math.abs));
    for (let k = 0; k < 9; k++) expect(Math.abs(batch.stress[k] - reference.stress[k])).toBeLessThan(1e-9 * scale);
  });
});
