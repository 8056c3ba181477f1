// Reads the three LAMMPS EAM potential file formats (DYNAMO funcfl, setfl, Finnis–Sinclair) into the tables
// as the file lists them; native/cpp/kernels/EamTables splines them. Values may span lines freely, as LAMMPS
// reads them. Every malformed input is an EAM_PARSE error naming the file and the line.
import { basename } from 'node:path';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { readRegularFile } from '../regular-file.js';
import { atomicNumber, chemicalSymbol, isAtomicNumber } from '../data/index.js';
import { showText, showValue } from '../describe-value.js';

/** 'funcfl' (`pair_style eam`), 'setfl' (`eam/alloy`) or 'fs' (`eam/fs`). */
export type EamFormat = 'funcfl' | 'setfl' | 'fs';

/** One element of a potential file. */
export interface EamElement {
  readonly symbol: string;
  readonly atomicNumber: number;
  /** Mass (amu) and lattice constant (Å) from the element's header line; `lattice` is its structure name. */
  readonly mass: number;
  readonly latticeConstant: number;
  readonly lattice: string;
}

/** The parsed content of a potential file: the grid and every tabulated function, in file order. */
export interface EamFileData {
  readonly format: EamFormat;
  readonly elements: readonly EamElement[];
  readonly nrho: number;
  readonly drho: number;
  readonly nr: number;
  readonly dr: number;
  readonly cutoff: number;
  /** elements × nrho. */
  readonly frho: Float64Array;
  /** setfl, funcfl: elements × nr; fs: elements² × nr (element a's block, function b at (a·n + b)·nr). */
  readonly rhor: Float64Array;
  /** funcfl: the effective charge Z(r) (nr); setfl, fs: r·φ(r) of pairs i ≥ j, row by row. */
  readonly z2r: Float64Array;
  /** The file's comment lines. */
  readonly comments: readonly string[];
}

/** Largest file read (bytes): the largest NIST potentials are a few MB. */
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** The most elements one file may describe (native/cpp/kernels/EamTables keeps species types in a byte). */
const MAX_ELEMENTS = 32;

/**
 * The largest table index native code may compute. Tables are indexed with 32-bit ints: a distance r < cutoff
 * lands at index cutoff/dr + 1, and every table holds (n + 1)·7 spline coefficients (EamEval.h).
 */
const MAX_TABLE_INDEX = 2 ** 31 - 1;
const SPLINE_STRIDE = 7;

class Cursor {
  readonly #lines: string[];
  readonly #file: string;
  #line = 0;
  #tokens: string[] = [];
  #token = 0;

  constructor(text: string, file: string) {
    this.#lines = text.split(/\r?\n/);
    this.#file = file;
  }

