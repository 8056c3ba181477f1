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
