// Whole-file writes that either complete or leave nothing: the data goes to a temporary file in the
// target's directory (so the final rename stays on one filesystem and is atomic), which is renamed over
// the target only once everything has been written. Temporaries not yet renamed or removed are removed
// when the process exits, also through process.exit() (a second Ctrl-C), so none is left behind; those of a
// process that was killed are removed by the next one that writes the same file.
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

import { HookmdError, isHookmdError } from '../errors.js';

/** Appends a piece of the file's content. */
export type WriteChunk = (data: string | Uint8Array) => Promise<void>;

const live = new Set<string>();
let cleanupInstalled = false;

function removeLive(): void {
  for (const path of live) rmSync(path, { force: true });
  live.clear();
}

// Targets whose directory was searched for temporaries a killed process left.
const swept = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporaries of `path` that a process killed mid-write left (SIGKILL skips the exit handler):
 * `.<name>.<pid>.<hex>.tmp` of a pid that no longer runs. Once per target and process.
 */
function sweepStale(path: string): void {
  const target = resolve(path);
  if (swept.has(target)) return;
  swept.add(target);
  const prefix = `.${basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !isAlive(pid)) rmSync(join(dirname(target), name), { force: true, recursive: true });
  }
}

// A temporary sibling of `path`, tracked until it is renamed or removed.
function temporaryFor(path: string): string {
  sweepStale(path);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  if (!cleanupInstalled) {
    process.on('exit', removeLive);
    cleanupInstalled = true;
  }
  live.add(temporary);
  return temporary;
}

/**
 * A file written in full to a temporary sibling, then `commit()`ed over `path` (atomic rename) or
 * `discard()`ed; until then `path` keeps its old content. Used where the writer is a stream (a sink), not
 * one call (see {@link writeFileAtomic}).
 *
 * @example
 * const staged = new StagedFile('relaxed.xyz');
 * const sink = new ExtxyzSink(staged.temporary);
 * try { await run(sink); await staged.commit(); } catch (e) { await staged.discard(); throw e; }
 */
export class StagedFile {
  /** The file that `commit()` replaces. */
  readonly path: string;
  /** Where the new content is written meanwhile. */
  readonly temporary: string;

  constructor(path: string) {
    this.path = path;
    this.temporary = temporaryFor(path);
  }

  /** Renames the temporary over `path`; WRITE_FAILED (naming `operation`) if that fails. */
  async commit(operation: string): Promise<void> {
    try {
      await rename(this.temporary, this.path);
      live.delete(this.temporary);
    } catch (error) {
      await this.discard();
      throw new HookmdError('WRITE_FAILED', `${operation}: cannot write ${this.path}: ${(error as Error).message}`, { path: this.path, cause: error }, { cause: error });
    }
  }

  /** Removes the temporary; `path` is left as it was. */
  async discard(): Promise<void> {
    await rm(this.temporary, { force: true }).catch(() => undefined);
    live.delete(this.temporary);
  }
}

/**
 * Writes `path` atomically with the content that `produce` passes to `write`. Any failure removes the
 * temporary file: a typed hookmd error from `produce` (bad input) is rethrown as it is, anything else
 * becomes WRITE_FAILED naming `operation` and the path, with the cause.
 */
export async function writeFileAtomic(path: string, produce: (write: WriteChunk) => Promise<void>, operation: string): Promise<void> {
  const temporary = temporaryFor(path);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(temporary, 'wx');
    const file = handle;
    await produce(async (data) => {
      await file.writeFile(data);
    });
    await file.datasync();
    await file.close();
    handle = undefined;
    await rename(temporary, path);
    live.delete(temporary);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    live.delete(temporary);
    if (isHookmdError(error)) throw error;
    throw new HookmdError('WRITE_FAILED', `${operation}: cannot write ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
}
