// Runs a Python snippet under the interpreter that has ASE (Debian's python3-ase lives under /usr/bin/python3;
// the python3 first on PATH may lack it). Tests skip, saying so, only when no such interpreter exists.
import { execFileSync, spawnSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/python3', 'python3'];

function findAsePython(): string | undefined {
  for (const python of CANDIDATES) {
    const probe = spawnSync(python, ['-c', 'import ase'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return undefined;
}

/** The interpreter that can `import ase`, or undefined. */
export const asePython: string | undefined = findAsePython();

/** Why ASE tests are skipped here (empty when they run). */
export const aseSkipReason: string = asePython === undefined ? 'skipped: no python3 with ASE (apt-get install python3-ase)' : '';

/** Runs `script` with `input` as JSON on stdin; the script prints one JSON document. */
export function runAse<T>(script: string, input: unknown = null): T {
  if (asePython === undefined) throw new Error(aseSkipReason);
  const output = execFileSync(asePython, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(output) as T;
}

/**
 * Where .ci/run puts a newer ASE (pip's, in a venv) for the references Debian's 3.22 lacks, such as
 * ase.optimize.FIRE2 (ASE 3.23 and later); HOOKMD_NEW_ASE_PYTHON names another interpreter.
 */
export const NEW_ASE_VENV: string = `${process.env.XDG_CACHE_HOME ?? `${process.env.HOME ?? '/root'}/.cache`}/hookmd/ase-venv`;

function findNewAsePython(): string | undefined {
  const candidates = [process.env.HOOKMD_NEW_ASE_PYTHON, `${NEW_ASE_VENV}/bin/python`, ...CANDIDATES].filter((p): p is string => p !== undefined && p !== '');
  return candidates.find((python) => spawnSync(python, ['-c', 'from ase.optimize import FIRE2'], { stdio: 'ignore' }).status === 0);
}

/** An interpreter whose ASE has FIRE2 (3.23+), or undefined. */
export const newAsePython: string | undefined = findNewAsePython();

/** Why the newer-ASE references are skipped here (empty when they run). */
export const newAseSkipReason: string = newAsePython === undefined ? `skipped: no python3 with ASE >= 3.23 (bash .ci/run makes one in ${NEW_ASE_VENV})` : '';

/** runAse under the newer ASE. */
export function runNewAse<T>(script: string, input: unknown = null): T {
  if (newAsePython === undefined) throw new Error(newAseSkipReason);
  const output = execFileSync(newAsePython, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(output) as T;
}