  /**
   * The most numbers the rest of the file can hold: each takes a character and a separator. A header that
   * declares more is refused before any table is allocated for it.
   */
  capacity(): number {
    let characters = 0;
    for (let k = this.#line; k < this.#lines.length; k++) characters += (this.#lines[k] ?? '').length + 1;
    return Math.ceil(characters / 2);
  }

  fail(message: string, line = this.#line): never {
    throw new HookmdError('EAM_PARSE', `EAM: ${this.#file}:${line}: ${message}`, { file: this.#file, line });
  }

  /** The next whole line (1-based number kept for messages); the token position moves to its end. */
  nextLine(what: string): string[] {
    if (this.#line >= this.#lines.length) this.fail(`the file ends before ${what}`, this.#lines.length);
    const text = this.#lines[this.#line++] ?? '';
    this.#tokens = [];
    this.#token = 0;
    return text.trim().split(/\s+/).filter((t) => t !== '');
  }

  /** The next number, reading further lines as needed (LAMMPS's grab()). */
  number(what: string): number {
    while (this.#token >= this.#tokens.length) {
      if (this.#line >= this.#lines.length) this.fail(`the file ends inside ${what}`, this.#lines.length);
      this.#tokens = (this.#lines[this.#line++] ?? '').trim().split(/\s+/).filter((t) => t !== '');
      this.#token = 0;
    }
    const token = this.#tokens[this.#token++] ?? '';
    const value = Number(token.replace(/[dD]/, 'e'));
    if (!Number.isFinite(value)) this.fail(`expected a number in ${what}, got '${token}'`);
    return value;
  }

  numbers(count: number, what: string, out: Float64Array, offset: number): void {
    for (let k = 0; k < count; k++) out[offset + k] = this.number(`${what} (value ${k + 1} of ${count})`);
  }

  /** The 1-based line of the first value left over, or 0 when only whitespace is left. */
  leftover(): number {
    if (this.#token < this.#tokens.length) return this.#line;
    for (let k = this.#line; k < this.#lines.length; k++) if ((this.#lines[k] ?? '').trim() !== '') return k + 1;
    return 0;
  }
}

function integer(cursor: Cursor, token: string | undefined, what: string, min: number): number {
  const value = Number(token);
  if (token === undefined || !Number.isInteger(value) || value < min) {
    cursor.fail(`${what} must be an integer >= ${min}, got '${token ?? ''}'`);
  }
  return value;
}

function positive(cursor: Cursor, token: string | undefined, what: string): number {
  const value = Number(token?.replace(/[dD]/, 'e'));
  if (token === undefined || !Number.isFinite(value) || value <= 0) cursor.fail(`${what} must be a number > 0, got '${token ?? ''}'`);
  return value;
}

interface Grid {
  nrho: number;
  drho: number;
  nr: number;
  dr: number;
  cutoff: number;
}

/**
 * The grid line, checked so that every index native code derives from it fits a 32-bit int: the table
 * sizes, (n + 1)·7 coefficients, and the index of the longest distance, cutoff/dr + 1. A spacing whose
 * inverse overflows a double, or a table that ends beyond it, is refused too.
 */
function grid(cursor: Cursor): Grid {
  const t = cursor.nextLine('the grid line (Nrho drho Nr dr cutoff)');
  if (t.length < 5) cursor.fail(`the grid line needs Nrho drho Nr dr cutoff, got ${t.length} values`);
  const nrho = integer(cursor, t[0], 'Nrho', 5);
  const drho = positive(cursor, t[1], 'drho');
  const nr = integer(cursor, t[2], 'Nr', 5);
  const dr = positive(cursor, t[3], 'dr');
  const cutoff = positive(cursor, t[4], 'cutoff');
  const maxPoints = Math.floor(MAX_TABLE_INDEX / SPLINE_STRIDE) - 1;
  for (const [name, points] of [['Nrho', nrho], ['Nr', nr]] as const) {
    if (points > maxPoints) cursor.fail(`${name} = ${points} is more points than a table may hold (${maxPoints}: its ${SPLINE_STRIDE} spline coefficients per point are indexed with 32-bit ints)`);
  }
  for (const [name, spacing, points] of [['drho', drho, nrho], ['dr', dr, nr]] as const) {
    if (!Number.isFinite(1 / spacing)) cursor.fail(`${name} = ${spacing} is too small: its inverse overflows a double`);
    if (!Number.isFinite((points - 1) * spacing)) cursor.fail(`${name} = ${spacing} over ${points} points ends beyond the largest double`);
  }
  const index = cutoff / dr + 1;
  if (!(index < MAX_TABLE_INDEX)) {
    cursor.fail(`dr = ${t[3]} with cutoff ${t[4]} puts distances at table index ${index.toPrecision(3)}, beyond the 32-bit range (${MAX_TABLE_INDEX}): dr is too small for the cutoff`);
  }
  return { nrho, drho, nr, dr, cutoff };
}

/** Refuses a header whose tables need more numbers than the rest of the file holds, before allocating them. */
function requireValues(cursor: Cursor, needed: number, what: string): void {
  const capacity = cursor.capacity();
  if (needed > capacity) cursor.fail(`the header declares ${needed} values (${what}), but the rest of the file can hold at most ${capacity}`);
}

function elementHeader(cursor: Cursor, symbol: string | undefined): EamElement {
  const t = cursor.nextLine(`the header line of element ${symbol ?? ''}`);
  const z = integer(cursor, t[0], 'the atomic number', 1);
  const mass = positive(cursor, t[1], 'the mass');
  const latticeConstant = Number(t[2] ?? 0);
  const resolvedSymbol = symbol ?? (isAtomicNumber(z) ? chemicalSymbol(z) : cursor.fail(`atomic number ${z} is not an element`));
  return {
    symbol: resolvedSymbol,
    atomicNumber: symbol === undefined ? z : atomicNumber(symbol),
    mass,
    latticeConstant: Number.isFinite(latticeConstant) ? latticeConstant : 0,
    lattice: t[3] ?? '',
  };
}

function parseFuncfl(cursor: Cursor): EamFileData {
  const comments = [cursor.nextLine('the comment line').join(' ')];
  const element = elementHeader(cursor, undefined);
  const g = grid(cursor);
  requireValues(cursor, g.nrho + 2 * g.nr, `Nrho + 2·Nr = ${g.nrho} + 2·${g.nr}`);
  const frho = new Float64Array(g.nrho);
  const z2r = new Float64Array(g.nr);
  const rhor = new Float64Array(g.nr);
  cursor.numbers(g.nrho, 'F(rho)', frho, 0);
  cursor.numbers(g.nr, 'Z(r)', z2r, 0);
  cursor.numbers(g.nr, 'rho(r)', rhor, 0);
  return { format: 'funcfl', elements: [element], ...g, frho, rhor, z2r, comments };
}

function parseSetfl(cursor: Cursor, format: 'setfl' | 'fs'): EamFileData {
  const comments = [0, 1, 2].map(() => cursor.nextLine('the three comment lines').join(' '));
  const header = cursor.nextLine('the element line (N El1 ... ElN)');
  const count = integer(cursor, header[0], 'the number of elements', 1);
  if (count > MAX_ELEMENTS) cursor.fail(`a potential file describes at most ${MAX_ELEMENTS} elements, got ${showText(count)}`);
  if (header.length < count + 1) cursor.fail(`the element line names ${header.length - 1} elements, but N is ${count}`);
  const symbols = header.slice(1, count + 1);
  for (const symbol of symbols) {
    try {
      atomicNumber(symbol);
    } catch {
      cursor.fail(`'${symbol}' is not an element symbol`);
    }
    if (symbols.indexOf(symbol) !== symbols.lastIndexOf(symbol)) cursor.fail(`element ${symbol} is listed twice`);
  }
  const g = grid(cursor);
  const densities = format === 'fs' ? count : 1;
  const pairs = (count * (count + 1)) / 2;
  requireValues(cursor, count * (g.nrho + densities * g.nr) + pairs * g.nr, `${count} elements of Nrho = ${g.nrho}, Nr = ${g.nr}`);
  const frho = new Float64Array(count * g.nrho);
  const rhor = new Float64Array(count * densities * g.nr);
  const elements: EamElement[] = [];
  for (let e = 0; e < count; e++) {
    const symbol = symbols[e] as string;
    elements.push(elementHeader(cursor, symbol));
    cursor.numbers(g.nrho, `F(rho) of ${symbol}`, frho, e * g.nrho);
    for (let d = 0; d < densities; d++) {
      const what = format === 'fs' ? `rho(r) of ${symbol} at ${symbols[d]}` : `rho(r) of ${symbol}`;
      cursor.numbers(g.nr, what, rhor, (e * densities + d) * g.nr);
    }
  }
  const z2r = new Float64Array(pairs * g.nr);
  let table = 0;
  for (let i = 0; i < count; i++) {
    for (let j = 0; j <= i; j++) cursor.numbers(g.nr, `r*phi(r) of ${symbols[i]}-${symbols[j]}`, z2r, table++ * g.nr);
  }
  return { format, elements, ...g, frho, rhor, z2r, comments };
}

/**
 * The format from the name (`.eam` funcfl, `.eam.alloy`/`.setfl` setfl, `.eam.fs` fs), else from the content:
 * a fourth line `N El1 … ElN` means setfl or fs, told apart by how many numbers follow.
 */
function detectFormat(text: string, file: string): EamFormat {
  const name = basename(file).toLowerCase();
  if (name.endsWith('.eam.fs')) return 'fs';
  if (name.endsWith('.eam.alloy') || name.endsWith('.setfl')) return 'setfl';
  if (name.endsWith('.eam')) return 'funcfl';
  const lines = text.split(/\r?\n/, 6);
  const header = (lines[3] ?? '').trim().split(/\s+/);
  const count = Number(header[0]);
  const named = Number.isInteger(count) && count >= 1 && header.length >= count + 1 && header.slice(1, count + 1).every((t) => Number.isNaN(Number(t)));
  if (!named) return 'funcfl';
  const g = (lines[4] ?? '').trim().split(/\s+/).map(Number);
  const [nrho = 0, , nr = 0] = g;
  // Numbers after the grid line: per element a 2-number header (Z, mass, a are numbers; the lattice name
  // is not), F, and 1 or N densities; then the pair tables.
  const body = text.split(/\r?\n/).slice(5).join(' ').trim().split(/\s+/).filter((t) => !Number.isNaN(Number(t))).length;
  const pairs = ((count * (count + 1)) / 2) * nr;
  const fs = count * (3 + nrho + count * nr) + pairs;
  return body === fs && count > 1 ? 'fs' : 'setfl';
}

/**
 * Reads a LAMMPS EAM potential file. `format` overrides the detection by name and content.
 * Throws EAM_PARSE (`EAM: Cu_u3.eam:7: expected a number in F(rho) (value 12 of 500), got 'x'`) or
 * READ_FAILED.
 *
 * @example
 * const data = readEamFile('/usr/share/lammps/potentials/Cu_u3.eam');
 * data.format; // 'funcfl'
 */
export function readEamFile(file: string, format?: EamFormat): EamFileData {
  if (typeof file !== 'string' || file === '') {
    throw new HookmdTypeError('INVALID_OPTIONS', 'EAM: file must be a path to a LAMMPS potential file', { field: 'file', value: file });
  }
  if (format !== undefined && format !== 'funcfl' && format !== 'setfl' && format !== 'fs') {
    throw new HookmdTypeError('INVALID_OPTIONS', `EAM: format must be 'funcfl', 'setfl' or 'fs', got ${showValue(format)}`, {
      field: 'format',
      value: format,
    });
  }
  let text: string;
  try {
    // Checked before it is opened: /dev/zero or a FIFO would be read forever, or block in open().
    text = readRegularFile(file, MAX_FILE_BYTES, 'an EAM file').toString('utf8');
  } catch (error) {
    throw new HookmdError('READ_FAILED', `EAM: cannot read ${file}: ${(error as Error).message}`, { file });
  }
  const resolved = format ?? detectFormat(text, file);
  const cursor = new Cursor(text, file);
  const data = resolved === 'funcfl' ? parseFuncfl(cursor) : parseSetfl(cursor, resolved);
  const leftover = cursor.leftover();
  if (leftover > 0) cursor.fail(`unexpected values after the last ${resolved === 'funcfl' ? 'rho(r)' : 'r*phi(r)'} table`, leftover);
  return data;
}
