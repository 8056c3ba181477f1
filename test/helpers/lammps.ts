// Runs LAMMPS (Debian's `lmp`, one process, one thread) on an input script. Tests skip, saying so, only when
// `lmp` is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `lmp` runs here. */
export const haveLammps: boolean = spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0;

/** Why LAMMPS tests are skipped here (empty when they run). */
export const lammpsSkipReason: string = haveLammps ? '' : 'skipped: no lmp (apt-get install lammps)';

/** Runs `input` in a scratch directory; returns LAMMPS's screen output. */
export function runLammps(input: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-lmp-'));
  try {
    writeFileSync(join(dir, 'in.test'), input);
    return execFileSync('lmp', ['-in', 'in.test', '-log', 'none'], { cwd: dir, encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' }, maxBuffer: 1 << 26 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
