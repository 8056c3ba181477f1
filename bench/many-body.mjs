#!/usr/bin/env node
// Tersoff and Stillinger–Weber on hookmd and on LAMMPS (issue 41's speed rows):
//  - md: LAMMPS's bench/in.tersoff physics, diamond Si (a = 5.431 Å, cells³ cubic cells of 8 atoms; 20 → 64,000
//    atoms), velocities at 1,000 K, NVE, dt 1 fs, skin 1.0 Å, Si.tersoff and Si.sw; LAMMPS's loop time against
//    hookmd's `await md.run()`, 1 thread each, and hookmd on every thread;
//  - relax: `count` rattled 64-atom Si cells relaxed with FIRE to fmax in one hookmd batch, against LAMMPS
//    minimizing the same cells one after another in one process (a loop in its input, `min_style fire`, the
//    same fmax), in systems per second.
// Each row is the best of `rounds` interleaved rounds, every round listed, with peak RSS.
//
// Usage: node bench/many-body.mjs [--cells 20] [--steps 100] [--count 1024] [--fmax 0.01] [--rounds 3] [--no-lammps]
// Needs dist/ (npm run build), build/Release/hookmd.node, /usr/share/lammps/potentials and `lmp` on PATH.
import { availableParallelism } from 'node:os';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

import { argMin, childMain, fmt, machineLine, markdownTable, parseArgs, runChild, timed } from './lib/harness.mjs';
import { lammpsVariants, runLammpsVariant } from './lib/lammps.mjs';

const POTENTIALS = '/usr/share/lammps/potentials';
const MODELS = { tersoff: { file: 'Si.tersoff', style: 'tersoff' }, sw: { file: 'Si.sw', style: 'sw' } };
const A = 5.431;
const SKIN = 1.0;
const MASS = 28.06;
const RELAX_SEED = 2026;
const RATTLE = 0.1;
const RELAX_STEPS = 5000;

// --- child: one hookmd run ----------------------------------------------------------------------------
async function hookmdRun({ task, kind, cells, steps, count, fmax }) {
  const hookmd = await import('../dist/index.js');
  const { file } = MODELS[kind];
  const options = { file: `${POTENTIALS}/${file}`, skin: SKIN };
  const model = kind === 'sw' ? new hookmd.StillingerWeber(options) : new hookmd.Tersoff(options);
  const info = () => hookmd.backendInfo();
  if (task === 'md') {
    const crystal = hookmd.repeat(hookmd.bulk('Si', 'diamond', { a: A, cubic: true }), [cells, cells, cells]);
    const batch = hookmd.Batch.fromSystems([{ ...crystal, masses: crystal.atomicNumbers.map(() => MASS) }]);
    hookmd.initializeVelocities(batch, { temperature: 1000, seed: 376847, exact: true });
    const md = new hookmd.VelocityVerlet({ model, dt: 1 });
    const { wallSeconds, cpuSeconds } = await timed(() => md.run(batch, { steps }));
    return { atoms: batch.numAtoms, threads: info().threads, wallSeconds, cpuSeconds, builds: model.neighborStats().builds };
  }
  const batch = hookmd.Batch.fromSystems(relaxCells(hookmd, count));
  const fire = new hookmd.FIRE({ model, convergence: hookmd.ConvergenceHook.fromFmax(fmax) });
  const { wallSeconds, cpuSeconds, value } = await timed(() => fire.run(batch, { steps: RELAX_STEPS }));
  const converged = value.converged.reduce((a, b) => a + b, 0);
  return { systems: count, converged, steps: value.steps, threads: info().threads, wallSeconds, cpuSeconds };
}

/** The rattled 64-atom cells both codes relax. */
function relaxCells(hookmd, count) {
  const cell = hookmd.repeat(hookmd.bulk('Si', 'diamond', { a: A, cubic: true }), [2, 2, 2]);
  return Array.from({ length: count }, (_, k) => hookmd.rattle(cell, RATTLE, RELAX_SEED + k));
}

// --- parent ---------------------------------------------------------------------------------------------
function mdInput(kind, cells, steps) {
  const { file, style } = MODELS[kind];
  return `# LAMMPS bench/in.tersoff physics: diamond Si, 1000 K, NVE, dt 1 fs
units           metal
atom_style      atomic
lattice         diamond ${A}
region          box block 0 ${cells} 0 ${cells} 0 ${cells}
create_box      1 box
create_atoms    1 box
pair_style      ${style}
pair_coeff      * * ${POTENTIALS}/${file} Si
mass            1 ${MASS}
velocity        all create 1000.0 376847 loop geom
neighbor        ${SKIN} bin
neigh_modify    delay 5 every 1
fix             1 all nve
timestep        0.001
thermo          ${steps}
run             ${steps}
`;
}

/** LAMMPS minimizing each cell in turn in one process: the cells as data files it reads in a loop. */
async function lammpsRelax(variant, kind, count, fmax, dir) {
  const hookmd = await import('../dist/index.js');
  const cells = relaxCells(hookmd, count);
  cells.forEach((cell, k) => {
    const l = cell.cell[0][0];
    const lines = ['cell', '', `${cell.positions.length} atoms`, '1 atom types', '', `0 ${l} xlo xhi`, `0 ${l} ylo yhi`, `0 ${l} zlo zhi`, '', 'Atoms # atomic', ''];
    cell.positions.forEach((p, i) => lines.push(`${i + 1} 1 ${p.map((x) => (x - Math.floor(x / l) * l).toPrecision(17)).join(' ')}`));
    writeFileSync(join(dir, `cell${k}.data`), `${lines.join('\n')}\n`);
  });
  const { file, style } = MODELS[kind];
  // fmax in LAMMPS's minimize is the force norm of the whole system (ftol); min_modify norm max makes it the
  // largest force component, the closest LAMMPS has to an atom's |F| (a stricter test by at most √3).
  const input = `units metal
atom_style atomic
variable k loop ${count}
label cells
clear
units metal
atom_style atomic
read_data ${dir}/cell$(v_k-1).data
mass 1 ${MASS}
pair_style ${style}
pair_coeff * * ${POTENTIALS}/${file} Si
neighbor ${SKIN} bin
min_style fire
min_modify norm max
minimize 0 ${fmax} ${RELAX_STEPS} ${10 * RELAX_STEPS}
next k
jump SELF cells
`;
  const t0 = performance.now();
  const result = await runLammpsVariant(variant, input);
  return { ...result, wallSeconds: (performance.now() - t0) / 1000 };
}

