// Splits a byte stream into text lines with a cap on the length of one line. Node's readline keeps a line
// however long it grows, so a file with no newline (/dev/zero) or a 600 MB line ends the process in V8's
// string limit or heap; here a line longer than the cap is a typed error as soon as the cap is passed,
// with at most one chunk beyond it in memory.
import { closeSync, openSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** Thrown (by the caller's `tooLong`) when a line exceeds the cap; `line` is its 1-based number. */
export type LineTooLong = (line: number) => Error;

const CHUNK_BYTES = 1 << 16;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Feeds chunks in, gets whole lines out (LF or CRLF; the line end is not part of the line). A line of
 * more than `maxBytes` bytes throws `tooLong(lineNumber)`.
 *
 * @example
 * const splitter = new LineSplitter(1 << 20, (line) => new Error(`line ${line} is too long`));
 * for (const line of splitter.push(chunk)) console.log(line); // lazily, as they complete
 * for (const line of splitter.end()) console.log(line);
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #tooLong: LineTooLong;
  readonly #decoder = new TextDecoder('utf-8');
  #partial: Buffer[] = [];
  #partialBytes = 0;
  #lines = 0;

  constructor(maxBytes: number, tooLong: LineTooLong) {
    this.#maxBytes = maxBytes;
    this.#tooLong = tooLong;
  }

  /**
   * The lines that `chunk` completes, one at a time: the lines before one over the limit are delivered
   * before the error, so a reader sees every good frame ahead of it.
   */
  *push(chunk: Buffer): Generator<string, void, undefined> {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.#append(chunk.subarray(start, end));
      yield this.#take();
      start = end + 1;
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  /** The last line, when the input does not end with a newline. */
  end(): string[] {
    return this.#partialBytes === 0 && this.#partial.length === 0 ? [] : [this.#take()];
  }

  #append(piece: Buffer): void {
    this.#partialBytes += piece.length;
    if (this.#partialBytes > this.#maxBytes) throw this.#tooLong(this.#lines + 1);
    // Chunks are reused by the sync reader, so keep a copy of what stays past this call.
    this.#partial.push(Buffer.from(piece));
  }

  #take(): string {
    const bytes = this.#partial.length === 1 ? this.#partial[0] : Buffer.concat(this.#partial, this.#partialBytes);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    this.#partial = [];
    this.#partialBytes = 0;
    this.#lines += 1;
    return this.#decoder.decode(bytes.subarray(0, end));
  }
}

/**
 * The lines of the file at `path`, read synchronously a chunk at a time (for `readExtxyz`).
 *
 * @example
 * for (const line of readLinesSync('in.xyz', 1 << 24, tooLong)) parser.line(line, ++n);
 */
export function* readLinesSync(path: string, maxBytes: number, tooLong: LineTooLong): Generator<string, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    const splitter = new LineSplitter(maxBytes, tooLong);
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let read = readSync(fd, chunk, 0, CHUNK_BYTES, null); read > 0; read = readSync(fd, chunk, 0, CHUNK_BYTES, null)) {
      yield* splitter.push(chunk.subarray(0, read));
    }
    yield* splitter.end();
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of an open file, read asynchronously a chunk at a time (for `streamExtxyz`); the caller
 * closes the handle.
 *
 * @example
 * for await (const line of readLines(handle, 1 << 24, tooLong)) parser.line(line, ++n);
 */
export async function* readLines(handle: FileHandle, maxBytes: number, tooLong: LineTooLong): AsyncGenerator<string, void, undefined> {
  const splitter = new LineSplitter(maxBytes, tooLong);
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    yield* splitter.push(chunk.subarray(0, bytesRead));
  }
  yield* splitter.end();
}
