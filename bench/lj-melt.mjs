#!/usr/bin/env node
// LAMMPS's bench/in.lj on hookmd and on LAMMPS: 32,000 LJ atoms (fcc ρ 0.8442, 20×20×20 cells), T 1.44,
// rc 2.5, skin 0.3, dt 0.005, NVE, 1,000 steps. hookmd runs VelocityVerlet + LennardJones with one JS hook
// every 100 steps (it reads ctx.scalars: temperature, energies) on 1 thread and on all threads; LAMMPS runs
// the same input on 1 thread, as every variant present: Debian's lmp plain and -sf opt (lj/cut/opt), and a
// native build from bench/lammps-native.mjs. Rounds are interleaved (the LAMMPS variants, LAMMPS with the
// rebuild policy of hookmd, hookmd 1 thread, hookmd 1 thread with HOOKMD_SIMD=off, hookmd all threads, and
// the contention rows: hookmd on 1 thread and on all threads with one busy process beside it) and the best
// of each is reported. Also compares energy conservation and neighbor-list builds.
//
// Usage: node bench/lj-melt.mjs [--cells 20] [--steps 1000] [--rounds 3] [--no-lammps]
// Needs dist/ (npm run build) and build/Release/hookmd.node (npm run native:gyp); LAMMPS as `lmp` on PATH.
import { availableParallelism } from 'node:os';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, sci, timed } from './lib/harness.mjs';
import { lammpsVariants, runLammpsVariant, withBusyProcess } from './lib/lammps.mjs';
import { energyDrift, lammpsMeltInput, ljMeltBatch, ljMeltModel } from './lib/systems.mjs';

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
/** The hookmd runs of one round: label, child options and environment, and whether a busy process runs beside it. */
function hookmdRuns() {
  const all = String(availableParallelism());
  return [
    { key: 'one', label: `hookmd VelocityVerlet + LennardJones, hook every ${HOOK_EVERY}`, threads: 1, env: { HOOKMD_THREADS: '1' } },
    { key: 'oneBaseline', label: 'hookmd, HOOKMD_SIMD=off (baseline x86-64 build body)', threads: 1, env: { HOOKMD_THREADS: '1', HOOKMD_SIMD: 'off' } },
    { key: 'all', label: 'hookmd, all threads', threads: 0, env: { HOOKMD_THREADS: all } },
    { key: 'oneBusy', label: 'contention: hookmd 1 thread, one busy process beside it', threads: 1, env: { HOOKMD_THREADS: '1' }, busy: true },
    { key: 'allBusy', label: 'contention: hookmd all threads, one busy process beside it', threads: 0, env: { HOOKMD_THREADS: all }, busy: true },
  ];
}