async function main() {
  const options = parseArgs({ cells: 20, steps: 100, count: 1024, fmax: 0.01, rounds: 3, lammps: true });
  const { cells, steps, count, fmax, rounds } = options;
  const variants = options.lammps === false || options.noLammps ? [] : lammpsVariants().filter((v) => v.key !== 'opt');
  const started = machineLine();
  const script = new URL(import.meta.url);
  const all = String(availableParallelism());
  const runs = new Map();
  const record = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-manybody-bench-'));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const kind of Object.keys(MODELS)) {
        process.stderr.write(`[many-body] round ${r + 1}/${rounds}: ${kind}\n`);
        for (const variant of variants) {
          record(`md:${kind}:${variant.key}`, await runLammpsVariant(variant, mdInput(kind, cells, steps)));
          record(`relax:${kind}:${variant.key}`, await lammpsRelax(variant, kind, count, fmax, dir));
        }
        for (const threads of ['1', all]) {
          record(`md:${kind}:hookmd${threads}`, await runChild(script, { task: 'md', kind, cells, steps }, { env: { HOOKMD_THREADS: threads } }));
          record(`relax:${kind}:hookmd${threads}`, await runChild(script, { task: 'relax', kind, count, fmax }, { env: { HOOKMD_THREADS: threads } }));
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const best = (key, field) => {
    const list = runs.get(key) ?? [];
    return { best: list[argMin(list.map((x) => x[field]))], every: list.map((x) => x[field].toFixed(2)).join(', '), rss: Math.max(...list.map((x) => x.peakRssMiB)) };
  };
  console.log(`## many-body — Tersoff and Stillinger–Weber, hookmd against LAMMPS\n`);
  console.log(`${started}; best of ${rounds} interleaved rounds (every round listed)\n`);
  console.log(`### NVE, diamond Si at 1,000 K, ${steps} steps, skin ${SKIN} Å\n`);
  const mdRows = [];
  for (const kind of Object.keys(MODELS)) {
    const lammps = variants.map((v) => ({ v, ...best(`md:${kind}:${v.key}`, 'loopSeconds') }));
    for (const { v, best: b, every, rss } of lammps) mdRows.push([kind, `${v.label} (${b.version})`, 1, b.loopSeconds.toFixed(2), every, '', rss.toFixed(1)]);
    for (const threads of ['1', all]) {
      const { best: b, every, rss } = best(`md:${kind}:hookmd${threads}`, 'wallSeconds');
      const ratio = lammps.map(({ best: l }) => `${(l.loopSeconds / b.wallSeconds).toFixed(2)}×`).join(', ');
      mdRows.push([kind, `hookmd VelocityVerlet (${fmt(b.atoms)} atoms, ${b.builds} builds)`, b.threads, b.wallSeconds.toFixed(2), every, ratio, rss.toFixed(1)]);
    }
  }
  console.log(markdownTable(['model', 'run', 'threads', 'time (s, best)', 'every round (s)', 'LAMMPS loop time ÷ this', 'peak RSS (MiB)'], mdRows, ['l', 'l', 'r', 'r', 'r', 'r', 'r']));
  console.log(`\n### FIRE relaxation of ${count} rattled 64-atom Si cells (rattle ${RATTLE} Å) to fmax ${fmax} eV/Å\n`);
  const relaxRows = [];
  for (const kind of Object.keys(MODELS)) {
    const lammps = variants.map((v) => ({ v, ...best(`relax:${kind}:${v.key}`, 'wallSeconds') }));
    for (const { v, best: b, every, rss } of lammps) relaxRows.push([kind, `${v.label}, one cell after another`, 1, b.wallSeconds.toFixed(2), every, fmt(count / b.wallSeconds, 1), '', rss.toFixed(1)]);
    for (const threads of ['1', all]) {
      const { best: b, every, rss } = best(`relax:${kind}:hookmd${threads}`, 'wallSeconds');
      const ratio = lammps.map(({ best: l }) => `${(l.wallSeconds / b.wallSeconds).toFixed(2)}×`).join(', ');
      relaxRows.push([kind, `hookmd FIRE, one batch (${b.converged}/${b.systems} converged in ${b.steps} steps)`, b.threads, b.wallSeconds.toFixed(2), every, fmt(count / b.wallSeconds, 1), ratio, rss.toFixed(1)]);
    }
  }
  console.log(markdownTable(['model', 'run', 'threads', 'time (s, best)', 'every round (s)', 'systems/s', 'LAMMPS time ÷ this', 'peak RSS (MiB)'], relaxRows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']));
  console.log('\nLAMMPS md time is its "Loop time" (setup excluded); its relaxation time is the whole process (one read_data and minimize per cell, in one process). hookmd time is the whole `await run()` (the start-force computation included).');
}

if (!(await childMain(hookmdRun))) await main();
