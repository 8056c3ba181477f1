// One writer per output file: two `hookmd relax --resume` processes on one --out would both see the same
// systems missing and both write them. A lock file beside the output (`relaxed.xyz.lock`, holding the
// writer's pid) is created exclusively; one left by a process that no longer runs is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

import { HookmdError } from '../errors.js';
import { isAlive } from '../io/atomic-write.js';

/**
 * Takes the lock of `output` for this process and returns its release; OUTPUT_LOCKED (exit code 2) when
 * another running process holds it. `flag` names the option in the message.
 *
 * @example
 * const release = lockOutput('relaxed.xyz', '--out');
 * try { ... } finally { release(); }
 */
export function lockOutput(output: string, flag: string): () => void {
  const lock = `${output}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new HookmdError('OUTPUT_LOCKED', `${flag}: ${output} is being written by another hookmd process (pid ${holder}, lock file ${lock}); wait for it to finish, or give this run its own ${flag} (--shard i/N splits one input between runs)`, { path: output, lock, pid: holder });
    }
    // Left behind by a process that ended without releasing it (killed): take it over.
    rmSync(lock, { force: true });
  }
  throw new HookmdError('OUTPUT_LOCKED', `${flag}: cannot take the lock file ${lock}`, { path: output, lock });
}
