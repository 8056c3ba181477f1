// readExtxyz (whole text or file) and streamExtxyz (a file, line by line in constant memory). Files are
// read a chunk at a time through line-reader.ts, which stops a line at the maxLineBytes limit.
import { open } from 'node:fs/promises';

import { unitSystem } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdError, HookmdTypeError, isHookmdError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { ExtxyzFrameParser, type ReadExtxyzOptions } from './frame.js';
import { limitError } from './limits.js';
import { readLines, readLinesSync, type LineTooLong } from '../line-reader.js';
import { showText } from '../../describe-value.js';

function checkArguments(operation: string, path: unknown, options: ReadExtxyzOptions): void {
  if (typeof path !== 'string' || path === '') {
    const got = typeof path === 'string' ? 'an empty string' : typeof path;
    throw new HookmdTypeError('INVALID_PATH', `${operation}: expected a path or extxyz text, got ${showText(got)}`, { field: 'path', value: path });
  }
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${operation}: options must be an object`, { field: 'options', value: options });
  }
  checkKeys(operation, options, ['units', 'maxLineBytes', 'maxFrameAtoms']);
  unitSystem(options.units ?? 'metal');
}

function readFailed(operation: string, path: string, error: unknown): HookmdError {
  return new HookmdError('READ_FAILED', `${operation}: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
}

/**
 * Reads every frame of an extended XYZ file (ASE's format) into Systems. A string that contains a
 * newline is the text itself; any other string is a path. Malformed input throws EXTXYZ_PARSE with
 * the 1-based line number (`readExtxyz: traj.xyz:12: atom line has 3 columns, but Properties declares 4`).
 *
 * Mapping (docs/formats.md): `Lattice` → cell (rows), `pbc`, `energy`, `stress` (9 values or 6 Voigt)
 * → 3×3, `species`/`Z`/`pos`/`forces`/`masses` columns → fields, ASE `momenta` (or raw `velocities`,
 * `vel`) → velocities in Å/fs, other keys → `info`, other columns → `info.arrays`.
 *
 * @example
 * const systems = readExtxyz('relaxed.xyz');
 * const [water] = readExtxyz('3\nProperties=species:S:1:pos:R:3 energy=-14.2\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n');
 * water.energy; // -14.2
 */
export function readExtxyz(pathOrText: string, options: ReadExtxyzOptions = {}): System[] {
  checkArguments('readExtxyz', pathOrText, options);
  const isText = pathOrText.includes('\n');
  const file = isText ? '<text>' : pathOrText;
  const parser = new ExtxyzFrameParser('readExtxyz', file, options);
  const systems: System[] = [];
  let number = 0;
  const feed = (line: string): void => {
    number += 1;
    const system = parser.line(line, number);
    if (system !== undefined) systems.push(system);
  };
  if (isText) {
    const lines = pathOrText.split(/\r?\n/);
    // A final newline ends the last line; it does not start an empty one.
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach(feed);
  } else {
    // A chunk at a time, so a line over the limit (or a file with no newline) stops at the limit.
    try {
      for (const line of readLinesSync(pathOrText, parser.limits.maxLineBytes, lineTooLong('readExtxyz', file, parser.limits.maxLineBytes))) feed(line);
    } catch (error) {
      if (isHookmdError(error)) throw error;
      throw readFailed('readExtxyz', pathOrText, error);
    }
  }
  const last = parser.end(number);
  if (last !== undefined) systems.push(last);
  return systems;
}

function lineTooLong(operation: string, file: string, max: number): LineTooLong {
  return (line) => limitError(operation, file, line, `a line of more than ${max} bytes`, 'maxLineBytes', max);
}

/**
 * Streams the frames of an extended XYZ file one System at a time, reading it line by line: memory
 * stays constant however large the file. Yields exactly what `readExtxyz` returns; a malformed frame
 * throws EXTXYZ_PARSE when the stream reaches it, after every good frame before it was yielded.
 * Breaking out of the loop closes the file.
 *
 * @example
 * let lowest = Infinity;
 * for await (const system of streamExtxyz('dataset.xyz')) lowest = Math.min(lowest, system.energy ?? Infinity);
 */
export function streamExtxyz(path: string, options: ReadExtxyzOptions = {}): AsyncGenerator<System, void, undefined> {
  checkArguments('streamExtxyz', path, options);
  return frames(path, options);
}

async function* frames(path: string, options: ReadExtxyzOptions): AsyncGenerator<System, void, undefined> {
  // Opening first turns a missing file into READ_FAILED before any line is awaited.
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw readFailed('streamExtxyz', path, error);
  }
  const parser = new ExtxyzFrameParser('streamExtxyz', path, options);
  const lines = readLines(handle, parser.limits.maxLineBytes, lineTooLong('streamExtxyz', path, parser.limits.maxLineBytes));
  let number = 0;
  try {
    for await (const line of lines) {
      number += 1;
      const system = parser.line(line, number);
      if (system !== undefined) yield system;
    }
  } catch (error) {
    if (isHookmdError(error)) throw error;
    throw readFailed('streamExtxyz', path, error);
  } finally {
    await lines.return();
    await handle.close().catch(() => undefined);
  }
  const last = parser.end(number);
  if (last !== undefined) yield last;
}
