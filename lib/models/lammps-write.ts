// Writes the files of a potential that LAMMPS reads (SNAP's `.snapcoeff`/`.snapparam`/`.snap`, ML-IAP's
// `.mliap.model`/`.mliap.descriptor`/`.mliap`): each one first to a hidden temporary file beside it, then
// renamed over the final name, so that a reader never sees half a file and a failed save leaves the old
// files as they were. Numbers go in as JavaScript prints them (String(x)), the shortest decimal that reads
// back as the same double, so a saved model reloads bit for bit.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { HookmdError, HookmdTypeError } from '../errors.js';
import { showValue } from '../describe-value.js';

/** One file to write: its path and its whole text. */
export interface LammpsFile {
  readonly path: string;
  readonly text: string;
}

/** Checks a save prefix: a non-empty path without a trailing separator. */
export function checkPrefix(model: string, prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix === '' || /[\\/]$/.test(prefix)) {
    throw new HookmdTypeError('INVALID_ARGUMENT', `${model}.save: prefix must be a file path without an extension (e.g. 'out/Mo'), got ${showValue(prefix)}`, { field: 'prefix', value: prefix });
  }
  return prefix;
}

/** Writes every file (its folder created); all temporary files are written before any is renamed. Throws WRITE_FAILED naming the file. */
export function writeLammpsFiles(model: string, files: readonly LammpsFile[]): void {
  const partials: string[] = [];
  let current = '';
  try {
    for (const { path, text } of files) {
      current = path;
      mkdirSync(dirname(path), { recursive: true });
      const partial = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}`);
      partials.push(partial);
      writeFileSync(partial, text);
    }
    files.forEach(({ path }, k) => {
      current = path;
      renameSync(partials[k] as string, path);
    });
  } catch (error) {
    for (const partial of partials) rmSync(partial, { force: true });
    throw new HookmdError('WRITE_FAILED', `${model}.save: cannot write ${current}: ${(error as Error).message}`, { path: current }, { cause: error });
  }
}
