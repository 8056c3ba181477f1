#!/usr/bin/env node
// Regenerates test/fixtures/lammps-save/: potential files that hookmd's SNAP.save and MLIAP.save wrote, and
// reference.json, the energies, forces and stresses that the reference LAMMPS (bench/reference-lammps/
// build.sh: ML-SNAP + ML-IAP) computes with those files on a few structures. CI compares hookmd, loading the
// checked-in files, against the checked-in values (test/models/lammps-save-reference.test.ts); it never runs
// this script.
//
//   npx tsc -p tsconfig.build.json && node bench/reference-lammps/saved-fixtures.mjs
//
// The saved models:
//   Mo-fit          fitSnap on every 8th structure of the mlearn Mo training set (linear SNAP)
//   Mo-quadratic    the shipped Mo_Zuo_JPCA2020.quadratic coefficients, each times 1 + 0.01 sin(k)
//   W-zbl           W_2940_2017_2 (SNAP + ZBL core), coefficients times 1 + 0.01 cos(k)
//   Ta-linear       Ta06A.mliap (ML-IAP linear model + ZBL) as loaded
//   Cu-nn           Cu.nn.mliap.model on Cu.snap.mliap.descriptor (ML-IAP nn, plain pair_style mliap)
// LAMMPS reads each saved include file's pair_style and pair_coeff lines, with the saved files' names made
// absolute (LAMMPS resolves them against its working directory). Units and stress as snap-fixtures.mjs.
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fitSnap, MLIAP, readMlearn, SNAP } from '../../dist/index.js';
import { lammpsVersion, POTENTIALS, resolveInclude, rng, runZero, stressFromPressure } from './lammps.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'test', 'fixtures', 'lammps-save');
const potential = (name) => join(POTENTIALS, name);

const perturbed = (model, factor) =>
  Object.fromEntries(Object.entries(model.coefficients).map(([el, b]) => [el, { ...b, coefficients: b.coefficients.map((c, k) => c * factor(k)) }]));

const MODELS = [
  {
    name: 'Mo-fit',
    make: () =>
      fitSnap({
        train: readMlearn(join(ROOT, 'test/fixtures/mlearn/Mo/training.json')).filter((_, k) => k % 8 === 0),
        parameters: potential('Mo_Zuo_JPCA2020.snapparam'),
        elements: { Mo: { radius: 0.5, weight: 1 } },
        weights: { energy: 300, forces: 1, groups: { Elastic: 10 } },
      }),
    lattice: ['Mo', 'bcc', 3.16],
  },
  {
    name: 'Mo-quadratic',
    make: () => {
      const shipped = SNAP.fromLammps(potential('Mo_Zuo_JPCA2020.quadratic.snap'));
      return new SNAP({ coefficients: perturbed(shipped, (k) => 1 + 0.01 * Math.sin(k)), parameters: shipped.parameters });
    },
    lattice: ['Mo', 'bcc', 3.16],
  },
  {
    name: 'W-zbl',
    make: () => {
      const shipped = SNAP.fromLammps(potential('W_2940_2017_2.snap'));
      return new SNAP({ coefficients: perturbed(shipped, (k) => 1 + 0.01 * Math.cos(k)), parameters: shipped.parameters, zbl: shipped.describe().zbl });
    },
    lattice: ['W', 'bcc', 3.0],
  },
  { name: 'Ta-linear', make: () => MLIAP.fromLammps(potential('Ta06A.mliap')), lattice: ['Ta', 'bcc', 3.31] },
  {
    name: 'Cu-nn',
    make: () => new MLIAP({ model: potential('Cu.nn.mliap.model'), descriptor: potential('Cu.snap.mliap.descriptor') }),
    lattice: ['Cu', 'fcc', 3.62],
  },
];

const BASIS = { bcc: [[0, 0, 0], [0.5, 0.5, 0.5]], fcc: [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]] };

/** A rattled n×n×n supercell, orthogonal or sheared into LAMMPS's restricted triclinic form (rows a, b, c lower triangular). */
function structure(name, [symbol, lattice, a], kind) {
  const rand = rng(`${name}/${kind}`);
  const n = lattice === 'bcc' ? 3 : 2;
  const cell = kind === 'ortho' ? [[n * a, 0, 0], [0, n * a, 0], [0, 0, n * a]] : [[n * a, 0, 0], [0.11 * a, n * a, 0], [-0.07 * a, 0.13 * a, n * a]];
  const positions = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let k = 0; k < n; k++)
        for (const b of BASIS[lattice]) {
          const f = [(i + b[0]) / n, (j + b[1]) / n, (k + b[2]) / n];
          positions.push([0, 1, 2].map((c) => f[0] * cell[0][c] + f[1] * cell[1][c] + f[2] * cell[2][c] + (rand() * 2 - 1) * 0.1));
        }
  return { structure: kind, symbols: positions.map(() => symbol), cell, positions, pbc: [true, true, true] };
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const cases = [];
for (const m of MODELS) {
  const paths = m.make().save(join(OUT, m.name));
  const saved = new Set(Object.values(paths).map((p) => basename(p)));
  const pairLines = resolveInclude(readFileSync(paths.include, 'utf8'), paths.include).map((line) =>
    line.split(' ').map((word) => (saved.has(word) ? join(OUT, word) : word)).join(' '),
  );
  for (const kind of ['ortho', 'triclinic']) {
    const s = structure(m.name, m.lattice, kind);
    const r = runZero({ ...s, types: s.symbols.map(() => 1), elements: [m.lattice[0]], pairLines });
    cases.push({
      include: basename(paths.include),
      ...s,
      positions: r.positions,
      energy: r.energy,
      forces: r.forces,
      stress: stressFromPressure(r.pressure),
    });
  }
}
const doc = { generator: 'bench/reference-lammps/saved-fixtures.mjs', lammps: lammpsVersion(), cases };
writeFileSync(join(OUT, 'reference.json'), `${JSON.stringify(doc, null, 1)}\n`);
console.log(`wrote ${cases.length} cases and ${MODELS.length} saved models to ${OUT}`);
