// Memory of the LJ benchmark geometry (fcc ρ = 0.8442, rc = 2.5σ, skin 0.3σ) or, with --model eam, of the
// in.eam one (Cu fcc a = 3.615 Å, Cu_u3.eam, skin 1 Å), at 32,000 and 1,000,188 atoms. hookmd, in a fresh
// child process per size: resident bytes per atom of the batch alone, of the model at the peak of its first
// compute (list build included) above that, and of both, each measured against the process's RSS before that
// phase. LAMMPS: its own "Per MPI rank memory allocation" and its peak RSS minus the peak RSS of a 4-atom run
// of the same input. Usage: node bench/lj-memory.mjs [--cells 20,63] [--model lj|eam]
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { childMain, machineLine, markdownTable, parseArgs, runChild } from './lib/harness.mjs';
import { HAVE_LAMMPS, ljInput, rankMemoryMiB, runLammps } from './lib/lammps-lj.mjs';

const POTENTIAL = '/usr/share/lammps/potentials/Cu_u3.eam';
/** Per model: the lattice (constant, element, units), the hookmd model and LAMMPS's input at `run 0`. */
const MODELS = {
  lj: {
    title: 'LJ fcc ρ 0.8442, rc 2.5σ, skin 0.3σ',
    a: Math.cbrt(4 / 0.8442),
    z: 18,
    units: 'lj',
    make: (hookmd) => new hookmd.LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5, skin: 0.3 }),
    lammps: (cells) => ljInput({ cells, steps: 0, neighEvery: 20, thermo: 1 }),
  },
  eam: {
    title: 'Cu fcc a 3.615 Å, Cu_u3.eam (rc 4.95 Å), skin 1 Å',
    a: 3.615,
    z: 29,
    units: 'metal',
    make: (hookmd) => new hookmd.EAM({ file: POTENTIAL, skin: 1 }),
    lammps: (cells) => ['units metal', 'atom_style atomic', 'lattice fcc 3.615', `region box block 0 ${cells} 0 ${cells} 0 ${cells}`,
      'create_box 1 box', 'create_atoms 1 box', 'pair_style eam', `pair_coeff 1 1 ${POTENTIAL}`, 'neighbor 1.0 bin', 'thermo 1', 'run 0', ''].join('\n'),
  },
};

const options = parseArgs({ cells: '20,63', model: 'lj' });
const MODEL = MODELS[options.model];
if (MODEL === undefined) throw new Error(`--model must be one of ${Object.keys(MODELS).join(', ')}, got ${options.model}`);

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
  const { a } = MODEL;
  const n = 4 * cells ** 3;
  const positions = new Float64Array(3 * n);
  const basis = [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]];
  let k = 0;
  for (let i = 0; i < cells; i++) for (let j = 0; j < cells; j++) for (let l = 0; l < cells; l++) for (const q of basis) {
    positions[k++] = (i + q[0]) * a;
    positions[k++] = (j + q[1]) * a;
    positions[k++] = (l + q[2]) * a;
  }
  const system = { positions, atomicNumbers: new Int32Array(n).fill(MODEL.z), cell: [cells * a, 0, 0, 0, cells * a, 0, 0, 0, cells * a], pbc: true };
  return Batch.fromSystems([system], { units: MODEL.units });
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
  const hookmd = await import('../dist/index.js');
  const { Batch, configureNative, getThreads } = hookmd;
  configureNative({ backend: 'cpu' });
  // Load the addon and run every JS path once on a tiny batch, so the baseline holds everything but data.
  const tiny = Batch.fromSystems([{ atomicNumbers: [MODEL.z, MODEL.z], positions: [[0, 0, 0], [0, 0, 0.8 * MODEL.a]] }], { units: MODEL.units });
  MODEL.make(hookmd).compute(tiny, { stress: true });
  await collect();
  const base = status();
  resetPeak();
  const batch = makeBatch(Batch, cells);
  const creation = status();
  await collect();
  const stored = status();
  resetPeak();
  const model = MODEL.make(hookmd);
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
  const run = (c) => runLammps(MODEL.lammps(c));
  const base = await run(1);
  const full = await run(cells);
  return { rank: rankMemoryMiB(full.log) * 2 ** 20, rssDelta: (full.peakRssMiB - base.peakRssMiB) * 2 ** 20 };
}

if (!(await childMain(measureHookmd))) {
  const start = machineLine();
  const rows = [];
  for (const cells of String(options.cells).split(',').map(Number)) {
    const h = await runChild(new URL(import.meta.url), { cells, model: options.model });
    const l = HAVE_LAMMPS ? await measureLammps(cells) : undefined;
    const perAtom = (bytes) => (bytes === undefined ? '—' : (bytes / h.atoms).toFixed(0));
    // The native storage is exactly 88 B/atom (positions, velocities, forces, masses, atomic numbers,
    // system index); at small sizes the batch's RSS also carries V8 heap pages that GC keeps.
    const native = 88 * h.atoms + h.modelPeak;
    rows.push([h.atoms, h.threads, perAtom(h.batch), perAtom(h.modelPeak), perAtom(h.neighborBytes), perAtom(native), perAtom(h.computePeak), perAtom(h.creationPeak), perAtom(l?.rank), perAtom(l?.rssDelta), h.peakRssMiB.toFixed(1)]);
  }
  console.log(`## lj-memory — bytes per atom, ${MODEL.title}\n`);
  console.log(`${start}; \`node bench/lj-memory.mjs --cells ${options.cells} --model ${options.model}\`.\n`);
  console.log(
    markdownTable(
      ['atoms', 'hookmd threads', 'hookmd batch (RSS)', 'model peak (RSS)', 'of which neighbor state', 'native storage + model peak', 'batch + model peak (RSS)', 'Batch.fromSystems peak (RSS)', 'LAMMPS rank memory', 'LAMMPS peak RSS − 4-atom run', 'hookmd process peak RSS (MiB)'],
      rows,
    ),
  );
}
