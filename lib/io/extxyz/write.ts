// formatExtxyz (one frame as text) and writeExtxyz (a whole file, written atomically). The output is
// what ASE 3.22 writes, at full precision: `ase.io.read(path, index=':')` gets back the same values.
import { chemicalSymbol, normalizeSystem, standardMass, unitSystem } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { writeFileAtomic } from '../atomic-write.js';
import { formatNumber, formatValue, quote } from './keyvalue.js';
import { FIELD_COLUMNS, MATRIX_KEYS, momentumFactor, RESERVED_KEYS, toFortran } from './mapping.js';
import { columnType, formatProperties, type PropertyColumn } from './properties.js';

/** Options of `formatExtxyz` and `writeExtxyz`. */
export interface WriteExtxyzOptions {
  /** Units of the systems: 'metal' (default) writes velocities as ASE momenta; 'lj' writes m·v. */
  units?: 'metal' | 'lj';
}

interface Column extends PropertyColumn {
  /** Per atom, its `ncols` values. */
  readonly cells: (atom: number) => readonly (number | string | boolean)[];
}

function invalidInfo(where: string, key: string, problem: string, value?: unknown): HookmdTypeError {
  return new HookmdTypeError('INVALID_INFO', `${where}.info.${key} ${problem}`, { field: `info.${key}`, value, problem });
}

/** Columns for `info.arrays`: each entry has one value or one row of equal length per atom. */
function arrayColumns(arrays: unknown, n: number, where: string): Column[] {
  if (arrays === undefined) return [];
  if (arrays === null || typeof arrays !== 'object' || Array.isArray(arrays)) {
    throw invalidInfo(where, 'arrays', 'must be an object of per-atom arrays', arrays);
  }
  return Object.entries(arrays as Record<string, unknown>).map(([name, value]) => {
    const key = `arrays.${name}`;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) || name in FIELD_COLUMNS) {
      const mapped = Object.keys(FIELD_COLUMNS).join(', ');
      throw invalidInfo(where, key, `is not a usable column name (letters, digits, _ and -, and not one of ${mapped})`, name);
    }
    const list = ArrayBuffer.isView(value) ? Array.from(value as unknown as ArrayLike<number>) : value;
    if (!Array.isArray(list) || list.length !== n) throw invalidInfo(where, key, `must have one entry per atom (${n})`, value);
    const nested = n > 0 && (Array.isArray(list[0]) || ArrayBuffer.isView(list[0]));
    const rows = nested ? list.map((row) => Array.from(row as ArrayLike<unknown>)) : list.map((v) => [v]);
    const ncols = rows[0]?.length ?? 1;
    const type = columnType(rows.flat());
    if (ncols < 1 || rows.some((row) => row.length !== ncols) || type === undefined) {
      throw invalidInfo(where, key, 'must hold numbers, booleans or strings without spaces, one value or one equal-length row per atom', value);
    }
    return { name, type, ncols, cells: (atom: number) => rows[atom] as (number | string | boolean)[] };
  });
}

/** `key=value` entries for the info keys, in order (ASE writes info before results and pbc). */
function infoEntries(info: Record<string, unknown>, where: string): string[] {
  return Object.entries(info).flatMap(([key, value]) => {
    if (key === 'arrays') return [];
    if (RESERVED_KEYS.includes(key)) throw invalidInfo(where, key, 'is reserved: it is written from the System field of that name', value);
    if (key === '' || /[\x00-\x1f\x7f]/.test(key)) throw invalidInfo(where, key, 'is not a usable key (empty or with control characters)', key);
    if (MATRIX_KEYS.includes(key)) {
      const flat = Array.isArray(value) ? value.flat() : [];
      if (flat.length !== 9 || !flat.every((v) => typeof v === 'number')) throw invalidInfo(where, key, 'must be a 3×3 matrix of numbers', value);
      return [`${quote(key)}=${quote(toFortran(flat as number[]).map(formatNumber).join(' '))}`];
    }
    try {
      return [`${quote(key)}=${formatValue(value, key)}`];
    } catch (error) {
      throw invalidInfo(where, key, `cannot be written: ${(error as Error).message}`, value);
    }
  });
}

/** One atom-line cell, right-aligned numbers as in ASE's output (wider, for full precision). */
function formatCell(value: number | string | boolean, type: PropertyColumn['type']): string {
  if (typeof value === 'number') return formatNumber(value).padStart(type === 'I' ? 8 : 22);
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  return value.padEnd(2);
}

