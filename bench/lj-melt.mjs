#!/usr/bin/env node
// LAMMPS's bench/in.lj on hookmd and on LAMMPS: 32,000 LJ atoms (fcc ρ 0.8442, 20×20×20 cells), T 1.44,
// rc 2.5, skin 0.3, dt 0.005, NVE, 1,000 steps. hookmd runs VelocityVerlet + LennardJones with one JS hook
// every 100 steps (it reads ctx.scalars: temperature, energies) on 1 thread and on all threads; LAMMPS runs
// the same input on 1 thread. Rounds are interleaved (LAMMPS, hookmd 1 thread, hookmd 1 thread with
// HOOKMD_SIMD=off, hookmd all threads) and the best of each is reported. Also compares energy conservation and neighbor-list builds.
//
// Usage: node bench/lj-melt.mjs [--cells 20] [--steps 1000] [--rounds 2] [--no-lammps]
// Needs dist/ (npm run build) and build/Release/hookmd.node (npm run native:gyp); LAMMPS as `lmp` on PATH.
import { spawnSync } from 'node:child_process';

import {
  argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, runExternal, sci, tempFile, timed,
} from './lib/harness.mjs';
import { energyDrift, lammpsMeltInput, ljMeltBatch, ljMeltModel, parseLammpsLog } from './lib/systems.mjs';

const HOOK_EVERY = 100;
// The rebuild policy hookmd uses (a rebuild as soon as any atom moved more than skin/2), in LAMMPS's words.
const CHECK_YES = 'delay 0 every 1 check yes';

// --- child: one hookmd run ----------------------------------------------------------------------------
async function hookmdRun({ cells, steps, threads }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(threads);
  const batch = ljMeltBatch(hookmd, cells);
  const n = batch.numAtoms;
  const model = ljMeltModel(hookmd);
  const md = new hookmd.VelocityVerlet({ model, dt: 0.005 });
  const thermo = [];
  // BEFORE_STEP of step k sees the state after k time steps, as LAMMPS's thermo output at step k.
  md.register({
    stage: hookmd.DynamicsStage.BEFORE_STEP,
    frequency: HOOK_EVERY,
    name: 'thermo',
    call: (ctx) => {
      const { temperature, energy, kineticEnergy } = ctx.scalars;
      thermo.push({ step: ctx.stepCount, temp: temperature[0], pe: energy[0] / n, ke: kineticEnergy[0] / n, etotal: (energy[0] + kineticEnergy[0]) / n });
    },
  });
  const { wallSeconds, cpuSeconds, value: result } = await timed(() => md.run(batch, { steps }));
  // The final state (step `steps`), outside the timing: KE = ½Σmv² in lj units.
  const v = batch.read('velocities');
  const m = batch.read('masses');
  let ke = 0;
  for (let i = 0; i < n; i++) ke += 0.5 * m[i] * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
  const pe = batch.read('energy')[0];
  thermo.push({ step: result.stepCount, temp: (2 * ke) / (3 * n), pe: pe / n, ke: ke / n, etotal: (pe + ke) / n });
  return {
    atoms: n,
    steps: result.steps,
    threads: hookmd.getThreads(),
    simd: hookmd.backendInfo().cpuSimd,
    wallSeconds,
    cpuSeconds,
    hookCalls: thermo.length - 1,
    neighbor: model.neighborStats(),
    thermo,
  };
}

// --- parent ---------------------------------------------------------------------------------------------
async function lammpsRun({ cells, steps, neighModify }) {
  const input = tempFile('in.lj', lammpsMeltInput(cells, steps, neighModify));
  try {
    const out = await runExternal('lmp', ['-in', input.path, '-log', 'none'], { env: { OMP_NUM_THREADS: '1' } });
    const log = parseLammpsLog(out.stdout);
    return { ...log, cpuSeconds: out.userSeconds + out.systemSeconds, processWallSeconds: out.wallSeconds, peakRssMiB: out.peakRssMiB };
  } finally {
    input.cleanup();
  }
}

