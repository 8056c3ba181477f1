// A line-at-a-time extxyz parser: readExtxyz feeds it a whole text, streamExtxyz a file line by line,
// so both read exactly the same grammar and report errors with the same 1-based line numbers.
import { atomicNumber, isAtomicNumber, standardMass } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdError } from '../../errors.js';
import { convertValue, isFloatToken, parseFloatToken, splitEntries } from './keyvalue.js';
import { checkLimits, limitError, type CheckedLimits, type ExtxyzLimits } from './limits.js';
import { capitalize, FIELD_COLUMNS, fromFortran, fromVoigt, MATRIX_KEYS, momentumFactor, type ColumnField } from './mapping.js';
import { columnCount, DEFAULT_PROPERTIES, parseProperties, parseToken, type PropertyColumn } from './properties.js';
import { checkReadSystem } from '../read-check.js';
import { showText, showValue } from '../../describe-value.js';

// Fields a batch validates per atom: their errors point at the atom's line.
const PER_ATOM = new Set(['positions', 'velocities', 'forces', 'masses', 'symbols', 'atomicNumbers']);

/** Options of `readExtxyz` and `streamExtxyz`: the units, and the size limits (docs/formats.md). */
export interface ReadExtxyzOptions extends ExtxyzLimits {
  /** The units of the file: 'metal' (default) converts ASE momenta to Å/fs; 'lj' takes them as m·v. */
  units?: 'metal' | 'lj';
}

interface Header {
  readonly line: number;
  /** The comment line as written (a frame with VEC lines keeps it as info.comment, as ASE does). */
  readonly text: string;
  readonly values: Map<string, unknown>;
  readonly columns: PropertyColumn[];
  readonly width: number;
}

/** A frame whose atom lines are all read; cell vectors (VEC1..VEC3 lines) may still follow. */
interface ReadFrame {
  readonly natoms: number;
  readonly header: Header;
  readonly rows: unknown[][];
  readonly vectors: number[][];
}

/** The EXTXYZ_PARSE error: `<operation>: <file>:<line>: <what>`. */
export function parseError(operation: string, file: string, line: number, what: string, cause?: unknown, code: string = 'EXTXYZ_PARSE'): HookmdError {
  return new HookmdError(code, `${operation}: ${file}:${line}: ${what}`, { file, line }, cause === undefined ? undefined : { cause });
}

/**
 * Parses frames from lines given one at a time (1-based numbers); `line()` returns a System when one
 * is complete, and `end()` throws when the input stops inside a frame.
 */
export class ExtxyzFrameParser {
  readonly #operation: string;
  readonly #file: string;
  readonly #units: 'metal' | 'lj';
  readonly #limits: CheckedLimits;
  #natoms = -1;
  #countLine = 0;
  #header: Header | undefined;
  #rows: unknown[][] = [];
  #read: ReadFrame | undefined;
  #failure: unknown;

  constructor(operation: string, file: string, options: ReadExtxyzOptions = {}) {
    this.#operation = operation;
    this.#file = file;
    this.#units = options.units === 'lj' ? 'lj' : 'metal';
    this.#limits = checkLimits(operation, options);
  }

  /** The checked size limits (the line reader enforces maxLineBytes before a line is built). */
  get limits(): CheckedLimits {
    return this.#limits;
  }

