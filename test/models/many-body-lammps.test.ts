// Tersoff (`tersoff`, `tersoff/mod`, `tersoff/zbl`) and Stillinger–Weber (`sw`) against LAMMPS (Debian's `lmp`,
// run here, MANYBODY package) for every shipped file whose elements form a crystal: rattled and sheared
// crystals and random triclinic cells, energy within 1e-9 relative, forces within 1e-7 eV/Å and stress within
// 1e-7 eV/Å³. The test writes the LAMMPS data file itself, so hookmd's own writers are not part of the reference.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { Batch, rattle, repeat } from '../../lib/data/index.js';
import type { System } from '../../lib/data/index.js';
import { StillingerWeber, Tersoff, type Model } from '../../lib/models/index.js';
import { ENTRY_LENGTH } from '../../lib/models/many-body-file.js';
import { LAMMPS_POTENTIALS, lammpsSkipReason } from '../helpers/lammps.js';
import { lammpsRun0, sheared, triclinicAlloy, zincblende } from '../helpers/lammps-compare.js';

interface Case {
  file: string;
  style: string;
  /** The names in the file, as pair_coeff maps the data file's types, and the element each one is. */
  names: string[];
  symbols: string[];
  structure: string;
  system: () => System;
}

const SHEAR = [
  [1.02, 0.03, -0.02],
  [0, 0.99, 0.04],
  [0, 0, 1.01],
];

/** A rattled, sheared 64-atom zincblende (or diamond) supercell. */
const crystal = (a: string, b: string, lattice: number, seed: number) => (): System =>
  sheared(rattle(repeat(zincblende(a, b, lattice), [2, 2, 2]), 0.08, seed), SHEAR);
/** A random alloy in a triclinic cell at about the density of the crystal with lattice constant `lattice`. */
const alloy = (symbols: string[], lattice: number, seed: number) => (): System => {
  const l = 2 * lattice;
  return triclinicAlloy(symbols, seed, [[l, 0, 0], [0.1 * l, 0.97 * l, 0], [-0.08 * l, 0.06 * l, 1.02 * l]], 4);
};

