// LAMMPS `dump custom` text files: readLammpsDump (every frame: id, type, element, mass, x/xs/xu/xsu
// positions with image flags, velocities, forces, other per-atom columns; orthogonal, triclinic and general
// triclinic boxes) and the frame formatter LammpsDumpSink writes with (metal units).
import { atomicNumber, chemicalSymbol, normalizeSystem, standardMass, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { checkSpecies, elementOfMass, lammpsCell, speciesOf, type LammpsSpecies } from './lammps-data.js';
import { checkReadSystem } from './read-check.js';
import { cartesianToFractional, det3, fractionalToCartesian, LineCursor, readStructureText } from './structure-text.js';

/** LAMMPS metal velocities are Å/ps; hookmd's are Å/fs. */
const FS_PER_PS = 1000;

/** Options of `readLammpsDump`. */
export interface ReadLammpsDumpOptions {
  /** The element of each atom type (type 1 first, or keyed by type), for dumps without an `element` column. */
  species?: LammpsSpecies;
  /** The dump's LAMMPS units: 'metal' (default; velocities Å/ps become Å/fs) or 'lj' (nothing converted). */
  units?: 'metal' | 'lj';
}

const POSITION_COLUMNS: readonly (readonly [string, string, string, boolean])[] = [
  ['x', 'y', 'z', false],
  ['xs', 'ys', 'zs', true],
  ['xu', 'yu', 'zu', false],
  ['xsu', 'ysu', 'zsu', true],
];
const KNOWN = new Set(['id', 'type', 'element', 'mass', 'ix', 'iy', 'iz', 'vx', 'vy', 'vz', 'fx', 'fy', 'fz', ...POSITION_COLUMNS.flatMap((c) => c.slice(0, 3) as string[])]);

interface Box {
  cell: number[][];
  origin: number[];
  pbc: boolean[];
}

/** The box of `ITEM: BOX BOUNDS ...` and its three lines, as LAMMPS writes them (bounds include the tilts). */
function readBox(header: string, cursor: LineCursor): Box {
  const words = header.trim().split(/\s+/).slice(3);
  const general = words[0] === 'abc' && words[1] === 'origin';
  const tilted = words.slice(0, 3).join(' ') === 'xy xz yz';
  const flags = words.slice(general || tilted ? (general ? 2 : 3) : 0);
  if (flags.length !== 3 || !flags.every((f) => /^[pfsm]{2}$/.test(f))) {
    throw cursor.error(`expected boundary flags such as 'pp pp pp' after BOX BOUNDS, got '${words.join(' ')}'`);
  }
  const pbc = flags.map((f) => f === 'pp');
  const rows = [0, 1, 2].map((k) => cursor.numbers(cursor.tokens('the box bounds'), general ? 4 : tilted ? 3 : 2, `box bounds line ${k + 1}`));
  if (general) {
    return { cell: rows.map((r) => r.slice(0, 3)), origin: rows.map((r) => r[3] as number), pbc };
  }
  const [xy, xz, yz] = tilted ? [rows[0]?.[2], rows[1]?.[2], rows[2]?.[2]] as number[] : [0, 0, 0];
  const [[xlb, xhb], [ylb, yhb], [zlo, zhi]] = rows as [number[], number[], number[]];
  const xlo = (xlb as number) - Math.min(0, xy, xz, xy + xz);
  const xhi = (xhb as number) - Math.max(0, xy, xz, xy + xz);
  const ylo = (ylb as number) - Math.min(0, yz);
  const yhi = (yhb as number) - Math.max(0, yz);
  return { cell: [[xhi - xlo, 0, 0], [xy, yhi - ylo, 0], [xz, yz, (zhi as number) - (zlo as number)]], origin: [xlo, ylo, zlo as number], pbc };
}

function readFrame(cursor: LineCursor, options: ReadLammpsDumpOptions): System {
  const frameLine = cursor.line;
  const step = cursor.number(cursor.tokens('the timestep')[0], 'the timestep');
  let atoms = -1;
  let box: Box | undefined;
  let time: number | undefined;
  for (;;) {
    const item = cursor.next('the ATOMS section').trim();
    if (item === 'ITEM: NUMBER OF ATOMS') atoms = cursor.number(cursor.tokens('the atom count')[0], 'the atom count');
    else if (item.startsWith('ITEM: BOX BOUNDS')) box = readBox(item, cursor);
    else if (item === 'ITEM: TIME') time = cursor.number(cursor.tokens('the time')[0], 'the time');
    else if (item === 'ITEM: UNITS') cursor.next('the units');
    else if (item.startsWith('ITEM: ATOMS')) {
      if (!Number.isInteger(atoms) || atoms < 0) throw cursor.error('ITEM: ATOMS comes before ITEM: NUMBER OF ATOMS');
      if (box === undefined) throw cursor.error('ITEM: ATOMS comes before ITEM: BOX BOUNDS');
      return readAtoms(item, cursor, options, { step, atoms, box, time, frameLine });
    } else throw cursor.error(`expected an ITEM: line (NUMBER OF ATOMS, BOX BOUNDS, ATOMS), got '${item.slice(0, 80)}'`);
  }
}

function readAtoms(
  header: string,
  cursor: LineCursor,
  options: ReadLammpsDumpOptions,
  frame: { step: number; atoms: number; box: Box; time: number | undefined; frameLine: number },
): System {
  const columns = header.trim().split(/\s+/).slice(2);
  const at = new Map(columns.map((c, k) => [c, k]));
  if (at.size !== columns.length) throw cursor.error('a column name appears twice in ITEM: ATOMS');
  const { atoms, box } = frame;
  // No allocation of the declared size before the file shows it has that many lines.
  if (atoms > cursor.lines.length - cursor.line) throw cursor.error(`the frame declares ${atoms} atoms, but the file has only ${cursor.lines.length - cursor.line} lines left`);
  const position = POSITION_COLUMNS.find(([x, y, z]) => at.has(x) && at.has(y) && at.has(z));
  if (position === undefined) throw cursor.error('ITEM: ATOMS has no positions (x y z, xs ys zs, xu yu zu or xsu ysu zsu)');
  if (!at.has('element') && !at.has('type')) throw cursor.error('ITEM: ATOMS has neither an element nor a type column');
  const col = (name: string): number | undefined => at.get(name);
  const rows: { id: number; tokens: string[]; line: number }[] = [];
  const ids = new Set<number>();
  for (let k = 0; k < atoms; k++) {
    const tokens = cursor.tokens('an atom line');
    if (tokens.length !== columns.length) throw cursor.error(`an atom line has ${tokens.length} values, ITEM: ATOMS names ${columns.length} columns`);
    const id = at.has('id') ? cursor.number(tokens[col('id') as number], 'the atom id') : k + 1;
    if (ids.has(id)) throw cursor.error(`atom id ${id} appears twice in the frame`);
    ids.add(id);
    rows.push({ id, tokens, line: cursor.line });
  }
  rows.sort((a, b) => a.id - b.id);
  const scale = (options.units ?? 'metal') === 'metal' ? 1 / FS_PER_PS : 1;
  const vector = (names: readonly string[], row: (typeof rows)[number], what: string): number[] | undefined => {
    if (!names.every((n) => at.has(n))) return undefined;
    return names.map((n) => {
      const value = Number(row.tokens[col(n) as number]);
      if (!Number.isFinite(value)) throw cursor.error(`atom ${row.id}'s ${what}: expected a number, got '${row.tokens[col(n) as number]}'`, row.line);
      return value;
    });
  };
  const symbols: string[] = [];
  const types: number[] = [];
  const positions: number[][] = [];
  const velocities: number[][] = [];
  const forces: number[][] = [];
  const masses: number[] = [];
  const arrays: Record<string, (number | string)[]> = {};
  const extra = columns.filter((c) => !KNOWN.has(c));
  for (const row of rows) {
    let symbol: string | undefined;
    if (at.has('type')) {
      const type = Number(row.tokens[col('type') as number]);
      if (!Number.isInteger(type) || type < 1) throw cursor.error(`atom ${row.id}'s type '${row.tokens[col('type') as number]}' is not an integer ≥ 1`, row.line);
      types.push(type);
      symbol = speciesOf(options.species, type);
    }
    const mass = at.has('mass') ? vector(['mass'], row, 'mass')?.[0] : undefined;
    if (at.has('element')) symbol = row.tokens[col('element') as number];
    symbol ??= mass === undefined ? undefined : elementOfMass(mass);
    if (symbol === undefined) {
      throw cursor.error(`atom ${row.id}'s element is unknown: dump an element column, pass species (e.g. { species: ['Cu', 'Al'] }), or dump masses`, row.line, 'UNKNOWN_SPECIES');
    }
    symbols.push(symbol);
    if (mass !== undefined) masses.push(mass);
    const [sx, sy, sz] = vector(position.slice(0, 3) as string[], row, 'position') as number[];
    let x = position[3] ? fractionalToCartesian([sx as number, sy as number, sz as number], box.cell).map((v, c) => v + (box.origin[c] as number)) : [sx, sy, sz] as number[];
    const image = position[0] === 'x' ? vector(['ix', 'iy', 'iz'], row, 'image flags') : undefined;
    if (image !== undefined) x = x.map((v, c) => v + image.reduce((sum, n, r) => sum + n * (box.cell[r]?.[c] as number), 0));
    positions.push(x);
    const v = vector(['vx', 'vy', 'vz'], row, 'velocity');
    if (v !== undefined) velocities.push(v.map((u) => u * scale));
    const f = vector(['fx', 'fy', 'fz'], row, 'force');
    if (f !== undefined) forces.push(f);
    for (const name of extra) {
      const token = row.tokens[col(name) as number] as string;
      const key = name.replace(/[^A-Za-z0-9_-]/g, '_');
      (arrays[key] ??= []).push(Number.isFinite(Number(token)) ? Number(token) : token);
    }
  }
  const info: Record<string, unknown> = { step: frame.step };
  if (frame.time !== undefined) info.time = frame.time;
  if (types.length > 0) info.lammpsTypes = types;
  if (Object.keys(arrays).length > 0) info.arrays = arrays;
  const system: System = { symbols, positions, cell: box.cell, pbc: box.pbc, info };
  if (masses.length > 0) system.masses = masses;
  if (velocities.length > 0) system.velocities = velocities;
  if (forces.length > 0) system.forces = forces;
  const lineOf = (_field: string, index: number | undefined): number => (index === undefined ? frame.frameLine : rows[index]?.line ?? frame.frameLine);
  return checkReadSystem(system, options.units ?? 'metal', lineOf, (reason, line, cause, code) => cursor.error(reason, line, code, cause));
}

/**
 * Reads every frame of a LAMMPS `dump custom` (or `dump atom`-like) text file into Systems: atoms ordered
 * by id; elements from an `element` column, else `species` by `type`, else a `mass` column; positions from
 * x y z (unwrapped by ix iy iz when dumped), xs ys zs, xu yu zu or xsu ysu zsu; velocities (metal Å/ps →
 * Å/fs), forces (eV/Å); orthogonal, triclinic (`xy xz yz` bounds lines) and general triclinic (`abc origin`)
 * boxes, `pp` directions periodic; an empty file has no frames. `info.step` is the TIMESTEP, `info.lammpsTypes` the types, and other
 * per-atom columns are `info.arrays` (names with `[`/`]` as `_`). Throws LAMMPS_DUMP_PARSE naming the line.
 *
 * @example
 * const frames = readLammpsDump('dump.lammpstrj', { species: ['Cu'] });
 */
export function readLammpsDump(path: string, options: ReadLammpsDumpOptions = {}): System[] {
  if (typeof path !== 'string' || path === '') throw new HookmdTypeError('INVALID_PATH', 'readLammpsDump: expected a path', { field: 'path', value: path });
  if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'readLammpsDump: options must be an object', { field: 'options', value: options });
  checkKeys('readLammpsDump', options, ['species', 'units']);
  unitSystem(options.units ?? 'metal');
  checkSpecies(options.species, 'readLammpsDump');
  const cursor = new LineCursor(readStructureText('readLammpsDump', path), 'LAMMPS_DUMP_PARSE', 'readLammpsDump', path);
  const systems: System[] = [];
  while (!cursor.done) {
    const line = cursor.next('a frame').trim();
    if (line === '') continue;
    if (line !== 'ITEM: TIMESTEP') throw cursor.error(`expected 'ITEM: TIMESTEP', got '${line.slice(0, 80)}'`);
    systems.push(readFrame(cursor, options));
  }
  return systems;
}

