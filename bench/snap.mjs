#!/usr/bin/env node
// SNAP on hookmd and on the reference LAMMPS with ML-SNAP (bench/reference-lammps/build.sh; issue 42's speed
// rows):
//  - md: fcc Ni, 8×8×8 conventional cells (2,048 atoms, a = 3.52 Å), Ni_Zuo_JPCA2020 (linear SNAP, 2J = 8,
//    r_cut 4.1 Å), velocities at 300 K, NVE, dt 0.5 fs, skin 1.0 Å, `steps` steps: LAMMPS's loop time
//    against hookmd's `await md.run()`, one thread each (bench/reference-lammps/in.snap-ni is the same run);
//  - so3: diamond Si, 4×4×4 conventional cells (512 atoms, a = 5.43 Å), the Si.nn.mliap network on ML-IAP's so3
//    descriptor (nmax 3, lmax 4, r_cut 5 Å), velocities at 300 K, NVE, dt 1 fs, skin 1.0 Å, `so3Steps` steps:
//    LAMMPS's loop time against hookmd's `await md.run()`, one thread each;
//  - batch: every structure of the mlearn Ni DFT test set (test/fixtures/mlearn/Ni/test.json, 31 structures),
//    energy and forces, in one hookmd batch, against LAMMPS evaluating them one after another in one process
//    (a loop of read_data and run 0), in structures per second.
// Each row is the best of `rounds` interleaved rounds, every round listed, with peak RSS.
//
// Usage: node bench/snap.mjs [--cells 8] [--steps 100] [--so3-steps 20] [--repeats 20] [--rounds 3]
// Needs dist/ (npm run build), build/Release/hookmd.node, /usr/share/lammps/potentials and the reference
// LAMMPS ($HOOKMD_REFERENCE_LMP, default /work/reference-lammps/build/lmp).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, timed } from './lib/harness.mjs';
import { runLammpsVariant } from './lib/lammps.mjs';
import { dataFile, LMP, lammpsVersion, POTENTIALS, restrictedTriclinic } from './reference-lammps/lammps.mjs';

const COEFF = `${POTENTIALS}/Ni_Zuo_JPCA2020.snapcoeff`;
const PARAM = `${POTENTIALS}/Ni_Zuo_JPCA2020.snapparam`;
const A = 3.52;
const SKIN = 1.0;
const SI_MODEL = `${POTENTIALS}/Si.nn.mliap.model`;
const SI_DESCRIPTOR = `${POTENTIALS}/Si.nn.mliap.descriptor`;
const SI_A = 5.43;
const SI_CELLS = 4;
const MLEARN_NI = new URL('../test/fixtures/mlearn/Ni/test.json', import.meta.url).pathname;

// --- child: one hookmd run ----------------------------------------------------------------------------
async function hookmdRun({ task, cells, steps, repeats }) {
  const hookmd = await import('../dist/index.js');
  if (task === 'so3') {
    const model = new hookmd.MLIAP({ model: SI_MODEL, descriptor: SI_DESCRIPTOR, skin: SKIN });
    const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Si', 'diamond', { a: SI_A, cubic: true }), [SI_CELLS, SI_CELLS, SI_CELLS])]);
    hookmd.initializeVelocities(batch, { temperature: 300, seed: 4928459, exact: true });
    const md = new hookmd.VelocityVerlet({ model, dt: 1 });
    const { wallSeconds, cpuSeconds } = await timed(() => md.run(batch, { steps }));
    return { atoms: batch.numAtoms, threads: hookmd.backendInfo().threads, wallSeconds, cpuSeconds, builds: model.neighborStats().builds };
  }
  const model = new hookmd.SNAP({ coefficients: COEFF, parameters: PARAM, skin: SKIN });
  const threads = hookmd.backendInfo().threads;
  if (task === 'md') {
    const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ni', 'fcc', { a: A, cubic: true }), [cells, cells, cells])]);
    hookmd.initializeVelocities(batch, { temperature: 300, seed: 4928459, exact: true });
    const md = new hookmd.VelocityVerlet({ model, dt: 0.5 });
    const { wallSeconds, cpuSeconds } = await timed(() => md.run(batch, { steps }));
    return { atoms: batch.numAtoms, threads, wallSeconds, cpuSeconds, builds: model.neighborStats().builds };
  }
  const systems = hookmd.readMlearn(MLEARN_NI).map(({ energy, forces, stress, ...rest }) => rest);
  const batch = hookmd.Batch.fromSystems(systems);
  model.compute(batch);
  // The same structures `repeats` times, so the time is well above the timer's resolution.
  const { wallSeconds, cpuSeconds } = await timed(async () => {
    for (let r = 0; r < repeats; r++) model.compute(hookmd.Batch.fromSystems(systems));
  });
  return { structures: systems.length * repeats, atoms: batch.numAtoms, threads, wallSeconds, cpuSeconds };
}

