// LAMMPS (`lmp`, 1 process, 1 OpenMP thread) on bench/in.lj's geometry, for bench/lj-forces.mjs and
// bench/lj-memory.mjs: the generated input and the parsing of LAMMPS's timing breakdown and memory line.
import { spawnSync } from 'node:child_process';

import { runExternal, tempFile } from './harness.mjs';

/** Whether `lmp` runs here. */
export const HAVE_LAMMPS = spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0;

/**
 * bench/in.lj's lattice and force field in a `cells`³ box (20 → 32,000 atoms), nearly at rest, run for
 * `steps` NVE steps with a neighbor build every `neighEvery` steps and thermo (energy) only every `thermo`.
 */
export function ljInput({ cells, steps, neighEvery, thermo }) {
  return [
    'units lj',
    'atom_style atomic',
    'lattice fcc 0.8442',
    `region box block 0 ${cells} 0 ${cells} 0 ${cells}`,
    'create_box 1 box',
    'create_atoms 1 box',
    'mass 1 1.0',
    // Tiny velocities: the lattice barely moves, so every step costs one force evaluation.
    'velocity all create 1e-6 87287 loop geom',
    'pair_style lj/cut 2.5',
    'pair_coeff 1 1 1.0 1.0 2.5',
    'neighbor 0.3 bin',
    `neigh_modify delay 0 every ${neighEvery} check no`,
    'fix 1 all nve',
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

/** Seconds (avg column) in one row of the MPI task timing breakdown: 'Pair', 'Neigh', ... */
export function sectionSeconds(log, section) {
  const match = new RegExp(`^${section}\\s*\\|\\s*[\\d.eE+-]+\\s*\\|\\s*([\\d.eE+-]+)`, 'm').exec(log);
  if (match === null) throw new Error(`no '${section}' row in the LAMMPS timing breakdown`);
  return Number(match[1]);
}

/** "Neighbor list builds = N". */
export function neighborBuilds(log) {
  const match = /Neighbor list builds = (\d+)/.exec(log);
  if (match === null) throw new Error('no neighbor build count in the LAMMPS log');
  return Number(match[1]);
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
