#!/usr/bin/env node
// LAMMPS's bench/in.eam physics on hookmd and on LAMMPS: 32,000 Cu atoms (fcc a = 3.615 Å, 20×20×20 cells)
// with Cu_u3.eam (`pair_style eam`), velocities at 1,600 K, NVE, dt 5 fs, skin 1.0 Å, 200 steps. LAMMPS runs
// in.eam's `neigh_modify every 1 delay 5 check yes`; hookmd rebuilds whenever an atom moved more than skin/2
// (it checks every step). Rows, each the best of interleaved rounds: every LAMMPS variant present (Debian's
// lmp plain and -sf opt, and a native build from bench/lammps-native.mjs), hookmd on 1 thread (as the CPU
// picks its SIMD level, and HOOKMD_SIMD=off), on all threads, and the contention rows: hookmd on 1 thread
// and on all threads while one other process keeps a CPU busy.
//
// Usage: node bench/eam.mjs [--cells 20] [--steps 200] [--rounds 3] [--no-lammps]
// Needs dist/ (npm run build), build/Release/hookmd.node, /usr/share/lammps/potentials/Cu_u3.eam, and LAMMPS
// as `lmp` on PATH for the comparison.
import { availableParallelism } from 'node:os';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, sci, timed } from './lib/harness.mjs';
import { lammpsVariants, runLammpsVariant, withBusyProcess } from './lib/lammps.mjs';
import { energyDrift } from './lib/systems.mjs';

const POTENTIAL = '/usr/share/lammps/potentials/Cu_u3.eam';
const A = 3.615;
const SKIN = 1.0;
const TEMPERATURE = 1600;
/** fs; in.eam's 0.005 ps. */
const DT = 5;
const THERMO_EVERY = 50;
/** Cu_u3.eam's mass, which LAMMPS takes from the file; hookmd is given the same. */
const MASS = 63.55;
/** metal units: (amu Å²/fs²) → eV. */
const MVV2E = 1 / 9.648533212e-3;

// --- child: one hookmd run ----------------------------------------------------------------------------
async function hookmdRun({ cells, steps }) {
  const hookmd = await import('../dist/index.js');
  const crystal = hookmd.repeat(hookmd.bulk('Cu', 'fcc', { a: A, cubic: true }), [cells, cells, cells]);
  const batch = hookmd.Batch.fromSystems([{ ...crystal, masses: crystal.atomicNumbers.map(() => MASS) }]);
  hookmd.initializeVelocities(batch, { temperature: TEMPERATURE, seed: 376847, exact: true });
  const n = batch.numAtoms;
  const model = new hookmd.EAM({ file: POTENTIAL, skin: SKIN });
  const md = new hookmd.VelocityVerlet({ model, dt: DT });
  const thermo = [];
  md.register({
    stage: hookmd.DynamicsStage.BEFORE_STEP,
    frequency: THERMO_EVERY,
    name: 'thermo',
    call: (ctx) => {
      const { temperature, energy, kineticEnergy } = ctx.scalars;
      thermo.push({ step: ctx.stepCount, temp: temperature[0], pe: energy[0] / n, ke: kineticEnergy[0] / n, etotal: (energy[0] + kineticEnergy[0]) / n });
    },
  });
  const { wallSeconds, cpuSeconds, value: result } = await timed(() => md.run(batch, { steps }));
  const v = batch.read('velocities');
  const m = batch.read('masses');
  let ke = 0;
  for (let i = 0; i < n; i++) ke += 0.5 * m[i] * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2) * MVV2E;
  const pe = batch.read('energy')[0];
  thermo.push({ step: result.stepCount, temp: (2 * ke) / (3 * n * 8.617333262e-5), pe: pe / n, ke: ke / n, etotal: (pe + ke) / n });
  const info = hookmd.backendInfo();
  return { atoms: n, steps: result.steps, threads: info.threads, simd: info.cpuSimd, wallSeconds, cpuSeconds, builds: model.neighborStats().builds, thermo };
}

// --- parent ---------------------------------------------------------------------------------------------
/** in.eam with `cells`³ cells and `steps` steps (thermo every THERMO_EVERY, as energies per atom). */
function lammpsInput(cells, steps) {
  return `# LAMMPS bench/in.eam: bulk Cu, Cu_u3.eam, 1600 K, dt 5 fs
units           metal
atom_style      atomic
lattice         fcc ${A}
region          box block 0 ${cells} 0 ${cells} 0 ${cells}
create_box      1 box
create_atoms    1 box
pair_style      eam
pair_coeff      1 1 ${POTENTIAL}
velocity        all create ${TEMPERATURE}.0 376847 loop geom
neighbor        ${SKIN} bin
neigh_modify    every 1 delay 5 check yes
fix             1 all nve
timestep        0.005
thermo          ${THERMO_EVERY}
thermo_style    custom step temp pe ke etotal
thermo_modify   norm yes
run             ${steps}
`;
}

/** The hookmd runs of one round: label, environment, and whether a busy process runs beside it. */
function hookmdRuns() {
  const all = String(availableParallelism());
  return [
    { key: 'one', label: 'hookmd VelocityVerlet + EAM', env: { HOOKMD_THREADS: '1' } },
    { key: 'oneBaseline', label: 'hookmd, HOOKMD_SIMD=off (baseline x86-64 bodies)', env: { HOOKMD_THREADS: '1', HOOKMD_SIMD: 'off' } },
    { key: 'all', label: 'hookmd, all threads', env: { HOOKMD_THREADS: all } },
    { key: 'oneBusy', label: 'contention: hookmd 1 thread, one busy process beside it', env: { HOOKMD_THREADS: '1' }, busy: true },
    { key: 'allBusy', label: 'contention: hookmd all threads, one busy process beside it', env: { HOOKMD_THREADS: all }, busy: true },
  ];
}

