// Whole-file writes that either complete or leave nothing: the data goes to a temporary file in the
// target's directory (so the final rename stays on one filesystem and is atomic), which is synced and
// renamed over the target only once everything has been written.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { HookmdError, isHookmdError } from '../errors.js';

/** Appends a piece of the file's content. */
export type WriteChunk = (data: string | Uint8Array) => Promise<void>;

/**
 * Writes `path` atomically with the content that `produce` passes to `write`. Any failure removes the
 * temporary file: a typed hookmd error from `produce` (bad input) is rethrown as it is, anything else
 * becomes WRITE_FAILED naming `operation` and the path, with the cause.
 */
export async function writeFileAtomic(path: string, produce: (write: WriteChunk) => Promise<void>, operation: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    if (isHookmdError(error)) throw error;
    throw new HookmdError('WRITE_FAILED', `${operation}: cannot write ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
}