// --- parent ---------------------------------------------------------------------------------------------
function mdInput(cells, steps) {
  return `# bench/reference-lammps/in.snap-ni with the potential's files named directly
units           metal
atom_style      atomic
boundary        p p p
lattice         fcc ${A}
region          box block 0 ${cells} 0 ${cells} 0 ${cells}
create_box      1 box
create_atoms    1 box
mass            1 58.6934
pair_style      snap
pair_coeff      * * ${COEFF} ${PARAM} Ni
velocity        all create 300.0 4928459 loop geom
neighbor        ${SKIN} bin
neigh_modify    every 1 delay 0 check yes
timestep        0.0005
fix             1 all nve
thermo          ${steps}
run             ${steps}
`;
}

function so3Input(steps) {
  return `units           metal
atom_style      atomic
boundary        p p p
lattice         diamond ${SI_A}
region          box block 0 ${SI_CELLS} 0 ${SI_CELLS} 0 ${SI_CELLS}
create_box      1 box
create_atoms    1 box
mass            1 28.0855
pair_style      mliap model nn ${SI_MODEL} descriptor so3 ${SI_DESCRIPTOR}
pair_coeff      * * Si
velocity        all create 300.0 4928459 loop geom
neighbor        ${SKIN} bin
neigh_modify    every 1 delay 0 check yes
timestep        0.001
fix             1 all nve
thermo          ${steps}
run             ${steps}
`;
}

/** Data files of the mlearn Ni test structures in LAMMPS's restricted triclinic form, and the input that evaluates them in a loop. */
function batchInput(dir, repeats) {
  const entries = JSON.parse(readFileSync(MLEARN_NI, 'utf8'));
  entries.forEach((entry, k) => {
    let cell = entry.structure.lattice.matrix;
    let rotated;
    try {
      rotated = restrictedTriclinic(cell);
    } catch {
      // A left-handed lattice: a and b swapped is the same periodic structure.
      cell = [cell[1], cell[0], cell[2]];
      rotated = restrictedTriclinic(cell);
    }
    const positions = entry.structure.sites.map((s) => rotated.rotate(s.xyz));
    writeFileSync(join(dir, `s${k}.data`), dataFile({ cell: rotated.cell, positions, types: positions.map(() => 1), elements: ['Ni'] }));
  });
  const count = entries.length;
  const input = `variable r loop ${repeats}
label repeat
variable k loop ${count}
label structures
clear
units metal
atom_style atomic
box tilt large
read_data ${dir}/s$(v_k-1).data
pair_style snap
pair_coeff * * ${COEFF} ${PARAM} Ni
neighbor ${SKIN} bin
run 0
next k
jump SELF structures
next r
jump SELF repeat
`;
  return { input, count };
}

