#!/usr/bin/env node
// The shipped Zuo et al. SNAP and quadratic SNAP (J. Phys. Chem. A 124, 731 (2020);
// /usr/share/lammps/potentials/*_Zuo_JPCA2020[.quadratic].snap) on the DFT test sets they were made for
// (mlearn, test/fixtures/mlearn/<El>/test.json): hookmd's energy MAE (meV/atom) and force MAE (eV/Å) against
// DFT, as mlearn defines them, beside the reference LAMMPS's (test/fixtures/snap/mlearn-lammps.json, from
// bench/reference-lammps/mlearn-reference.mjs), with the time hookmd takes for each set in one batch.
// test/models/snap-mlearn.test.ts checks the same numbers in CI.
//
// Usage: node bench/mlearn.mjs
// Needs dist/ (npm run build), build/Release/hookmd.node and /usr/share/lammps/potentials.
import { readFileSync } from 'node:fs';

import { machineLine, markdownTable, timed } from './lib/harness.mjs';

const hookmd = await import('../dist/index.js');
const reference = JSON.parse(readFileSync(new URL('../test/fixtures/snap/mlearn-lammps.json', import.meta.url), 'utf8'));
const rows = [];
for (const row of reference.results) {
  const systems = hookmd.readMlearn(new URL(`../test/fixtures/mlearn/${row.element}/test.json`, import.meta.url).pathname);
  const model = hookmd.SNAP.fromLammps(`/usr/share/lammps/potentials/${row.potential}`);
  const { value: errors, wallSeconds } = await timed(() => hookmd.modelErrors(model, systems));
  const atoms = systems.reduce((n, s) => n + s.positions.length, 0);
  rows.push([
    row.element,
    row.potential.includes('quadratic') ? 'qSNAP' : 'SNAP',
    `${systems.length} (${atoms})`,
    (1000 * errors.energyMae).toFixed(2),
    row.energyMAE.toFixed(2),
    errors.forcesMae.toFixed(3),
    row.forceMAE.toFixed(3),
    wallSeconds.toFixed(2),
  ]);
}
console.log('## mlearn — the Zuo et al. SNAP and qSNAP on the mlearn DFT test sets\n');
console.log(`${machineLine()}; ${hookmd.backendInfo().threads} threads\n`);
console.log(
  markdownTable(
    ['element', 'model', 'structures (atoms)', 'energy MAE, hookmd (meV/atom)', 'energy MAE, LAMMPS (meV/atom)', 'force MAE, hookmd (eV/Å)', 'force MAE, LAMMPS (eV/Å)', 'hookmd time (s)'],
    rows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
  ),
);
console.log(`\nLAMMPS: ${reference.lammps} with ML-SNAP, built by bench/reference-lammps/build.sh; MAEs as mlearn defines them (energy: mean |ΔE|/N over structures; forces: mean |ΔF| over all components).`);
