// What the structure readers (POSCAR, CIF, LAMMPS data) share: reading a file's text with a size limit, and
// a line cursor whose errors name the reader, the file and the 1-based line.
import { HookmdError } from '../errors.js';
import { readRegularFile } from '../regular-file.js';

/** Largest structure file read whole (bytes); extxyz, which streams, has its own limits. */
export const MAX_STRUCTURE_FILE_BYTES: number = 512 * 1024 * 1024;

/** The text of `path`; READ_FAILED (naming `operation`) when it cannot be read or is too large. */
export function readStructureText(operation: string, path: string): string {
  try {
    return readRegularFile(path, MAX_STRUCTURE_FILE_BYTES, 'a structure file').toString('utf8');
  } catch (error) {
    throw new HookmdError('READ_FAILED', `${operation}: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
}

/** Lines of a text with their 1-based numbers, and errors that cite them. */
export class LineCursor {
  readonly lines: string[];
  readonly #code: string;
  readonly #operation: string;
  readonly #file: string;
  #next = 0;

  /** `code` is the error code of every failure (e.g. POSCAR_PARSE); messages start `${operation}: ${file}:${line}:`. */
  constructor(text: string, code: string, operation: string, file: string) {
    this.lines = text.split(/\r?\n/);
    if (this.lines[this.lines.length - 1] === '') this.lines.pop();
    this.#code = code;
    this.#operation = operation;
    this.#file = file;
  }

  /** An error naming the file and `line` (1-based; default: the line last read), with `{ file, line }` as details. */
  error(message: string, line: number = this.#next, code: string | undefined = this.#code, cause?: unknown): HookmdError {
    return new HookmdError(code ?? this.#code, `${this.#operation}: ${this.#file}:${line}: ${message}`, { file: this.#file, line }, cause === undefined ? undefined : { cause });
  }

  /** 1-based number of the line last read. */
  get line(): number {
    return this.#next;
  }

  get done(): boolean {
    return this.#next >= this.lines.length;
  }

  /** The next line's text; `what` names it when the file ends first. */
  next(what: string): string {
    if (this.#next >= this.lines.length) throw this.error(`the file ends before ${what}`, this.lines.length);
    return this.lines[this.#next++] as string;
  }

  /** The next line split on whitespace. */
  tokens(what: string): string[] {
    return this.next(what).trim().split(/\s+/).filter((t) => t !== '');
  }

  /** `token` as a finite number (Fortran D exponents accepted), else an error naming `what`. */
  number(token: string | undefined, what: string): number {
    const value = Number((token ?? '').replace(/[dD]/, 'e'));
    if (token === undefined || token === '' || !Number.isFinite(value)) throw this.error(`${what}: expected a number, got '${token ?? ''}'`);
    return value;
  }

  /** `count` numbers from the start of `tokens`. */
  numbers(tokens: readonly string[], count: number, what: string): number[] {
    if (tokens.length < count) throw this.error(`${what}: expected ${count} numbers, got ${tokens.length}`);
    return tokens.slice(0, count).map((t) => this.number(t, what));
  }
}

/** det of a 3×3 given as rows. */
export function det3(m: readonly (readonly number[])[]): number {
  const [a, b, c] = m;
  return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

function cross(u: readonly number[], v: readonly number[]): number[] {
  return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
}

function dot(u: readonly number[], v: readonly number[]): number {
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

/** x = s·H for fractional s and cell rows H. */
export function fractionalToCartesian(s: readonly number[], cell: readonly (readonly number[])[]): number[] {
  return [0, 1, 2].map((c) => s[0] * cell[0][c] + s[1] * cell[1][c] + s[2] * cell[2][c]);
}

/** s = x·H⁻¹ for Cartesian x and cell rows H (s_k = x·(h_{k+1} × h_{k+2}) / det H). */
export function cartesianToFractional(x: readonly number[], cell: readonly (readonly number[])[]): number[] {
  const [a, b, c] = cell;
  const det = det3(cell);
  return [dot(x, cross(b, c)) / det, dot(x, cross(c, a)) / det, dot(x, cross(a, b)) / det];
}