async function main() {
  const options = parseArgs({ cells: 20, steps: 1000, rounds: 3, lammps: true });
  const { cells, steps, rounds } = options;
  const variants = options.lammps === false || options.noLammps ? [] : lammpsVariants();
  if (variants.length === 0) process.stderr.write('[lj-melt] no LAMMPS (`lmp` on PATH, or a bench/lammps-native.mjs build): LAMMPS rows skipped\n');
  // LAMMPS with hookmd's rebuild policy, for the record of what in.lj's "every 20, check no" saves it.
  const checkYes = variants.filter((v) => v.key === 'plain').map((v) => ({ ...v, key: 'checkYes', label: `${v.label}, neigh_modify ${CHECK_YES}`, neighModify: CHECK_YES }));
  const started = machineLine();
  const script = new URL(import.meta.url);
  const runs = new Map();
  const record = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`[lj-melt] round ${r + 1}/${rounds}\n`);
    for (const variant of [...variants, ...checkYes]) record(variant.key, await runLammpsVariant(variant, lammpsMeltInput(cells, steps, variant.neighModify)));
    for (const run of hookmdRuns()) {
      const go = () => runChild(script, { cells, steps, threads: run.threads }, { env: run.env });
      record(run.key, run.busy ? await withBusyProcess(go) : await go());
    }
  }
  const best = (list, key) => list[argMin(list.map((x) => x[key]))];
  const one = best(runs.get('one'), 'wallSeconds');
  const all = best(runs.get('all'), 'wallSeconds');
  const atoms = one.atoms;
  const rate = (seconds) => (atoms * steps) / seconds;
  const list = (l, key) => l.map((x) => x[key].toFixed(2)).join(', ');
  const lammps = variants.map((variant) => ({ variant, best: best(runs.get(variant.key), 'loopSeconds') }));
  const lmp = lammps.find((l) => l.variant.key === 'plain')?.best;
  // Per core: each LAMMPS variant's loop time over this row's time, by wall and by CPU (LAMMPS's CPU is its
  // whole process, set-up included, as /usr/bin/time reports it).
  const ratios = (wall, cpu) => lammps.map(({ best: b }) => `${(b.loopSeconds / wall).toFixed(2)}× / ${(b.cpuSeconds / cpu).toFixed(2)}×`);
  const ratioHeaders = lammps.map(({ variant }) => `vs ${variant.label} (wall / CPU)`);

  console.log(`## lj-melt — LAMMPS bench/in.lj (${fmt(atoms)} atoms, ${steps} steps), hookmd vs LAMMPS\n`);
  console.log(`${started}; hookmd SIMD level ${one.simd}; best of ${rounds} interleaved rounds (every round's time listed)\n`);
  const rows = [];
  for (const variant of [...variants, ...checkYes]) {
    const b = best(runs.get(variant.key), 'loopSeconds');
    const policy = variant.neighModify === undefined ? 'every 20, check no' : 'displacement > skin/2';
    rows.push([`${variant.label} (${b.version}), lj/cut + fix nve`, 1, b.loopSeconds.toFixed(2), list(runs.get(variant.key), 'loopSeconds'), b.cpuSeconds.toFixed(2),
      fmt(rate(b.loopSeconds)), ...ratios(b.loopSeconds, b.cpuSeconds), `${b.neighborBuilds} (${policy})`, b.peakRssMiB.toFixed(1)]);
  }
  for (const run of hookmdRuns()) {
    const b = best(runs.get(run.key), 'wallSeconds');
    rows.push([run.label, b.threads, b.wallSeconds.toFixed(2), list(runs.get(run.key), 'wallSeconds'), b.cpuSeconds.toFixed(2),
      fmt(rate(b.wallSeconds)), ...ratios(b.wallSeconds, b.cpuSeconds), `${b.neighbor.builds} (displacement > skin/2)`, b.peakRssMiB.toFixed(1)]);
  }
  console.log(markdownTable(
    ['run', 'threads', 'time (s, best)', 'every round (s)', 'CPU (s)', 'atom-steps/s', ...ratioHeaders, 'neighbor builds', 'peak RSS (MiB)'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', ...ratioHeaders.map(() => 'r'), 'l', 'r'],
  ));
  console.log('');
  console.log(`hookmd all threads vs 1 thread: ${(one.wallSeconds / all.wallSeconds).toFixed(2)}× (${all.threads} threads).`);
  const oneBusy = best(runs.get('oneBusy'), 'wallSeconds');
  const allBusy = best(runs.get('allBusy'), 'wallSeconds');
  console.log(`Contention: with one busy process beside it, hookmd on ${allBusy.threads} threads took ${allBusy.wallSeconds.toFixed(2)} s against ${oneBusy.wallSeconds.toFixed(2)} s on 1 thread (${(oneBusy.wallSeconds / allBusy.wallSeconds).toFixed(2)}× the 1-thread speed).`);
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
  console.log(`\nThermo every ${HOOK_EVERY} steps (per atom, lj units; T = 2KE/(3N−3) in both, as LAMMPS compute temp):\n`);
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
