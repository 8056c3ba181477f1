// Memory of the LJ benchmark geometry (fcc ρ = 0.8442, rc = 2.5σ, skin 0.3σ) at 32,000 and 1,000,188 atoms.
// hookmd, in a fresh child process per size: resident bytes per atom of the batch alone, of LennardJones at
// the peak of its first compute (list build included) above that, and of both, each measured against the
// process's RSS before that phase. LAMMPS: its own "Per MPI rank memory allocation" and its peak RSS minus the peak RSS
// of a 4-atom run of the same input. Usage: node bench/lj-memory.mjs [--cells 20,63]
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { childMain, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';
import { HAVE_LAMMPS, ljInput, rankMemoryMiB, runLammps } from './lib/lammps-lj.mjs';

const options = parseArgs({ cells: '20,63' });

function status() {
  const text = readFileSync('/proc/self/status', 'utf8');
  const bytes = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(text)[1]) * 1024;
  return { rss: bytes('VmRSS'), hwm: bytes('VmHWM') };
}

/** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0), so each phase has its own peak. */
function resetPeak() {
  writeFileSync('/proc/self/clear_refs', '5');
}

/** The lattice as one System of flat arrays, built in a function so that nothing keeps the inputs alive. */
function makeBatch(Batch, cells) {
  const a = Math.cbrt(4 / 0.8442);
  const n = 4 * cells ** 3;
  const positions = new Float64Array(3 * n);
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  let k = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let l = 0; l < cells; l++) for (const q of basis) {
    positions[k++] = (i + q[0]) * a;
    positions[k++] = (j + q[1]) * a;
    positions[k++] = (l + q[2]) * a;
  }
  const system = { positions, atomicNumbers: new Int32Array(n).fill(18), cell: [cells * a, 0, 0, 0, cells * a, 0, 0, 0, cells * a], pbc: true };
  return Batch.fromSystems([system], { units: 'lj' });
}

async function measureHookmd({ cells }) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const collect = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const { Batch, LennardJones, configureNative, getThreads } = await import('../dist/index.js');
  configureNative({ backend: 'cpu' });
  // Load the addon and run every JS path once on a tiny batch, so the baseline holds everything but data.
  const tiny = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 1.1]] }], { units: 'lj' });
  new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }).compute(tiny, { stress: true });
  await collect();
  const base = status();
  resetPeak();
  const batch = makeBatch(Batch, cells);
  const creation = status();
  await collect();
  const stored = status();
  resetPeak();
  const model = new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 });
  model.compute(batch, { stress: true });
  const computed = status();
  return {
    atoms: batch.numAtoms,
    threads: getThreads(),
    creationPeak: creation.hwm - base.rss,
    batch: stored.rss - base.rss,
    computePeak: computed.hwm - base.rss,
    modelPeak: computed.hwm - stored.rss,
    neighborBytes: model.neighborStats().bytes,
  };
}

async function measureLammps(cells) {
  // `run 0` builds ghosts and the neighbor list and prints the memory line.
  const run = (c) => runLammps(ljInput({ cells: c, steps: 0, neighEvery: 20, thermo: 1 }));
  const base = await run(1);
  const full = await run(cells);
  return { rank: rankMemoryMiB(full.log) * 2 ** 20, rssDelta: (full.peakRssMiB - base.peakRssMiB) * 2 ** 20 };
}

if (!(await childMain(measureHookmd))) {
  const start = machineLine();
  const rows = [];
  for (const cells of String(options.cells).split(',').map(Number)) {
    const h = await runChild(new URL(import.meta.url), { cells });
    const l = HAVE_LAMMPS ? await measureLammps(cells) : undefined;
    const perAtom = (bytes) => (bytes === undefined ? '—' : (bytes / h.atoms).toFixed(0));
    // The native storage is exactly 88 B/atom (positions, velocities, forces, masses, atomic numbers,
    // system index); at small sizes the batch's RSS also carries V8 heap pages that GC keeps.
    const native = 88 * h.atoms + h.modelPeak;
    rows.push([h.atoms, h.threads, perAtom(h.batch), perAtom(h.modelPeak), perAtom(h.neighborBytes), perAtom(native), perAtom(h.computePeak), perAtom(h.creationPeak), perAtom(l?.rank), perAtom(l?.rssDelta)]);
  }
  console.log('## lj-memory — bytes per atom, LJ fcc ρ 0.8442, rc 2.5σ, skin 0.3σ\n');
  console.log(`${start}; \`node bench/lj-memory.mjs --cells ${options.cells}\`.\n`);
  console.log(
    markdownTable(
      ['atoms', 'hookmd threads', 'hookmd batch (RSS)', 'LennardJones peak (RSS)', 'of which neighbor state', 'native storage + LennardJones peak', 'batch + LennardJones peak (RSS)', 'Batch.fromSystems peak (RSS)', 'LAMMPS rank memory', 'LAMMPS peak RSS − 4-atom run'],
      rows,
    ),
  );
}
