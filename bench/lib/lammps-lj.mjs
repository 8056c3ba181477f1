// LAMMPS (`lmp`, 1 process, 1 OpenMP thread) on bench/in.lj's geometry, for bench/lj-forces.mjs and
// bench/lj-memory.mjs: the generated input and the parsing of LAMMPS's timing breakdown and memory line.
import { spawnSync } from 'node:child_process';

import { runExternal, tempFile } from './harness.mjs';

/** Whether `lmp` runs here. */
export const HAVE_LAMMPS = spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0;

/**
 * bench/in.lj's lattice and force field in a `cells`³ box (20 → 32,000 atoms), run for `steps` NVE steps
 * with a neighbor build every `neighEvery` steps and thermo (energy) only every `thermo`. Without `melt`
 * the lattice is nearly at rest (every step costs one force evaluation on the perfect lattice); with
 * `melt` it first runs in.lj itself (T = 1.44) for `melt` steps, and the timed run starts from that liquid.
 */
export function ljInput({ cells, steps, neighEvery, thermo, melt = 0 }) {
  return [
    'units lj',
    'atom_style atomic',
    'lattice fcc 0.8442',
    `region box block 0 ${cells} 0 ${cells} 0 ${cells}`,
    'create_box 1 box',
    'create_atoms 1 box',
    'mass 1 1.0',
    `velocity all create ${melt > 0 ? 1.44 : 1e-6} 87287 loop geom`,
    'pair_style lj/cut 2.5',
    'pair_coeff 1 1 1.0 1.0 2.5',
    'neighbor 0.3 bin',
    'fix 1 all nve',
    ...(melt > 0 ? ['neigh_modify delay 0 every 20 check no', `run ${melt}`] : []),
    `neigh_modify delay 0 every ${neighEvery} check no`,
    `thermo ${thermo}`,
    `run ${steps}`,
    '',
  ].join('\n');
}

/** Runs one input; returns LAMMPS's screen output and its peak RSS (MiB, from /usr/bin/time). */
export async function runLammps(input) {
  const file = tempFile('in.bench', input);
  try {
    const run = await runExternal('lmp', ['-in', file.path, '-log', 'none'], { env: { OMP_NUM_THREADS: '1' } });
    return { log: run.stdout, peakRssMiB: run.peakRssMiB };
  } finally {
    file.cleanup();
  }
}

/** Seconds (avg column) in one row of the last run's MPI task timing breakdown: 'Pair', 'Neigh', ... */
export function sectionSeconds(log, section) {
  const matches = [...log.matchAll(new RegExp(`^${section}\\s*\\|\\s*[\\d.eE+-]+\\s*\\|\\s*([\\d.eE+-]+)`, 'gm'))];
  if (matches.length === 0) throw new Error(`no '${section}' row in the LAMMPS timing breakdown`);
  return Number(matches[matches.length - 1][1]);
}

/** "Neighbor list builds = N" of the last run. */
export function neighborBuilds(log) {
  const matches = [...log.matchAll(/Neighbor list builds = (\d+)/g)];
  if (matches.length === 0) throw new Error('no neighbor build count in the LAMMPS log');
  return Number(matches[matches.length - 1][1]);
}

/** "Per MPI rank memory allocation (min/avg/max) = a | b | c Mbytes": the average, in MiB. */
export function rankMemoryMiB(log) {
  const match = /Per MPI rank memory allocation \(min\/avg\/max\) = [\d.]+ \| ([\d.]+) \| [\d.]+ Mbytes/.exec(log);
  if (match === null) throw new Error('no memory line in the LAMMPS log');
  return Number(match[1]);
}

/** E_pair at step 0 (per atom, lj units). */
export function firstEnergy(log) {
  const match = /Step\s+Temp\s+E_pair[^\n]*\n\s*0\s+\S+\s+(\S+)/.exec(log);
  return match === null ? undefined : Number(match[1]);
}
