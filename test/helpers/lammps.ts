// Runs Debian's LAMMPS (`lmp`, apt-get install lammps) on an input script in a scratch folder, for tests
// that compare against it. Tests skip, saying so, only when no `lmp` exists.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findLammps(): string | undefined {
  for (const lmp of ['lmp', 'lmp_serial', 'lmp_stable']) {
    const probe = spawnSync(lmp, ['-h'], { stdio: 'ignore' });
    if (probe.status === 0) return lmp;
  }
  return undefined;
}

/** The LAMMPS executable, or undefined. */
export const lammps: string | undefined = findLammps();

/** Why LAMMPS tests are skipped here (empty when they run). */
export const lammpsSkipReason: string = lammps === undefined ? 'skipped: no LAMMPS executable (apt-get install lammps)' : '';

/** Folder of the potential files Debian's lammps-data installs. */
export const LAMMPS_POTENTIALS = '/usr/share/lammps/potentials';

/**
 * Runs `input` (a LAMMPS script) with the `files` written next to it, one thread; returns its screen output
 * and the text of each file named in `outputs` that the script wrote. Throws with LAMMPS's output when it fails.
 */
export function runLammps(
  input: string,
  files: Record<string, string> = {},
  outputs: readonly string[] = [],
): { stdout: string; outputs: Record<string, string> } {
  if (lammps === undefined) throw new Error(lammpsSkipReason);
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-lmp-'));
  try {
    writeFileSync(join(dir, 'in.lmp'), input);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const run = spawnSync(lammps, ['-in', 'in.lmp', '-log', 'none', '-nocite'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, OMP_NUM_THREADS: '1' },
      maxBuffer: 1 << 28,
    });
    if (run.status !== 0) throw new Error(`lmp failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    return { stdout: run.stdout, outputs: Object.fromEntries(outputs.map((name) => [name, readFileSync(join(dir, name), 'utf8')])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function findMpirun(): string | undefined {
  const probe = spawnSync('mpirun', ['--version'], { stdio: 'ignore' });
  return probe.status === 0 ? 'mpirun' : undefined;
}

/** Why multi-partition LAMMPS tests (neb, temper) are skipped here (empty when they run). */
export const mpiSkipReason: string = lammps === undefined ? lammpsSkipReason : findMpirun() === undefined ? 'skipped: no mpirun (apt-get install openmpi-bin)' : '';

/**
 * Runs `input` on `partitions` partitions of one MPI rank each (`mpirun -np P lmp -partition Px1`, as LAMMPS's
 * neb and temper need), with the `files` written next to it; returns the universe output (rank 0's screen).
 */
export function runLammpsPartitions(input: string, partitions: number, files: Record<string, string> = {}): string {
  if (mpiSkipReason !== '') throw new Error(mpiSkipReason);
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-lmp-'));
  try {
    writeFileSync(join(dir, 'in.lmp'), input);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    // More partitions than cores, and CI runs as root: OpenMPI refuses both unless told.
    const args = ['--allow-run-as-root', '--oversubscribe', '-np', String(partitions), lammps as string, '-partition', `${partitions}x1`, '-in', 'in.lmp', '-log', 'none', '-nocite'];
    const run = spawnSync('mpirun', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' }, maxBuffer: 1 << 28 });
    if (run.status !== 0) throw new Error(`mpirun lmp failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    return run.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The numbers of the first thermo row under the header that starts with `header` ('Step PotEng Pxx'). */
export function thermoRow(output: string, header: string): number[] {
  const lines = output.split('\n');
  const at = lines.findIndex((line) => line.trim().startsWith(header));
  if (at < 0) throw new Error(`no thermo header '${header}' in the LAMMPS output:\n${output}`);
  return (lines[at + 1] ?? '').trim().split(/\s+/).map(Number);
}
