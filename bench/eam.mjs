#!/usr/bin/env node
// EAM MD on hookmd and on LAMMPS: 32,000 Cu atoms (fcc a = 3.615 Å, 20×20×20 cells) with Cu_u3.eam
// (`pair_style eam`), velocities at 600 K, NVE, dt 1 fs, skin 1.0 Å with a rebuild whenever an atom moved
// more than skin/2 (LAMMPS: neighbor 1.0 bin, neigh_modify delay 0 every 1 check yes), 1,000 steps, one
// thread each. Rounds are interleaved (LAMMPS, hookmd) and the best of each is reported, with the energy
// conservation of both.
//
// Usage: node bench/eam.mjs [--cells 20] [--steps 1000] [--rounds 1] [--no-lammps]
// Needs dist/ (npm run build), build/Release/hookmd.node, /usr/share/lammps/potentials/Cu_u3.eam, and LAMMPS
// as `lmp` on PATH for the comparison.
import { spawnSync } from 'node:child_process';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, runExternal, sci, tempFile, timed } from './lib/harness.mjs';
import { energyDrift, parseLammpsLog } from './lib/systems.mjs';

const POTENTIAL = '/usr/share/lammps/potentials/Cu_u3.eam';
const A = 3.615;
const SKIN = 1.0;
const THERMO_EVERY = 100;
/** Cu_u3.eam's mass, which LAMMPS takes from the file; hookmd is given the same. */
const MASS = 63.55;
/** metal units: (amu Å²/fs²) → eV. */
const MVV2E = 1 / 9.648533212e-3;

// --- child: one hookmd run ----------------------------------------------------------------------------
async function hookmdRun({ cells, steps }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(1);
  const crystal = hookmd.repeat(hookmd.bulk('Cu', 'fcc', { a: A, cubic: true }), [cells, cells, cells]);
  const batch = hookmd.Batch.fromSystems([{ ...crystal, masses: crystal.atomicNumbers.map(() => MASS) }]);
  hookmd.initializeVelocities(batch, { temperature: 600, seed: 4928459, exact: true });
  const n = batch.numAtoms;
  const model = new hookmd.EAM({ file: POTENTIAL, skin: SKIN });
  const md = new hookmd.VelocityVerlet({ model, dt: 1 });
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
  return { atoms: n, steps: result.steps, threads: hookmd.getThreads(), wallSeconds, cpuSeconds, neighbor: model.neighborStats(), thermo };
}

// --- parent ---------------------------------------------------------------------------------------------
function lammpsInput(cells, steps) {
  return `# Cu EAM NVE at 600 K, as bench/eam.mjs runs it on hookmd
units           metal
atom_style      atomic
lattice         fcc ${A}
region          box block 0 ${cells} 0 ${cells} 0 ${cells}
create_box      1 box
create_atoms    1 box
pair_style      eam
pair_coeff      1 1 ${POTENTIAL}
velocity        all create 600.0 4928459 loop geom
neighbor        ${SKIN} bin
neigh_modify    delay 0 every 1 check yes
fix             1 all nve
timestep        0.001
thermo          ${THERMO_EVERY}
thermo_style    custom step temp pe ke etotal
thermo_modify   norm yes
run             ${steps}
`;
}

async function lammpsRun({ cells, steps }) {
  const input = tempFile('in.eam', lammpsInput(cells, steps));
  try {
    const out = await runExternal('lmp', ['-in', input.path, '-log', 'none'], { env: { OMP_NUM_THREADS: '1' } });
    const log = parseLammpsLog(out.stdout);
    return { ...log, cpuSeconds: out.userSeconds + out.systemSeconds, peakRssMiB: out.peakRssMiB };
  } finally {
    input.cleanup();
  }
}