function formatFrame(system: System, index: number, units: 'metal' | 'lj', operation: string): string {
  const where = `${operation}: systems[${index}]`;
  // Written as ASE writes it, with or without a cell volume (readExtxyz reads it back).
  const s = normalizeSystem(system, index, unitSystem(units), operation, { singularCell: true });
  const n = s.numAtoms;
  const vector = (data: Float64Array) => (atom: number) => [data[3 * atom], data[3 * atom + 1], data[3 * atom + 2]];
  const columns: Column[] = [
    { name: 'species', type: 'S', ncols: 1, cells: (atom) => [chemicalSymbol(s.atomicNumbers[atom])] },
    { name: 'pos', type: 'R', ncols: 3, cells: vector(s.positions) },
  ];
  if (system.velocities !== undefined && s.velocities.some((v) => v !== 0)) {
    const factor = momentumFactor(units);
    const momenta = s.velocities.map((v, k) => (s.masses[Math.floor(k / 3)] * v) / factor);
    columns.push({ name: 'momenta', type: 'R', ncols: 3, cells: vector(momenta) });
  }
  // ASE falls back to the element table for masses, so only other masses need a column.
  if (s.masses.some((m, atom) => m !== standardMass(s.atomicNumbers[atom]))) {
    columns.push({ name: 'masses', type: 'R', ncols: 1, cells: (atom) => [s.masses[atom]] });
  }
  if (s.forces !== undefined) columns.push({ name: 'forces', type: 'R', ncols: 3, cells: vector(s.forces) });
  columns.push(...arrayColumns(s.info.arrays, n, where));

  const comment: string[] = [];
  if (s.cell.some((v) => v !== 0)) comment.push(`Lattice=${quote(Array.from(s.cell, formatNumber).join(' '))}`);
  comment.push(`Properties=${formatProperties(columns)}`);
  comment.push(...infoEntries(s.info, where));
  if (s.energy !== undefined) comment.push(`energy=${formatNumber(s.energy)}`);
  if (s.stress !== undefined) comment.push(`stress=${quote(toFortran(s.stress).map(formatNumber).join(' '))}`);
  comment.push(`pbc=${quote(Array.from(s.pbc, (p) => (p ? 'T' : 'F')).join(' '))}`);

  const lines = [String(n), comment.join(' ')];
  for (let atom = 0; atom < n; atom++) {
    lines.push(columns.flatMap((c) => c.cells(atom).map((v) => formatCell(v, c.type))).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

function checkUnits(operation: string, options: WriteExtxyzOptions): 'metal' | 'lj' {
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${operation}: options must be an object`, { field: 'options', value: options });
  }
  checkKeys(operation, options, ['units']);
  return unitSystem(options.units ?? 'metal').name;
}

/**
 * One System as an extxyz frame (count line, comment line, one line per atom; ends with a newline).
 * Validates the system as `Batch.fromSystems` does; numbers are written at full precision.
 *
 * @example
 * formatExtxyz({ symbols: ['Ar'], positions: [[0, 0, 0]], energy: -0.1 });
 * // '1\nProperties=species:S:1:pos:R:3 energy=-0.1 pbc="F F F"\nAr                      0                      0                      0\n'
 */
export function formatExtxyz(system: System, options: WriteExtxyzOptions = {}): string {
  return formatFrame(system, 0, checkUnits('formatExtxyz', options), 'formatExtxyz');
}

/** @internal Formats `systems[index]` for a writer named `operation` (ExtxyzSink). */
export function formatFrameAt(system: System, index: number, units: 'metal' | 'lj', operation: string): string {
  return formatFrame(system, index, units, operation);
}

/**
 * Writes systems (any iterable, or an async iterable such as `streamExtxyz`) to an extxyz file that
 * ASE reads. The file is written to a temporary file beside `path` and renamed over it at the end, so
 * a failure leaves no partial file: invalid systems throw their validation error, I/O failures
 * WRITE_FAILED with the cause.
 *
 * @example
 * await writeExtxyz('relaxed.xyz', batch.toSystems());
 * await writeExtxyz('copy.xyz', streamExtxyz('huge.xyz'));
 */
export async function writeExtxyz(path: string, systems: Iterable<System> | AsyncIterable<System>, options: WriteExtxyzOptions = {}): Promise<void> {
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_PATH', 'writeExtxyz: path must be a non-empty string', { field: 'path', value: path });
  }
  const iterable = systems as Partial<Iterable<System> & AsyncIterable<System>> | null;
  const iterates = typeof iterable?.[Symbol.iterator] === 'function' || typeof iterable?.[Symbol.asyncIterator] === 'function';
  if (iterable === null || typeof iterable !== 'object' || !iterates) {
    throw new HookmdTypeError('INVALID_SYSTEMS', 'writeExtxyz: systems must be an iterable of System objects', { field: 'systems' });
  }
  const units = checkUnits('writeExtxyz', options);
  await writeFileAtomic(
    path,
    async (write) => {
      // Frames are written in pieces of about 1 MiB, so huge inputs never sit in memory whole.
      let pending = '';
      let index = 0;
      for await (const system of systems) {
        pending += formatFrame(system, index++, units, 'writeExtxyz');
        if (pending.length >= 1 << 20) {
          await write(pending);
          pending = '';
        }
      }
      if (pending !== '') await write(pending);
    },
    'writeExtxyz',
  );
}
