#!/usr/bin/env node
// NPT throughput on in.lj's geometry (fcc 0.8442, --cells³ conventional cells: 20 → 32,000 atoms, lj/cut 2.5,
// skin 0.3) at T 1.5, P 1.0 with tdamp 0.5 and pdamp 5 (100·dt and 1000·dt, dt 0.005): hookmd's NPT vs
// LAMMPS's `fix npt ... iso`, one thread each, from the same lattice with velocities at T 1.5. Both
// rebuild neighbor lists as the skin requires (LAMMPS: every 1 check yes). The first steps melt the
// crystal and expand the box, so the run exercises the barostat and the neighbor lists under a changing cell.
//
// Usage: node bench/npt-lj.mjs [--cells 20] [--steps 500] [--rounds 1]
// Needs dist/ (npm run build), build/Release/hookmd.node, and `lmp` for the comparison.
import { childMain, fmt, machineLine, markdownTable, parseArgs, runChild, runExternal, tempFile, timed } from './lib/harness.mjs';
import { parseLammpsLog } from './lib/systems.mjs';
import { HAVE_LAMMPS } from './lib/lammps-lj.mjs';

function lammpsInput(cells, steps) {
  return [
    'units lj', 'atom_style atomic', 'lattice fcc 0.8442', `region box block 0 ${cells} 0 ${cells} 0 ${cells}`, 'create_box 1 box',
    'create_atoms 1 box', 'mass 1 1.0', 'velocity all create 1.5 87287 loop geom', 'pair_style lj/cut 2.5', 'pair_coeff 1 1 1.0 1.0 2.5',
    'neighbor 0.3 bin', 'neigh_modify delay 0 every 1 check yes', 'fix 1 all npt temp 1.5 1.5 0.5 iso 1.0 1.0 5.0',
    'thermo_style custom step temp press vol', `thermo ${steps}`, `run ${steps}`, '',
  ].join('\n');
}

// --- child: hookmd --------------------------------------------------------------------------------------
async function hookmdRun({ cells, steps, rounds }) {
  const hookmd = await import('../dist/index.js');
  hookmd.setThreads(1);
  const a = (4 / 0.8442) ** (1 / 3);
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const batch = hookmd.Batch.fromSystems([hookmd.repeat(hookmd.bulk('Ar', 'fcc', { a, cubic: true }), [cells, cells, cells])], { units: 'lj' });
    hookmd.initializeVelocities(batch, { temperature: 1.5, seed: 87287 });
    const model = new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 });
    const npt = new hookmd.NPT({ model, dt: 0.005, temperature: 1.5, pressure: 1.0, tdamp: 0.5, pdamp: 5.0, couple: 'iso' });
    const { wallSeconds } = await timed(() => npt.run(batch, { steps }));
    const c = batch.read('cell');
    results.push({ wallSeconds, volume: c[0] * c[4] * c[8], builds: model.neighborStats().builds });
  }
  return { results, atoms: 4 * cells ** 3 };
}

// --- parent ---------------------------------------------------------------------------------------------
async function main() {
  const { cells, steps, rounds } = parseArgs({ cells: 20, steps: 500, rounds: 1 });
  const started = machineLine();
  process.stderr.write(`[npt-lj] hookmd: ${4 * cells ** 3} atoms, ${steps} steps, 1 thread\n`);
  const ours = await runChild(new URL(import.meta.url), { cells, steps, rounds }, { env: { HOOKMD_THREADS: '1' } });
  const rows = [];
  const best = Math.min(...ours.results.map((r) => r.wallSeconds));
  const atomSteps = (seconds) => fmt((ours.atoms * steps) / seconds);
  let lammps;
  if (HAVE_LAMMPS) {
    process.stderr.write('[npt-lj] LAMMPS, 1 thread\n');
    const file = tempFile('in.npt', lammpsInput(cells, steps));
    try {
      const run = await runExternal('lmp', ['-in', file.path, '-log', 'none'], { env: { OMP_NUM_THREADS: '1' } });
      const thermo = (run.stdout.split('Step Temp Press Volume')[1] ?? '').split('Loop time')[0];
      const rowsOut = [...thermo.matchAll(/^\s*\d+\s+\S+\s+\S+\s+(\S+)\s*$/gm)];
      lammps = { ...parseLammpsLog(run.stdout), peakRssMiB: run.peakRssMiB, volume: Number(rowsOut.at(-1)?.[1] ?? NaN) };
    } finally {
      file.cleanup();
    }
    rows.push([`LAMMPS ${lammps.version} fix npt`, 1, lammps.loopSeconds.toFixed(2), atomSteps(lammps.loopSeconds), '1.00×', lammps.neighborBuilds ?? '—', lammps.peakRssMiB.toFixed(1)]);
  }
  rows.push(['hookmd NPT', 1, `${best.toFixed(2)} (${ours.results.map((r) => r.wallSeconds.toFixed(2)).join(', ')})`, atomSteps(best),
    lammps === undefined ? '—' : `${(lammps.loopSeconds / best).toFixed(2)}×`, ours.results[0].builds, ours.peakRssMiB.toFixed(1)]);
  console.log(`## npt-lj — NPT on in.lj, ${fmt(ours.atoms)} atoms, ${steps} steps, T 1.5, P 1.0 (lj units), 1 thread\n`);
  console.log(`${started}\n`);
  console.log(markdownTable(['run', 'threads', 'wall (s)', 'atom-steps/s', 'speed vs LAMMPS', 'neighbor builds', 'peak RSS (MiB)'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
  console.log(`\nFinal volume: hookmd ${ours.results[0].volume.toFixed(1)}${lammps === undefined ? '' : `, LAMMPS ${lammps.volume.toFixed(1)}`} (start ${(ours.atoms / 0.8442).toFixed(1)}). ` +
    'LAMMPS time is its "Loop time" (setup excluded); hookmd time is the whole `await npt.run()` (the start-force computation included).');
}

if (!(await childMain(hookmdRun))) await main();