async function main() {
  const options = parseArgs({ cells: 20, steps: 1000, rounds: 1, lammps: true });
  const { cells, steps, rounds } = options;
  const haveLammps = spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0;
  if (!haveLammps) process.stderr.write('[eam] `lmp` not found on PATH: LAMMPS rows skipped\n');
  const withLammps = haveLammps && options.lammps !== false && !options.noLammps;
  const started = machineLine();
  const script = new URL(import.meta.url);
  const runs = { lammps: [], hookmd: [] };
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`[eam] round ${r + 1}/${rounds}\n`);
    if (withLammps) runs.lammps.push(await lammpsRun({ cells, steps }));
    runs.hookmd.push(await runChild(script, { cells, steps }, { env: { HOOKMD_THREADS: '1' } }));
  }
  const best = (list, key) => list[argMin(list.map((x) => x[key]))];
  const lmp = withLammps ? best(runs.lammps, 'loopSeconds') : undefined;
  const ours = best(runs.hookmd, 'wallSeconds');
  const rate = (seconds) => (ours.atoms * steps) / seconds;
  const list = (l, key) => l.map((x) => x[key].toFixed(2)).join(', ');

  console.log(`## eam — Cu_u3.eam NVE at 600 K (${fmt(ours.atoms)} atoms, ${steps} steps), hookmd vs LAMMPS, 1 thread each\n`);
  console.log(`${started}; best of ${rounds} interleaved round(s) (every round's time listed)\n`);
  // On a shared machine wall time measures the competition as much as the code; the CPU seconds spent in
  // the timed loop (LAMMPS: loop time × its reported CPU use) compare the codes themselves.
  const loopCpu = (l) => (l.cpuUse === undefined ? l.loopSeconds : (l.loopSeconds * l.cpuUse) / 100);
  const lmpCpu = lmp === undefined ? undefined : Math.min(...runs.lammps.map(loopCpu));
  const oursCpu = Math.min(...runs.hookmd.map((r) => r.cpuSeconds));
  const rows = [];
  if (lmp !== undefined) {
    rows.push([`LAMMPS ${lmp.version}, pair_style eam + fix nve`, lmp.loopSeconds.toFixed(2), list(runs.lammps, 'loopSeconds'), lmpCpu.toFixed(2),
      fmt(rate(lmp.loopSeconds)), '1.00×', '1.00×', String(lmp.neighborBuilds), lmp.peakRssMiB.toFixed(1)]);
  }
  rows.push([`hookmd VelocityVerlet + EAM, hook every ${THERMO_EVERY}`, ours.wallSeconds.toFixed(2), list(runs.hookmd, 'wallSeconds'), oursCpu.toFixed(2),
    fmt(rate(ours.wallSeconds)), lmp === undefined ? '—' : `${(lmp.loopSeconds / ours.wallSeconds).toFixed(2)}×`,
    lmp === undefined ? '—' : `${(lmpCpu / oursCpu).toFixed(2)}×`, `${ours.neighbor.builds}`, ours.peakRssMiB.toFixed(1)]);
  console.log(markdownTable(['run', 'wall (s, best)', 'every round, wall (s)', 'loop CPU (s, best)', 'atom-steps/s (wall)', 'speed vs LAMMPS (wall)', 'speed vs LAMMPS (CPU)', 'neighbor builds', 'peak RSS (MiB)'], rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']));
  console.log('\nLAMMPS time is its "Loop time" (setup excluded), its CPU that time × its reported CPU use; hookmd time is the whole `await md.run()` (the start-force computation included), its CPU the process CPU seconds during it.');
  const drift = [['hookmd', sci(energyDrift(ours.thermo).final), sci(energyDrift(ours.thermo).max)]];
  if (lmp !== undefined) drift.push(['LAMMPS', sci(energyDrift(lmp.thermo).final), sci(energyDrift(lmp.thermo).max)]);
  console.log('\nTotal-energy drift |E(t) − E(0)|/|E(0)|:\n');
  console.log(markdownTable(['code', `at step ${steps}`, 'largest at a thermo step'], drift));
  const first = ours.thermo[0];
  const last = ours.thermo[ours.thermo.length - 1];
  console.log(`\nhookmd thermo: T ${first.temp.toFixed(1)} → ${last.temp.toFixed(1)} K, E/atom ${first.etotal.toFixed(6)} → ${last.etotal.toFixed(6)} eV` +
    (lmp === undefined ? '' : `; LAMMPS: T ${lmp.thermo[0].temp.toFixed(1)} → ${lmp.thermo[lmp.thermo.length - 1].temp.toFixed(1)} K, E/atom ${lmp.thermo[0].etotal.toFixed(6)} → ${lmp.thermo[lmp.thermo.length - 1].etotal.toFixed(6)} eV`));
}

if (!(await childMain(hookmdRun))) await main();