  /**
   * Feeds line number `number`; returns the frame it completes, if any. A frame with Properties is complete
   * at its last atom line; one with a plain comment at the first later line that is not a cell vector
   * (VEC1..VEC3), or at `end()`.
   */
  line(text: string, number: number): System | undefined {
    this.#throwFailure();
    if (text.length > this.#limits.maxLineBytes) {
      throw limitError(this.#operation, this.#file, number, `a line of ${text.length} characters`, 'maxLineBytes', this.#limits.maxLineBytes);
    }
    if (this.#read !== undefined) {
      if (text.trimStart().startsWith('VEC')) {
        this.#vector(this.#read, text, number);
        return undefined;
      }
      const done = this.#complete();
      // The frame before a malformed line is still whole: it is returned now, and the error thrown next.
      // The line after a held frame is a count line (or blank), which completes no frame of its own.
      try {
        this.#frameLine(text, number);
      } catch (error) {
        this.#failure = error;
      }
      return done;
    }
    return this.#frameLine(text, number);
  }

  /** Call after the last line (numbered `lastLine`): returns the last frame, or throws EXTXYZ_PARSE when the input stops inside one. */
  end(lastLine: number): System | undefined {
    this.#throwFailure();
    if (this.#read !== undefined) return this.#complete();
    if (this.#natoms < 0) return undefined;
    const read = this.#header === undefined ? 0 : this.#rows[0].length / this.#header.columns[0].ncols;
    const what = this.#header === undefined ? 'the comment line is missing' : `expected ${this.#natoms} atom lines, found ${read}`;
    throw this.#error(lastLine + 1, `truncated frame (atom count ${this.#natoms} at line ${this.#countLine}): ${what}`);
  }

  /** A count, comment or atom line; returns the frame it completes, if any. */
  #frameLine(text: string, number: number): System | undefined {
    if (this.#natoms < 0) {
      const count = text.trim();
      if (count === '') return undefined;
      if (!/^\+?\d+$/.test(count)) throw this.#error(number, `expected the atom count of a frame, got ${showValue(count)}`);
      const natoms = Number(count);
      if (natoms > this.#limits.maxFrameAtoms) {
        throw limitError(this.#operation, this.#file, number, `a frame of ${count} atoms`, 'maxFrameAtoms', this.#limits.maxFrameAtoms);
      }
      this.#natoms = natoms;
      this.#countLine = number;
      return undefined;
    }
    if (this.#header === undefined) {
      this.#header = this.#parseHeader(text, number);
      this.#rows = this.#header.columns.map(() => []);
      return this.#natoms === 0 ? this.#completeNow() : undefined;
    }
    this.#parseAtom(text, number, this.#header);
    return this.#rows[0].length === this.#natoms * this.#header.columns[0].ncols ? this.#completeNow() : undefined;
  }

  #completeNow(): System | undefined {
    const frame = this.#atomsRead();
    return frame === undefined ? undefined : this.#build(frame);
  }

  #throwFailure(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /**
   * Holds a frame whose atoms are read until the next line shows whether cell vectors follow. Only a plain
   * comment line (no Properties) can be followed by them: extxyz frames (ASE and hookmd write Properties)
   * complete at their last atom line, so a stream yields each one without waiting for the next.
   */
  #atomsRead(): ReadFrame | undefined {
    const frame: ReadFrame = { natoms: this.#natoms, header: this.#header as Header, rows: this.#rows, vectors: [] };
    this.#natoms = -1;
    this.#header = undefined;
    this.#rows = [];
    if (frame.header.values.has('Properties')) return frame;
    this.#read = frame;
    return undefined;
  }

  #complete(): System {
    const frame = this.#read as ReadFrame;
    this.#read = undefined;
    return this.#build(frame);
  }

  /** `VEC<n> x y z`, the n-th cell vector, as ASE reads it after a frame's atoms (n = 1, 2, 3 in order). */
  #vector(frame: ReadFrame, text: string, line: number): void {
    const [name, ...rest] = text.trim().split(/\s+/);
    const expected = `VEC${frame.vectors.length + 1}`;
    if (frame.vectors.length === 3) throw this.#error(line, `more than 3 cell vectors (${name})`);
    if (name !== expected) throw this.#error(line, `expected cell vector ${expected}, got ${showText(name)}`);
    if (rest.length !== 3 || !rest.every(isFloatToken)) throw this.#error(line, `${name} must be 3 numbers, got ${showValue(rest.join(' '))}`);
    frame.vectors.push(rest.map(parseFloatToken));
  }