async function main() {
  const options = parseArgs({ cells: 20, steps: 200, rounds: 3, lammps: true });
  const { cells, steps, rounds } = options;
  const variants = options.lammps === false || options.noLammps ? [] : lammpsVariants();
  if (variants.length === 0) process.stderr.write('[eam] no LAMMPS (`lmp` on PATH, or a bench/lammps-native.mjs build): LAMMPS rows skipped\n');
  const started = machineLine();
  const script = new URL(import.meta.url);
  const runs = new Map();
  const record = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`[eam] round ${r + 1}/${rounds}\n`);
    for (const variant of variants) record(variant.key, await runLammpsVariant(variant, lammpsInput(cells, steps)));
    for (const run of hookmdRuns()) {
      const go = () => runChild(script, { cells, steps }, { env: run.env });
      record(run.key, run.busy ? await withBusyProcess(go) : await go());
    }
  }
  const bestBy = (list, key) => list[argMin(list.map((x) => x[key]))];
  const every = (list, key) => list.map((x) => x[key].toFixed(2)).join(', ');
  const one = bestBy(runs.get('one'), 'wallSeconds');
  const atoms = one.atoms;
  const rate = (seconds) => fmt((atoms * steps) / seconds);
  const lammps = variants.map((variant) => ({ variant, best: bestBy(runs.get(variant.key), 'loopSeconds'), list: runs.get(variant.key) }));
  // LAMMPS's CPU: its loop time × its reported CPU use (setup excluded); hookmd's: process CPU during md.run().
  const loopCpu = (l) => (l.cpuUse === undefined ? l.loopSeconds : (l.loopSeconds * l.cpuUse) / 100);
  const ratios = (wall, cpu) => lammps.map(({ best, list }) => `${(best.loopSeconds / wall).toFixed(2)}× / ${(Math.min(...list.map(loopCpu)) / cpu).toFixed(2)}×`);

  console.log(`## eam — LAMMPS bench/in.eam physics (Cu_u3.eam, ${fmt(atoms)} atoms, ${TEMPERATURE} K, dt ${DT} fs, ${steps} steps)\n`);
  console.log(`${started}; hookmd SIMD level ${one.simd}; best of ${rounds} interleaved rounds (every round's time listed)\n`);
  const ratioHeaders = lammps.map(({ variant }) => `vs ${variant.label} (wall / CPU)`);
  const rows = [];
  for (const { variant, best, list } of lammps) {
    const cpu = Math.min(...list.map(loopCpu));
    rows.push([`${variant.label} (${best.version}), pair_style eam`, 1, best.loopSeconds.toFixed(2), every(list, 'loopSeconds'), cpu.toFixed(2), rate(best.loopSeconds),
      ...ratios(best.loopSeconds, cpu), String(best.neighborBuilds), best.peakRssMiB.toFixed(1)]);
  }
  for (const run of hookmdRuns()) {
    const list = runs.get(run.key);
    const best = bestBy(list, 'wallSeconds');
    const cpu = Math.min(...list.map((x) => x.cpuSeconds));
    rows.push([run.label, best.threads, best.wallSeconds.toFixed(2), every(list, 'wallSeconds'), cpu.toFixed(2), rate(best.wallSeconds),
      ...ratios(best.wallSeconds, cpu), String(best.builds), Math.max(...list.map((x) => x.peakRssMiB)).toFixed(1)]);
  }
  console.log(markdownTable(
    ['run', 'threads', 'wall (s, best)', 'every round, wall (s)', 'loop CPU (s, best)', 'atom-steps/s (wall)', ...ratioHeaders, 'neighbor builds', 'peak RSS (MiB)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', ...ratioHeaders.map(() => 'r'), 'r', 'r'],
  ));
  const oneBusy = bestBy(runs.get('oneBusy'), 'wallSeconds');
  const allBusy = bestBy(runs.get('allBusy'), 'wallSeconds');
  console.log(`\nContention: with one busy process beside it, hookmd on ${allBusy.threads} threads took ${allBusy.wallSeconds.toFixed(2)} s against ${oneBusy.wallSeconds.toFixed(2)} s on 1 thread (${(oneBusy.wallSeconds / allBusy.wallSeconds).toFixed(2)}× the 1-thread speed).`);
  console.log('LAMMPS time is its "Loop time" (setup excluded), its CPU that time × its reported CPU use; hookmd time is the whole `await md.run()` (the start-force computation included), its CPU the process CPU seconds during it.');
  const drift = [['hookmd', sci(energyDrift(one.thermo).final), sci(energyDrift(one.thermo).max)]];
  for (const { variant, best } of lammps) drift.push([variant.label, sci(energyDrift(best.thermo).final), sci(energyDrift(best.thermo).max)]);
  console.log('\nTotal-energy drift |E(t) − E(0)|/|E(0)|:\n');
  console.log(markdownTable(['code', `at step ${steps}`, 'largest at a thermo step'], drift));
  const first = one.thermo[0];
  const last = one.thermo[one.thermo.length - 1];
  const theirs = lammps[0]?.best.thermo;
  console.log(`\nhookmd thermo: T ${first.temp.toFixed(1)} → ${last.temp.toFixed(1)} K, E/atom ${first.etotal.toFixed(6)} → ${last.etotal.toFixed(6)} eV` +
    (theirs === undefined ? '' : `; LAMMPS: T ${theirs[0].temp.toFixed(1)} → ${theirs[theirs.length - 1].temp.toFixed(1)} K, E/atom ${theirs[0].etotal.toFixed(6)} → ${theirs[theirs.length - 1].etotal.toFixed(6)} eV`));
}

if (!(await childMain(hookmdRun))) await main();