async function main() {
  const { cells, steps, so3Steps, repeats, rounds } = parseArgs({ cells: 8, steps: 100, so3Steps: 20, repeats: 20, rounds: 3 });
  const lammps = { key: 'reference', label: 'LAMMPS reference build (ML-SNAP, -O3 -march=native)', command: LMP, args: [] };
  const version = lammpsVersion();
  const started = machineLine();
  const script = new URL(import.meta.url);
  const runs = new Map();
  const record = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-snap-bench-'));
  try {
    const batch = batchInput(dir, repeats);
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`[snap] round ${r + 1}/${rounds}\n`);
      record('md:lammps', await runLammpsVariant(lammps, mdInput(cells, steps)));
      record('md:hookmd', await runChild(script, { task: 'md', cells, steps }, { env: { HOOKMD_THREADS: '1' } }));
      record('so3:lammps', await runLammpsVariant(lammps, so3Input(so3Steps)));
      record('so3:hookmd', await runChild(script, { task: 'so3', steps: so3Steps }, { env: { HOOKMD_THREADS: '1' } }));
      const t0 = performance.now();
      const result = await runLammpsVariant(lammps, batch.input);
      record('batch:lammps', { ...result, wallSeconds: (performance.now() - t0) / 1000, structures: batch.count * repeats });
      record('batch:hookmd', await runChild(script, { task: 'batch', repeats }, { env: { HOOKMD_THREADS: '1' } }));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const best = (key, field) => {
    const list = runs.get(key) ?? [];
    return { best: list[argMin(list.map((x) => x[field]))], every: list.map((x) => x[field].toFixed(2)).join(', '), rss: Math.max(...list.map((x) => x.peakRssMiB)) };
  };
  console.log('## snap — linear SNAP (Ni_Zuo_JPCA2020, 2J = 8), hookmd against the reference LAMMPS\n');
  console.log(`${started}; ${version}; best of ${rounds} interleaved rounds (every round listed), one thread each\n`);
  const lmd = best('md:lammps', 'loopSeconds');
  const hmd = best('md:hookmd', 'wallSeconds');
  console.log(`### NVE, fcc Ni at 300 K, ${fmt(hmd.best.atoms)} atoms, ${steps} steps, dt 0.5 fs, skin ${SKIN} Å\n`);
  console.log(
    markdownTable(
      ['run', 'time (s, best)', 'every round (s)', 'µs/atom-step', 'LAMMPS loop time ÷ this', 'peak RSS (MiB)'],
      [
        [`${lammps.label}, loop time`, lmd.best.loopSeconds.toFixed(2), lmd.every, ((1e6 * lmd.best.loopSeconds) / (hmd.best.atoms * steps)).toFixed(1), '', lmd.rss.toFixed(1)],
        [`hookmd VelocityVerlet (${hmd.best.builds} builds)`, hmd.best.wallSeconds.toFixed(2), hmd.every, ((1e6 * hmd.best.wallSeconds) / (hmd.best.atoms * steps)).toFixed(1), `${(lmd.best.loopSeconds / hmd.best.wallSeconds).toFixed(2)}×`, hmd.rss.toFixed(1)],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const ls = best('so3:lammps', 'loopSeconds');
  const hs = best('so3:hookmd', 'wallSeconds');
  console.log(`\n### NVE, diamond Si at 300 K, ${fmt(hs.best.atoms)} atoms, Si.nn.mliap (network on the so3 descriptor), ${so3Steps} steps, dt 1 fs, skin ${SKIN} Å\n`);
  console.log(
    markdownTable(
      ['run', 'time (s, best)', 'every round (s)', 'µs/atom-step', 'LAMMPS loop time ÷ this', 'peak RSS (MiB)'],
      [
        [`${lammps.label}, loop time`, ls.best.loopSeconds.toFixed(2), ls.every, ((1e6 * ls.best.loopSeconds) / (hs.best.atoms * so3Steps)).toFixed(1), '', ls.rss.toFixed(1)],
        [`hookmd VelocityVerlet (${hs.best.builds} builds)`, hs.best.wallSeconds.toFixed(2), hs.every, ((1e6 * hs.best.wallSeconds) / (hs.best.atoms * so3Steps)).toFixed(1), `${(ls.best.loopSeconds / hs.best.wallSeconds).toFixed(2)}×`, hs.rss.toFixed(1)],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const lb = best('batch:lammps', 'wallSeconds');
  const hb = best('batch:hookmd', 'wallSeconds');
  console.log(`\n### The mlearn Ni DFT test set (31 structures, ${fmt(hb.best.atoms)} atoms), energy and forces, ${repeats} times over\n`);
  console.log(
    markdownTable(
      ['run', 'time (s, best)', 'every round (s)', 'structures/s', 'LAMMPS time ÷ this', 'peak RSS (MiB)'],
      [
        [`${lammps.label}, one structure after another (read_data, run 0)`, lb.best.wallSeconds.toFixed(2), lb.every, fmt(lb.best.structures / lb.best.wallSeconds, 1), '', lb.rss.toFixed(1)],
        ['hookmd, the whole set in one batch per pass', hb.best.wallSeconds.toFixed(2), hb.every, fmt(hb.best.structures / hb.best.wallSeconds, 1), `${(lb.best.wallSeconds / hb.best.wallSeconds).toFixed(2)}×`, hb.rss.toFixed(1)],
      ],
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  console.log('\nLAMMPS md time is its "Loop time" (setup excluded); its batch time is the whole process. hookmd md time is the whole `await run()` (the start-force computation included); its batch time is the computes alone (the set read once before).');
}

if (!(await childMain(hookmdRun))) await main();