const TERSOFF: Case[] = [
  { file: 'Si.tersoff', style: 'tersoff', names: ['Si'], symbols: ['Si'], structure: 'diamond Si', system: crystal('Si', 'Si', 5.432, 1) },
  { file: 'Si.tersoff', style: 'tersoff', names: ['Si'], symbols: ['Si'], structure: 'random Si', system: alloy(['Si'], 5.432, 2) },
  { file: 'Si.tersoff.mod', style: 'tersoff/mod', names: ['Si'], symbols: ['Si'], structure: 'diamond Si', system: crystal('Si', 'Si', 5.43, 3) },
  { file: 'Si.tersoff.mod', style: 'tersoff/mod', names: ['Si'], symbols: ['Si'], structure: 'random Si', system: alloy(['Si'], 5.43, 4) },
  { file: 'Ge.tersoff', style: 'tersoff', names: ['Ge'], symbols: ['Ge'], structure: 'diamond Ge', system: crystal('Ge', 'Ge', 5.657, 5) },
  { file: 'SiC.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 6) },
  { file: 'SiC.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'random Si-C', system: alloy(['Si', 'C'], 4.36, 7) },
  { file: 'SiC.tersoff.zbl', style: 'tersoff/zbl', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 8) },
  { file: 'SiC.tersoff.zbl', style: 'tersoff/zbl', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'compressed random Si-C', system: alloy(['Si', 'C'], 3.2, 9) },
  { file: 'SiC_1989.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 10) },
  { file: 'SiC_1990.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 11) },
  { file: 'SiC_1994.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 12) },
  { file: 'SiC_Erhart-Albe.tersoff', style: 'tersoff', names: ['Si', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 13) },
  // SiCGe.tersoff has Si–C and Si–Ge entries, no C–Ge ones (LAMMPS refuses all three together too).
  { file: 'SiCGe.tersoff', style: 'tersoff', names: ['Si(D)', 'Ge'], symbols: ['Si', 'Ge'], structure: 'random Si-Ge', system: alloy(['Si', 'Ge'], 5.5, 14) },
  { file: 'SiCGe.tersoff', style: 'tersoff', names: ['Si(D)', 'C'], symbols: ['Si', 'C'], structure: 'zincblende SiC', system: crystal('Si', 'C', 4.36, 19) },
  { file: 'GaN.tersoff', style: 'tersoff', names: ['Ga', 'N'], symbols: ['Ga', 'N'], structure: 'zincblende GaN', system: crystal('Ga', 'N', 4.5, 15) },
  { file: 'BNC.tersoff', style: 'tersoff', names: ['B', 'N'], symbols: ['B', 'N'], structure: 'zincblende BN', system: crystal('B', 'N', 3.615, 16) },
  { file: 'BNC.tersoff', style: 'tersoff', names: ['B', 'N', 'C'], symbols: ['B', 'N', 'C'], structure: 'random B-N-C', system: alloy(['B', 'N', 'C'], 3.615, 17) },
  { file: 'SiO.tersoff', style: 'tersoff', names: ['Si', 'O'], symbols: ['Si', 'O'], structure: 'random Si-O', system: alloy(['Si', 'O'], 4.6, 18) },
];

const SW: Case[] = [
  { file: 'Si.sw', style: 'sw', names: ['Si'], symbols: ['Si'], structure: 'diamond Si', system: crystal('Si', 'Si', 5.431, 21) },
  { file: 'Si.sw', style: 'sw', names: ['Si'], symbols: ['Si'], structure: 'random Si', system: alloy(['Si'], 5.431, 22) },
  { file: 'GaN.sw', style: 'sw', names: ['Ga', 'N'], symbols: ['Ga', 'N'], structure: 'zincblende GaN', system: crystal('Ga', 'N', 4.5, 23) },
  { file: 'GaN.sw', style: 'sw', names: ['Ga', 'N'], symbols: ['Ga', 'N'], structure: 'random Ga-N', system: alloy(['Ga', 'N'], 4.5, 24) },
  { file: 'CdTe.sw', style: 'sw', names: ['Cd', 'Te'], symbols: ['Cd', 'Te'], structure: 'zincblende CdTe', system: crystal('Cd', 'Te', 6.48, 25) },
  { file: 'CdTeZnSeHgS0.sw', style: 'sw', names: ['Zn', 'Se'], symbols: ['Zn', 'Se'], structure: 'zincblende ZnSe', system: crystal('Zn', 'Se', 5.67, 26) },
  {
    file: 'CdTeZnSeHgS0.sw',
    style: 'sw',
    names: ['Cd', 'Te', 'Zn', 'Se', 'Hg', 'S'],
    symbols: ['Cd', 'Te', 'Zn', 'Se', 'Hg', 'S'],
    structure: 'random six-element alloy',
    system: alloy(['Cd', 'Te', 'Zn', 'Se', 'Hg', 'S'], 6.2, 27),
  },
];

/**
 * Where a file's (i, j, j) and (j, i, i) entries disagree on the repulsion (SiC_1989, SiC_1994: A and D in the
 * fifth digit), or an (i, j, k) and (i, k, j) entry on the three-body term (CdTeZnSeHgS0.sw), LAMMPS's
 * result depends on the atoms' ids and neighbour order; hookmd takes the mean of both (docs/models.md). The
 * comparison runs both codes on a copy made symmetric: the second entry of each pair takes the first's
 * numbers for those columns.
 */
const SYMMETRIZE: Readonly<Record<string, { columns: number[]; twin: (names: string[]) => string[] | undefined }>> = {
  // tersoff: A, λ₁, R, D of (i, j, j) and (j, i, i).
  tersoff: { columns: [10, 11, 12, 13], twin: ([i, j, k]) => (j === k && i !== j ? [j as string, i as string, i as string] : undefined) },
  'tersoff/zbl': { columns: [10, 11, 12, 13], twin: ([i, j, k]) => (j === k && i !== j ? [j as string, i as string, i as string] : undefined) },
  'tersoff/mod': { columns: [7, 8, 9, 10], twin: ([i, j, k]) => (j === k && i !== j ? [j as string, i as string, i as string] : undefined) },
  // sw: ε, λ, cos θ₀ of (i, j, k) and (i, k, j) for j ≠ k.
  sw: { columns: [0, 3, 5], twin: ([i, j, k]) => (j !== k ? [i as string, k as string, j as string] : undefined) },
};

function symmetricCopy(path: string, style: string): string {
  const rule = SYMMETRIZE[style] as (typeof SYMMETRIZE)[string];
  const words = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.split('#')[0] as string)
    .join(' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  const size = 3 + (ENTRY_LENGTH[style as keyof typeof ENTRY_LENGTH] as number);
  const entries: string[][] = [];
  for (let k = 0; k < words.length; k += size) entries.push(words.slice(k, k + size));
  const key = (e: readonly string[]): string => e.slice(0, 3).join(' ');
  const byKey = new Map(entries.map((e) => [key(e), e]));
  const done = new Set<string>();
  for (const entry of entries) {
    const twin = rule.twin(entry.slice(0, 3));
    if (twin === undefined || done.has(key(entry))) continue;
    const other = byKey.get(twin.join(' '));
    if (other === undefined) continue;
    for (const c of rule.columns) other[3 + c] = entry[3 + c] as string;
    done.add(twin.join(' '));
  }
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-manybody-'));
  const copy = join(dir, path.split('/').pop() as string);
  writeFileSync(copy, entries.map((e) => e.join(' ')).join('\n') + '\n');
  return copy;
}

const skip = lammpsSkipReason !== '' || !existsSync(LAMMPS_POTENTIALS);

function check(c: Case, make: (file: string, elements: Record<string, string>) => Model): void {
  const system = c.system();
  const path = symmetricCopy(join(LAMMPS_POTENTIALS, c.file), c.style);
  const reference = lammpsRun0(system, c.symbols, c.style, `* * ${path} ${c.names.join(' ')}`);
  const batch = Batch.fromSystems([system]);
  make(path, Object.fromEntries(c.symbols.map((s, k) => [s, c.names[k] as string]))).compute(batch, { stress: true });
  expect(Math.abs(batch.energy[0] - reference.energy)).toBeLessThan(1e-9 * Math.abs(reference.energy));
  let worst = 0;
  for (let k = 0; k < reference.forces.length; k++) worst = Math.max(worst, Math.abs(batch.forces[k] - reference.forces[k]));
  expect(worst).toBeLessThan(1e-7);
  for (let k = 0; k < 9; k++) expect(Math.abs(batch.stress[k] - reference.stress[k]), `stress[${k}]`).toBeLessThan(1e-7);
}

describe.skipIf(skip)(`Tersoff and Stillinger–Weber vs LAMMPS ${skip ? '(skipped: no lmp or no /usr/share/lammps/potentials; apt-get install lammps)' : ''}`, () => {
  it.each(TERSOFF)('$style $file, $structure', (c) => {
    check(c, (file, elements) => new Tersoff({ file, elements }));
  });
  it.each(SW)('$style $file, $structure', (c) => {
    check(c, (file, elements) => new StillingerWeber({ file, elements }));
  });
});