/** @internal Per sink: the type number of each element, in order of first appearance unless `species` fixes it. */
export class DumpTypes {
  readonly #types = new Map<string, number>();
  readonly #fixed: boolean;

  constructor(species: readonly string[] | undefined) {
    this.#fixed = species !== undefined;
    species?.forEach((symbol, k) => this.#types.set(symbol, k + 1));
  }

  of(symbol: string, where: string): number {
    let type = this.#types.get(symbol);
    if (type === undefined) {
      if (this.#fixed) throw new HookmdTypeError('UNKNOWN_SPECIES', `${where}: ${symbol} is not in species (${[...this.#types.keys()].join(', ')})`, { field: 'species', value: symbol });
      type = this.#types.size + 1;
      this.#types.set(symbol, type);
    }
    return type;
  }
}

const text = (x: number): string => String(Object.is(x, -0) ? 0 : x);

/**
 * @internal One System as a dump frame (metal units): TIMESTEP from `info.step` (else `index`), the box in
 * LAMMPS's restricted triclinic form with positions, velocities (Å/ps) and forces rotated into it, and the
 * columns id type element x y z, then mass (when not the element table's), vx vy vz (when set), fx fy fz
 * (when valid). MISSING_LATTICE without a cell, INVALID_CELL for a left-handed one.
 */
export function formatDumpFrame(system: System, index: number, types: DumpTypes, operation: string): string {
  const s = normalizeSystem(system, index, unitSystem('metal'), operation);
  const where = `${operation}: systems[${index}]`;
  const cell = [0, 1, 2].map((r) => Array.from(s.cell.subarray(3 * r, 3 * r + 3)));
  const volume = det3(cell);
  if (Math.abs(volume) < 1e-12) throw new HookmdTypeError('MISSING_LATTICE', `${where} has no cell (a LAMMPS box needs three lattice vectors)`, { field: 'cell' });
  if (volume < 0) throw new HookmdTypeError('INVALID_CELL', `${where}: the cell is left-handed; LAMMPS boxes are right-handed (swap two lattice vectors)`, { field: 'cell' });
  const box = lammpsCell(cell);
  const rotate = (data: Float64Array, atom: number): number[] => fractionalToCartesian(cartesianToFractional(Array.from(data.subarray(3 * atom, 3 * atom + 3)), cell), box);
  const [xy, xz, yz] = [box[1]?.[0], box[2]?.[0], box[2]?.[1]] as number[];
  const [lx, ly, lz] = [box[0]?.[0], box[1]?.[1], box[2]?.[2]] as number[];
  const flags = Array.from(s.pbc, (p) => (p ? 'pp' : 'ff')).join(' ');
  const step = s.info.step;
  const lines = ['ITEM: TIMESTEP', String(Number.isSafeInteger(step) && (step as number) >= 0 ? step : index), 'ITEM: NUMBER OF ATOMS', String(s.numAtoms)];
  if (xy === 0 && xz === 0 && yz === 0) {
    lines.push(`ITEM: BOX BOUNDS ${flags}`, `0 ${text(lx)}`, `0 ${text(ly)}`, `0 ${text(lz)}`);
  } else {
    // LAMMPS writes the bounding box of the tilted cell, and the tilts, on the three lines.
    lines.push(`ITEM: BOX BOUNDS xy xz yz ${flags}`);
    lines.push(`${text(Math.min(0, xy, xz, xy + xz))} ${text(lx + Math.max(0, xy, xz, xy + xz))} ${text(xy)}`);
    lines.push(`${text(Math.min(0, yz))} ${text(ly + Math.max(0, yz))} ${text(xz)}`);
    lines.push(`0 ${text(lz)} ${text(yz)}`);
  }
  const symbols = Array.from(s.atomicNumbers, chemicalSymbol);
  const withMass = s.masses.some((m, atom) => m !== standardMass(s.atomicNumbers[atom] as number));
  const withVelocity = system.velocities !== undefined && s.velocities.some((v) => v !== 0);
  const columns = ['id', 'type', 'element', ...(withMass ? ['mass'] : []), 'x', 'y', 'z', ...(withVelocity ? ['vx', 'vy', 'vz'] : []), ...(s.forces ? ['fx', 'fy', 'fz'] : [])];
  lines.push(`ITEM: ATOMS ${columns.join(' ')}`);
  for (let atom = 0; atom < s.numAtoms; atom++) {
    const symbol = symbols[atom] as string;
    const row = [String(atom + 1), String(types.of(symbol, where)), symbol];
    if (withMass) row.push(text(s.masses[atom] as number));
    row.push(...rotate(s.positions, atom).map(text));
    if (withVelocity) row.push(...rotate(s.velocities, atom).map((v) => text(v * FS_PER_PS)));
    if (s.forces) row.push(...rotate(s.forces, atom).map(text));
    lines.push(row.join(' '));
  }
  return `${lines.join('\n')}\n`;
}

/** @internal Checks the `species` option of a dump writer: element symbols, type 1 first. */
export function dumpSpecies(species: unknown, operation: string): readonly string[] | undefined {
  if (species === undefined) return undefined;
  if (!Array.isArray(species) || species.some((x) => typeof x !== 'string')) {
    throw new HookmdTypeError('INVALID_OPTIONS', `${operation}: species must be a list of element symbols, type 1 first`, { field: 'species', value: species });
  }
  species.forEach((symbol: string) => atomicNumber(symbol));
  return species as string[];
}
