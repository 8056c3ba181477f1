// One writer per resumed output: two `hookmd relax --resume` processes on one --out would both see the same
// systems missing and both append them. The lock is the kernel's (flock on `relaxed.xyz.lock`, through the
// addon): it goes with the process however the process ends, so the task Slurm requeues after a SIGKILL
// takes it at once, and a second live writer is refused. The file holds the holder's pid for the message.
import { readFileSync, writeFileSync } from 'node:fs';

import { HookmdError } from '../errors.js';
import { loadBinding } from '../native/index.js';

/** The pid a lock file names, for the message ('' when it names none). */
function holderOf(lock: string): string {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? `pid ${pid}, ` : '';
  } catch {
    return '';
  }
}

/**
 * Takes the lock of `output` for this process and returns its release; OUTPUT_LOCKED (exit code 2) while
 * another process holds it. `flag` names the option in the message.
 *
 * @example
 * const release = lockOutput('relaxed.xyz', '--out');
 * try { ... } finally { release(); }
 */
export function lockOutput(output: string, flag: string): () => void {
  const lock = `${output}.lock`;
  const binding = loadBinding();
  const fd = binding.lockFile(lock);
  if (fd < 0) {
    throw new HookmdError('OUTPUT_LOCKED', `${flag}: ${output} is being written by another hookmd process (${holderOf(lock)}lock file ${lock}); wait for it to finish, or give this run its own ${flag} (--shard i/N splits one input between runs)`, { path: output, lock });
  }
  writeFileSync(lock, `${process.pid}\n`);
  let held = true;
  return () => {
    if (held) binding.unlockFile(lock, fd);
    held = false;
  };
}

/** Locks every output of a resumed run (none without --resume); the release lets go of all of them. */
export function lockResumedOutputs(resume: boolean | undefined, outputs: ReadonlyArray<readonly [string, string | undefined]>): () => void {
  const releases: Array<() => void> = [];
  try {
    if (resume === true) for (const [flag, path] of outputs) if (path !== undefined) releases.push(lockOutput(path, flag));
  } catch (error) {
    for (const release of releases) release();
    throw error;
  }
  return () => {
    for (const release of releases) release();
  };
}
