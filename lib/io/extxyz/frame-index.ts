// Where each frame of an extxyz file starts and ends, in bytes, with a few keys of its comment line, found
// without parsing the atom lines: what `--resume` and `hookmd merge` need to skip, reorder and copy frames
// of files that may hold millions of them. Frames are appended whole, each ending with a newline, so a
// write cut short (kill -9, a full disk) leaves a last frame with fewer lines than its atom count asks for:
// that torn tail is reported, never taken for a frame.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

import { convertValue, splitEntries } from './keyvalue.js';
import { parseError } from './frame.js';
import { showValue } from '../../describe-value.js';

/** One complete frame: bytes [start, end) of the file, and the requested keys of its comment line. */
export interface FrameExtent {
  readonly start: number;
  readonly end: number;
  /** 1-based line number of the frame's atom-count line. */
  readonly line: number;
  /** The requested comment-line keys the frame has, converted as the reader converts them. */
  readonly info: Readonly<Record<string, unknown>>;
}

/** The frames of a file, and what follows the last complete one. */
export interface ExtxyzIndex {
  readonly frames: readonly FrameExtent[];
  /** Bytes of the file taken by whole frames (and the blank lines between them). */
  readonly complete: number;
  /** Bytes after `complete`: a frame cut short by an interrupted write, or 0. */
  readonly torn: number;
}

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;
const COUNT = /^\+?\d+$/;

/**
 * Indexes the frames of the extxyz file at `path`, keeping the comment-line keys named in `keys`. A
 * malformed frame before the end is EXTXYZ_PARSE (with the line); an incomplete one at the end is `torn`.
 * Outputs being resumed or merged end every frame with a newline, and a last line without one is a write
 * cut short; `unterminatedLastLine` accepts it instead, as input files written by other tools may end so.
 *
 * @example
 * const { frames, torn } = indexExtxyz('relaxed.xyz', ['systemId']);
 * frames.map((f) => f.info.systemId); // [0, 3, 1, ...]
 */
export function indexExtxyz(path: string, keys: readonly string[], options: { unterminatedLastLine?: boolean } = {}): ExtxyzIndex {
  const wanted = new Set(keys);
  const frames: FrameExtent[] = [];
  const fd = openSync(path, 'r');
  const chunkBytes = Math.max(1, Math.min(CHUNK_BYTES, fstatSync(fd).size));
  const chunk = Buffer.allocUnsafe(chunkBytes);
  // The frame being read: where it starts, its count line, and the atom lines still to come.
  let frameStart = 0;
  let frameLine = 0;
  let remaining = -1;
  let info: Record<string, unknown> = {};
  let inComment = false;
  let partial: Buffer[] = [];
  let offset = 0;
  let lineNumber = 0;
  let complete = 0;
  const line = (bytes: Buffer, lineStart: number, lineEnd: number): void => {
    lineNumber += 1;
    if (inComment) {
      inComment = false;
      info = commentKeys(bytes.toString('utf8'), wanted, path, lineNumber);
    } else if (remaining < 0) {
      const text = bytes.toString('utf8').trim();
      if (text === '') {
        complete = lineEnd;
        return;
      }
      if (!COUNT.test(text)) throw parseError('indexExtxyz', path, lineNumber, `expected an atom count, got ${showValue(text.slice(0, 40))}`);
      [frameStart, frameLine, remaining, inComment] = [lineStart, lineNumber, Number(text), true];
      return;
    } else {
      remaining -= 1;
    }
    if (remaining === 0) {
      frames.push({ start: frameStart, end: lineEnd, line: frameLine, info });
      complete = lineEnd;
      remaining = -1;
    }
  };
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunkBytes, offset);
      if (read === 0) break;
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1 && nl < read; nl = chunk.indexOf(NEWLINE, start)) {
        partial.push(chunk.subarray(start, nl));
        const bytes = Buffer.concat(partial);
        const lineEnd = offset + nl + 1;
        line(bytes, lineEnd - bytes.length - 1, lineEnd);
        partial = [];
        start = nl + 1;
      }
      if (start < read) partial.push(Buffer.from(chunk.subarray(start, read)));
      offset += read;
    }
    if (partial.length > 0 && options.unterminatedLastLine === true) {
      const bytes = Buffer.concat(partial);
      line(bytes, offset - bytes.length, offset);
    }
  } finally {
    closeSync(fd);
  }
  return { frames, complete, torn: offset - complete };
}

function commentKeys(comment: string, wanted: ReadonlySet<string>, path: string, lineNumber: number): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  if (wanted.size === 0) return info;
  let entries;
  try {
    entries = splitEntries(comment);
  } catch (error) {
    throw parseError('indexExtxyz', path, lineNumber, (error as Error).message, error);
  }
  for (const { key, raw } of entries) if (wanted.has(key)) info[key] = convertValue(raw, key);
  return info;
}