  #error(line: number, what: string, cause?: unknown, code?: string): HookmdError {
    return parseError(this.#operation, this.#file, line, what, cause, code);
  }

  #parseHeader(text: string, line: number): Header {
    const values = new Map<string, unknown>();
    try {
      for (const { key, raw } of splitEntries(text)) {
        if (key === '') throw new Error('a value without a key');
        values.set(key, key === 'Properties' ? raw : convertValue(raw, key));
      }
    } catch (error) {
      throw this.#error(line, `bad comment line: ${(error as Error).message}`, error);
    }
    const spec = values.get('Properties') ?? DEFAULT_PROPERTIES;
    if (typeof spec !== 'string') throw this.#error(line, 'Properties has no value');
    let columns: PropertyColumn[];
    try {
      columns = parseProperties(spec);
    } catch (error) {
      throw this.#error(line, (error as Error).message, error);
    }
    for (const c of columns) {
      const mapped = FIELD_COLUMNS[c.name];
      if (mapped !== undefined && (mapped.type !== c.type || mapped.ncols !== c.ncols)) {
        throw this.#error(line, `property '${c.name}' must be ${c.name}:${mapped.type}:${mapped.ncols}, got ${showText(c.name)}:${c.type}:${c.ncols}`);
      }
    }
    if (!columns.some((c) => c.name === 'pos')) throw this.#error(line, `Properties=${spec} has no pos column`);
    if (!columns.some((c) => c.name === 'species' || c.name === 'Z')) throw this.#error(line, `Properties=${spec} has neither species nor Z`);
    if (values.has('arrays')) throw this.#error(line, "the key 'arrays' is reserved for per-atom columns (System.info.arrays)");
    return { line, text, values, columns, width: columnCount(columns) };
  }

  #parseAtom(text: string, line: number, header: Header): void {
    const tokens = text.trim().split(/\s+/).filter((t) => t !== '');
    if (tokens.length !== header.width) {
      throw this.#error(line, `atom line has ${tokens.length} columns, but Properties declares ${header.width}`);
    }
    let t = 0;
    header.columns.forEach((column, k) => {
      for (let c = 0; c < column.ncols; c++, t++) {
        try {
          this.#rows[k].push(parseToken(tokens[t], column.type, column.name));
        } catch (error) {
          throw this.#error(line, (error as Error).message, error);
        }
      }
    });
  }

  #build(frame: ReadFrame): System {
    const { natoms: n, header, vectors } = frame;
    // With cell vectors ASE reads the comment as a plain comment: the cell and pbc come from the VEC lines.
    const values = vectors.length > 0 ? new Map<string, unknown>([['comment', header.text.trim()]]) : header.values;
    const fields: Partial<Record<ColumnField, unknown[]>> = {};
    const arrays: Record<string, unknown[]> = {};
    header.columns.forEach((column, k) => {
      const flat = frame.rows[k];
      const rows = column.ncols === 1 ? flat : Array.from({ length: n }, (_, i) => flat.slice(i * column.ncols, (i + 1) * column.ncols));
      const field = FIELD_COLUMNS[column.name]?.field;
      // A second column for a field already filled (vel beside velocities) stays a plain array.
      if (field === undefined || fields[field] !== undefined) arrays[column.name] = rows;
      else if (field === 'symbols') fields.symbols = (rows as string[]).map((s, i) => this.#symbol(s, header.line + 1 + i));
      else if (field === 'atomicNumbers') fields.atomicNumbers = (rows as number[]).map((z, i) => this.#atomicNumber(z, header.line + 1 + i));
      else fields[field] = rows;
    });
    // Z wins over species, as in ASE; a System carries one of the two.
    const positions = fields.positions as number[][];
    const system: System =
      fields.atomicNumbers !== undefined ? { atomicNumbers: fields.atomicNumbers as number[], positions } : { symbols: fields.symbols as string[], positions };
    const lattice = values.get('Lattice');
    if (vectors.length > 0) {
      system.cell = [0, 1, 2].map((i) => vectors[i] ?? [0, 0, 0]);
      system.pbc = [0, 1, 2].map((i) => i < vectors.length) as [boolean, boolean, boolean];
    } else {
      if (lattice !== undefined) system.cell = this.#matrix('Lattice', lattice, header.line, false);
      system.pbc = this.#pbc(values.get('pbc'), lattice !== undefined, header.line);
    }
    if (fields.masses !== undefined) system.masses = fields.masses as number[];
    if (fields.velocities !== undefined) system.velocities = fields.velocities as number[][];
    if (fields.momenta !== undefined) {
      if (system.velocities === undefined) system.velocities = this.#velocities(fields.momenta as number[][], system);
      else arrays.momenta = fields.momenta;
    }
    const energy = values.get('energy');
    if (energy !== undefined) {
      if (typeof energy !== 'number') throw this.#error(header.line, `energy=${showValue(energy)} is not a number`);
      system.energy = energy;
    }
    if (fields.forces !== undefined) system.forces = fields.forces as number[][];
    const stress = values.get('stress');
    if (stress !== undefined) system.stress = this.#matrix('stress', stress, header.line, true);
    const info: Record<string, unknown> = {};
    for (const [key, value] of values) {
      if (['Lattice', 'Properties', 'pbc', 'energy', 'stress'].includes(key)) continue;
      info[key] = MATRIX_KEYS.includes(key) ? this.#matrix(key, value, header.line, false) : value;
    }
    if (Object.keys(arrays).length > 0) info.arrays = arrays;
    system.info = info;
    // Values that parse can still be refused by a batch (NaN, a zero-volume Lattice, a mass of 0).
    const lineOf = (field: string, index: number | undefined): number => (index !== undefined && PER_ATOM.has(field) ? header.line + 1 + index : header.line);
    return checkReadSystem(system, this.#units, lineOf, (reason, line, cause, code) => this.#error(line, reason, cause, code));
  }

  #symbol(symbol: string, line: number): string {
    const canonical = capitalize(symbol);
    try {
      atomicNumber(canonical);
    } catch (error) {
      throw this.#error(line, `unknown element ${showValue(symbol)}`, error);
    }
    return canonical;
  }

  #atomicNumber(z: number, line: number): number {
    if (!isAtomicNumber(z)) throw this.#error(line, `unknown atomic number ${z}`);
    return z;
  }

  /** Lattice rows as written (a1, a2, a3); stress and virial from Fortran order, stress also from Voigt. */
  #matrix(key: string, value: unknown, line: number, voigt: boolean): number[][] {
    const list = Array.isArray(value) && value.every((v) => typeof v === 'number') ? (value as number[]) : [];
    if (list.length === 9) return key === 'Lattice' ? [list.slice(0, 3), list.slice(3, 6), list.slice(6, 9)] : fromFortran(list);
    if (voigt && list.length === 6) return fromVoigt(list);
    throw this.#error(line, `${key} must be 9 numbers${voigt ? ' (or 6 in Voigt order)' : ''}, got ${showValue(value)}`);
  }

  #pbc(value: unknown, hasLattice: boolean, line: number): [boolean, boolean, boolean] {
    if (value === undefined) return [hasLattice, hasLattice, hasLattice];
    if (typeof value === 'boolean') return [value, value, value];
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'boolean')) return value as [boolean, boolean, boolean];
    throw this.#error(line, `pbc must be one or three booleans (T/F, true/false), got ${showValue(value)}`);
  }

  #velocities(momenta: number[][], system: System): number[][] {
    const factor = momentumFactor(this.#units);
    const masses = system.masses as number[] | undefined;
    const z = system.atomicNumbers ?? (system.symbols as string[]).map(atomicNumber);
    return momenta.map((p, i) => {
      const m = masses?.[i] ?? (this.#units === 'lj' ? 1 : standardMass(z[i]));
      return p.map((v) => (v / m) * factor);
    });
  }
}
