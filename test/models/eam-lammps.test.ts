// EAM against LAMMPS (`pair_style eam`, `eam/alloy`, `eam/fs`, Debian's `lmp` run here): energy, forces
// and stress of a rattled fcc supercell and of a triclinic random alloy, within 1e-9 relative. The test
// writes the LAMMPS data file itself, so hookmd's own writers are not part of the reference.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { Batch, bulk, createRng, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { EAM } from '../../lib/models/index.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason, runLammps, thermoRow } from '../helpers/lammps.js';

/** LAMMPS's metal-units conversion of eV/Å³ to bar (force->nktv2p in update.cpp). */
const NKTV2P = 1.6021765e6;

interface Case {
  name: string;
  file: string;
  style: string;
  elements: string[];
  system: () => System;
}

/** A cell in LAMMPS's restricted triclinic form, rows a = (lx,0,0), b = (xy,ly,0), c = (xz,yz,lz). */
function triclinicAlloy(elements: string[], seed: number): System {
  const random = createRng(seed);
  const rng = (): number => random.uniform();
  const cell = [
    [12.1, 0, 0],
    [2.3, 11.4, 0],
    [-1.7, 1.9, 12.6],
  ];
  const positions: number[][] = [];
  const symbols: string[] = [];
  // Jittered grid points at about the alloy's density, so no two atoms come unphysically close.
  const n = 4;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < n; k++) {
        const f = [(i + 0.5 + 0.3 * (rng() - 0.5)) / n, (j + 0.5 + 0.3 * (rng() - 0.5)) / n, (k + 0.5 + 0.3 * (rng() - 0.5)) / n];
        positions.push([0, 1, 2].map((c) => f[0] * cell[0][c] + f[1] * cell[1][c] + f[2] * cell[2][c]));
        symbols.push(elements[Math.floor(rng() * elements.length)] as string);
      }
    }
  }
  return { symbols, positions, cell, pbc: true };
}

function rattledFcc(symbol: string, a: number, seed: number): System {
  const crystal = rattle(repeat(bulk(symbol, 'fcc', { a, cubic: true }), [3, 3, 3]), 0.05, seed);
  const cell = crystal.cell as number[][];
  // Wrapped into the cell, as LAMMPS's data file needs them.
  const positions = (crystal.positions as number[][]).map((p) => p.map((x, c) => x - Math.floor(x / (cell[c] as number[])[c]) * (cell[c] as number[])[c]));
  return { symbols: positions.map(() => symbol), positions, cell, pbc: true };
}

function lammpsData(system: System, elements: string[]): string {
  const cell = system.cell as number[][];
  const positions = system.positions as number[][];
  const symbols = system.symbols as string[];
  const lines = ['hookmd test structure', '', `${positions.length} atoms`, `${elements.length} atom types`, ''];
  lines.push(`0 ${cell[0][0].toPrecision(17)} xlo xhi`, `0 ${cell[1][1].toPrecision(17)} ylo yhi`, `0 ${cell[2][2].toPrecision(17)} zlo zhi`);
  lines.push(`${cell[1][0].toPrecision(17)} ${cell[2][0].toPrecision(17)} ${cell[2][1].toPrecision(17)} xy xz yz`, '', 'Atoms # atomic', '');
  positions.forEach((p, i) => lines.push(`${i + 1} ${elements.indexOf(symbols[i] as string) + 1} ${p.map((x) => x.toPrecision(17)).join(' ')}`));
  return lines.join('\n') + '\n';
}

function lammpsInput(c: Case, file: string): string {
  const coeff = c.style === 'eam' ? `pair_coeff 1 1 ${file}` : `pair_coeff * * ${file} ${c.elements.join(' ')}`;
  return [
    'units metal',
    'atom_style atomic',
    'boundary p p p',
    'box tilt large',
    'read_data data.lmp',
    ...c.elements.map((_, t) => `mass ${t + 1} 1.0`),
    `pair_style ${c.style}`,
    coeff,
    'neighbor 2.0 bin',
    'thermo_style custom step pe pxx pyy pzz pxy pxz pyz',
    'thermo_modify format line "%d %.17g %.17g %.17g %.17g %.17g %.17g %.17g"',
    'run 0',
    'write_dump all custom forces.txt id fx fy fz modify sort id format float %.17g',
  ].join('\n');
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
    const { stdout, outputs } = runLammps(lammpsInput(c, path), { 'data.lmp': lammpsData(system, c.elements) }, ['forces.txt']);
    const [, energy, ...pressure] = thermoRow(stdout, 'Step PotEng Pxx');
    const forceRows = outputs['forces.txt']
      .split('\n')
      .slice(9)
      .filter((line) => line.trim() !== '')
      .map((line) => line.trim().split(/\s+/).map(Number));

    const batch = Batch.fromSystems([system]);
    const model = new EAM({ file: path });
    model.compute(batch, { stress: true });

    expect(Math.abs(batch.energy[0] - (energy as number))).toBeLessThan(1e-9 * Math.abs(energy as number));
    let fmax = 0;
    for (const row of forceRows) fmax = Math.max(fmax, Math.abs(row[1]), Math.abs(row[2]), Math.abs(row[3]));
    expect(forceRows.length).toBe(batch.numAtoms);
    let worst = 0;
    for (const row of forceRows) {
      const i = (row[0] as number) - 1;
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(batch.forces[3 * i + k] - (row[k + 1] as number)));
    }
    expect(worst).toBeLessThan(1e-9 * fmax);
    // LAMMPS's pressure tensor (bar; no kinetic part at zero velocity) is −σ in bar: xx yy zz xy xz yz.
    const index = [0, 4, 8, 1, 2, 5];
    const scale = Math.max(...pressure.map(Math.abs));
    for (let k = 0; k < 6; k++) {
      expect(Math.abs(-batch.stress[index[k] as number] * NKTV2P - (pressure[k] as number))).toBeLessThan(1e-9 * scale);
    }
  });
});