async function main() {
  const options = parseArgs({ cells: 20, steps: 1000, rounds: 2, lammps: true });
  const { cells, steps, rounds } = options;
  const haveLammps = spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0;
  if (!haveLammps) process.stderr.write('[lj-melt] `lmp` not found on PATH: LAMMPS rows skipped\n');
  const withLammps = haveLammps && options.lammps !== false && !options.noLammps;
  const started = machineLine();
  const script = new URL(import.meta.url);
  const runs = { lammps: [], lammpsCheck: [], one: [], oneBaseline: [], all: [] };
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`[lj-melt] round ${r + 1}/${rounds}\n`);
    if (withLammps) runs.lammps.push(await lammpsRun({ cells, steps }));
    if (withLammps) runs.lammpsCheck.push(await lammpsRun({ cells, steps, neighModify: CHECK_YES }));
    runs.one.push(await runChild(script, { cells, steps, threads: 1 }, { env: { HOOKMD_THREADS: '1' } }));
    runs.oneBaseline.push(await runChild(script, { cells, steps, threads: 1 }, { env: { HOOKMD_THREADS: '1', HOOKMD_SIMD: 'off' } }));
    runs.all.push(await runChild(script, { cells, steps, threads: 0 }));
  }
  const best = (list, key) => list[argMin(list.map((x) => x[key]))];
  const lmp = withLammps ? best(runs.lammps, 'loopSeconds') : undefined;
  const lmpCheck = withLammps ? best(runs.lammpsCheck, 'loopSeconds') : undefined;
  const one = best(runs.one, 'wallSeconds');
  const oneBaseline = best(runs.oneBaseline, 'wallSeconds');
  const all = best(runs.all, 'wallSeconds');
  const atoms = one.atoms;
  const rate = (seconds) => (atoms * steps) / seconds;
  const lmpRate = lmp === undefined ? undefined : rate(lmp.loopSeconds);
  const vsLammps = (seconds) => (lmpRate === undefined ? '—' : `${(rate(seconds) / lmpRate).toFixed(2)}×`);
  const list = (l, key) => l.map((x) => x[key].toFixed(2)).join(', ');

  console.log(`## lj-melt — LAMMPS bench/in.lj (${fmt(atoms)} atoms, ${steps} steps), hookmd vs LAMMPS\n`);
  console.log(`${started}; hookmd SIMD level ${one.simd}; best of ${rounds} interleaved rounds (every round's time listed)\n`);
  const rows = [];
  if (lmp !== undefined) {
    rows.push([`LAMMPS ${lmp.version}, lj/cut + fix nve`, 1, lmp.loopSeconds.toFixed(2), list(runs.lammps, 'loopSeconds'), lmp.cpuSeconds.toFixed(2),
      fmt(lmpRate), '1.00×', `${lmp.neighborBuilds} (every 20, check no)`, lmp.peakRssMiB.toFixed(1)]);
    rows.push([`LAMMPS, neigh_modify ${CHECK_YES}`, 1, lmpCheck.loopSeconds.toFixed(2), list(runs.lammpsCheck, 'loopSeconds'), lmpCheck.cpuSeconds.toFixed(2),
      fmt(rate(lmpCheck.loopSeconds)), vsLammps(lmpCheck.loopSeconds), `${lmpCheck.neighborBuilds} (displacement > skin/2)`, lmpCheck.peakRssMiB.toFixed(1)]);
  }
  rows.push([`hookmd VelocityVerlet + LennardJones, hook every ${HOOK_EVERY}`, one.threads, one.wallSeconds.toFixed(2), list(runs.one, 'wallSeconds'), one.cpuSeconds.toFixed(2),
    fmt(rate(one.wallSeconds)), vsLammps(one.wallSeconds), `${one.neighbor.builds} (displacement > skin/2)`, one.peakRssMiB.toFixed(1)]);
  rows.push([`hookmd, HOOKMD_SIMD=off (baseline x86-64 build body)`, oneBaseline.threads, oneBaseline.wallSeconds.toFixed(2), list(runs.oneBaseline, 'wallSeconds'),
    oneBaseline.cpuSeconds.toFixed(2), fmt(rate(oneBaseline.wallSeconds)), vsLammps(oneBaseline.wallSeconds), `${oneBaseline.neighbor.builds}`, oneBaseline.peakRssMiB.toFixed(1)]);
  rows.push([`hookmd, all threads`, all.threads, all.wallSeconds.toFixed(2), list(runs.all, 'wallSeconds'), all.cpuSeconds.toFixed(2),
    fmt(rate(all.wallSeconds)), vsLammps(all.wallSeconds), `${all.neighbor.builds}`, all.peakRssMiB.toFixed(1)]);
  console.log(markdownTable(
    ['run', 'threads', 'time (s, best)', 'every round (s)', 'CPU (s)', 'atom-steps/s', 'vs LAMMPS 1 thread', 'neighbor builds', 'peak RSS (MiB)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r'],
  ));
  console.log('');
  if (lmp !== undefined) {
    console.log(`hookmd 1 thread vs LAMMPS by CPU time: ${(lmp.cpuSeconds / one.cpuSeconds).toFixed(2)}× (best rounds).`);
  }
  if (lmpCheck !== undefined) {
    console.log(`hookmd 1 thread vs LAMMPS with the same rebuild policy (${CHECK_YES}): ${(lmpCheck.loopSeconds / one.wallSeconds).toFixed(2)}×.`);
  }
  console.log(`hookmd all threads vs 1 thread: ${(one.wallSeconds / all.wallSeconds).toFixed(2)}× (${all.threads} threads).`);
  console.log('LAMMPS time is its "Loop time" (setup excluded); hookmd time is the whole `await md.run()` (the start-force computation included).');
  console.log('CPU is user+system seconds of the whole process (LAMMPS: /usr/bin/time, setup included; hookmd: the run() call).');

  // Energy conservation.
  const ours = one.thermo;
  const header = ['step', 'hookmd T', 'hookmd PE', 'hookmd KE', 'hookmd E'];
  const table = ours.map((row, i) => {
    const cells = [row.step, row.temp.toFixed(5), row.pe.toFixed(7), row.ke.toFixed(7), row.etotal.toFixed(7)];
    const l = lmp?.thermo[i];
    return l === undefined ? cells : [...cells, l.temp.toFixed(5), l.pe.toFixed(7), l.ke.toFixed(7), l.etotal.toFixed(7)];
  });
  console.log(`\nThermo every ${HOOK_EVERY} steps (per atom, lj units; hookmd T = 2KE/3N, LAMMPS T = 2KE/(3N−3)):\n`);
  const thermoHeader = lmp === undefined ? header : [...header, 'LAMMPS T', 'LAMMPS PE', 'LAMMPS KE', 'LAMMPS E'];
  console.log(markdownTable(thermoHeader, table, thermoHeader.map(() => 'r')));
  const ourDrift = energyDrift(ours);
  const driftRows = [['hookmd', sci(ourDrift.final), sci(ourDrift.max)]];
  if (lmp !== undefined) {
    const theirs = energyDrift(lmp.thermo);
    driftRows.push(['LAMMPS', sci(theirs.final), sci(theirs.max)]);
  }
  console.log('\nTotal-energy drift |E(t) − E(0)|/|E(0)|:\n');
  console.log(markdownTable(['code', `at step ${steps}`, 'largest at a thermo step'], driftRows));
  console.log(`\nhookmd: ${one.hookCalls} JS hook calls in the timed run; neighbor lists: ${one.neighbor.builds} builds (the start one included), ${fmt(one.neighbor.pairs)} pairs at the end.`);
}

if (!(await childMain(hookmdRun))) await main();
