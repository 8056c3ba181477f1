// LAMMPS data files, atom style `atomic` in metal units: reading (header counts and box, Masses, Atoms with
// optional image flags, Velocities) and writing (a restricted triclinic box, as LAMMPS requires).
import { atomicNumber, chemicalSymbol, normalizeSystem, standardMass, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { writeFileAtomic } from './atomic-write.js';
import { checkReadSystem } from './read-check.js';
import { cartesianToFractional, det3, fractionalToCartesian, LineCursor } from './structure-text.js';
import { showText } from '../describe-value.js';

/** LAMMPS metal velocities are Å/ps; hookmd's are Å/fs. */
const PS_PER_FS = 1e-3;

/** Atom type → element: a list (type 1 first) or an object keyed by type number. */
export type LammpsSpecies = readonly string[] | Readonly<Record<number, string>>;

const SECTIONS = new Set([
  'Atoms', 'Velocities', 'Masses', 'Ellipsoids', 'Lines', 'Triangles', 'Bodies', 'Bonds', 'Angles', 'Dihedrals', 'Impropers',
  'Pair Coeffs', 'PairIJ Coeffs', 'Bond Coeffs', 'Angle Coeffs', 'Dihedral Coeffs', 'Improper Coeffs',
  'BondBond Coeffs', 'BondAngle Coeffs', 'MiddleBondTorsion Coeffs', 'EndBondTorsion Coeffs', 'AngleTorsion Coeffs',
  'AngleAngleTorsion Coeffs', 'BondBond13 Coeffs', 'AngleAngle Coeffs',
]);

export function speciesOf(species: LammpsSpecies | undefined, type: number): string | undefined {
  if (species === undefined) return undefined;
  return Array.isArray(species) ? (species as readonly string[])[type - 1] : (species as Readonly<Record<number, string>>)[type];
}

/** Refuses a species entry that is not an element symbol (INVALID_OPTIONS, naming the type). */
export function checkSpecies(species: LammpsSpecies | undefined, operation: string): void {
  for (const [type, symbol] of Object.entries(species ?? {})) {
    try {
      atomicNumber(symbol);
    } catch {
      const shown = Array.isArray(species) ? Number(type) + 1 : type;
      throw new HookmdTypeError('INVALID_OPTIONS', `${operation}: species for type ${shown} is '${symbol}', not an element symbol`, { field: 'species', value: symbol });
    }
  }
}

/** The element whose standard mass is within 0.05 amu of `mass`, when exactly one is. */
export function elementOfMass(mass: number): string | undefined {
  const matches: string[] = [];
  for (let z = 1; z <= 118; z++) if (Math.abs(standardMass(z) - mass) < 0.05) matches.push(chemicalSymbol(z));
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * Parses a LAMMPS data file of atom style `atomic` (metal units). Atom types become elements through
 * `species` (type → symbol), or else through the Masses section when each mass is within 0.05 amu of one
 * element's standard mass; masses from the file are kept. Atoms are ordered by id; image flags unwrap
 * positions. Throws LAMMPS_DATA_PARSE naming the file and line.
 */
export function parseLammpsData(text: string, file: string, species?: LammpsSpecies): System {
  const cursor = new LineCursor(text, 'LAMMPS_DATA_PARSE', 'readStructures', file);
  cursor.next('the title line');
  const clean = (line: string): string => line.replace(/#.*/, '').trim();
  let atoms = -1;
  let types = -1;
  const box = { x: [0, 0], y: [0, 0], z: [0, 0], tilt: [0, 0, 0] };
  let sawBox = 0;
  let section: string | undefined;
  let sectionLine = 0;
  while (!cursor.done) {
    const raw = cursor.next('the header');
    const line = clean(raw);
    if (line === '') continue;
    if (SECTIONS.has(line)) {
      section = line;
      sectionLine = cursor.line;
      if (line === 'Atoms') {
        const style = /#\s*(\S+)/.exec(raw)?.[1];
        if (style !== undefined && style !== 'atomic') throw cursor.error(`atom style '${style}' is not supported; only 'atomic' is`);
      }
      break;
    }
    const t = line.split(/\s+/);
    const tail = t.slice(-2).join(' ');
    if (t[1] === 'atoms' && t.length === 2) atoms = cursor.number(t[0], 'the atom count');
    else if (tail === 'atom types') types = cursor.number(t[0], 'the atom-type count');
    else if (tail === 'xlo xhi') { box.x = cursor.numbers(t, 2, 'xlo xhi'); sawBox++; }
    else if (tail === 'ylo yhi') { box.y = cursor.numbers(t, 2, 'ylo yhi'); sawBox++; }
    else if (tail === 'zlo zhi') { box.z = cursor.numbers(t, 2, 'zlo zhi'); sawBox++; }
    else if (t.slice(-3).join(' ') === 'xy xz yz') box.tilt = cursor.numbers(t, 3, 'xy xz yz');
    else if (!/^\d+\s+(bonds|angles|dihedrals|impropers|bond types|angle types|dihedral types|improper types|extra .*|ellipsoids|lines|triangles|bodies)$/.test(line)) {
      throw cursor.error(`unrecognised header line '${line}'`);
    }
  }
  if (!Number.isInteger(atoms) || atoms < 1) throw cursor.error('the header gives no atom count (“N atoms”)', 1);
  if (!Number.isInteger(types) || types < 1) throw cursor.error('the header gives no atom-type count (“N atom types”)', 1);
  if (sawBox < 3) throw cursor.error('the header needs xlo xhi, ylo yhi and zlo zhi', 1);

  const masses = new Map<number, number>();
  const massLines = new Map<number, number>();
  const rows = new Map<number, { type: number; x: number[]; line: number }>();
  const velocities = new Map<number, { v: number[]; line: number }>();
  const readSection = (name: string, headerLine: number): void => {
    let seen = 0;
    const expected = name === 'Masses' ? types : atoms;
    while (!cursor.done && seen < expected) {
      const line = clean(cursor.next(`the ${name} section`));
      if (line === '') {
        if (seen > 0) throw cursor.error(`the ${name} section (line ${headerLine}) ends after ${seen} of ${expected} lines`);
        continue;
      }
      const t = line.split(/\s+/);
      seen++;
      if (name === 'Masses') {
        const type = cursor.number(t[0], 'a Masses type');
        if (!Number.isInteger(type) || type < 1 || type > types) throw cursor.error(`Masses: type ${t[0]} is not in 1..${types}`);
        const mass = cursor.number(t[1], `the mass of type ${type}`);
        if (!(mass > 0)) throw cursor.error(`the mass of type ${type} must be > 0, got ${showText(mass)}`);
        masses.set(type, mass);
        massLines.set(type, cursor.line);
      } else if (name === 'Atoms') {
        if (t.length !== 5 && t.length !== 8) {
          throw cursor.error(`an atomic-style Atoms line has 5 or 8 columns (id type x y z [ix iy iz]), got ${t.length}`);
        }
        const id = cursor.number(t[0], 'the atom id');
        const type = cursor.number(t[1], 'the atom type');
        if (!Number.isInteger(id) || id < 1) throw cursor.error(`atom id ${t[0]} must be an integer >= 1`);
        if (!Number.isInteger(type) || type < 1 || type > types) throw cursor.error(`atom ${id}: type ${t[1]} is not in 1..${types}`);
        if (rows.has(id)) throw cursor.error(`atom id ${id} appears twice`);
        const x = t.slice(2).map((v) => cursor.number(v, `atom ${id}'s ${t.length === 8 ? 'position and image flags' : 'position'}`));
        if (t.length === 8 && !x.slice(3).every(Number.isInteger)) throw cursor.error(`atom ${id}: image flags must be integers, got '${t.slice(5).join(' ')}'`);
        rows.set(id, { type, x, line: cursor.line });
      } else if (name === 'Velocities') {
        // LAMMPS reads Velocities after Atoms, one line per atom it knows.
        const id = cursor.number(t[0], 'the atom id');
        if (!rows.has(id)) throw cursor.error(`Velocities: atom id ${t[0]} is not in the Atoms section${rows.size === 0 ? ' (Atoms must come first)' : ''}`);
        if (velocities.has(id)) throw cursor.error(`Velocities: atom id ${id} appears twice`);
        velocities.set(id, { v: cursor.numbers(t.slice(1), 3, `atom ${id}'s velocity`), line: cursor.line });
      }
    }
    if (seen < expected) throw cursor.error(`the ${name} section (line ${headerLine}) has ${seen} of ${expected} lines`, cursor.lines.length);
  };
  const skipSection = (): void => {
    let started = false;
    while (!cursor.done) {
      const line = clean(cursor.lines[cursor.line] ?? '');
      if (SECTIONS.has(line)) return;
      if (line === '' && started) return;
      if (line !== '') started = true;
      cursor.next('a section');
    }
  };
  while (section !== undefined) {
    if (section === 'Atoms' || section === 'Masses' || section === 'Velocities') readSection(section, sectionLine);
    else if (['Bonds', 'Angles', 'Dihedrals', 'Impropers', 'Ellipsoids', 'Lines', 'Triangles', 'Bodies'].includes(section)) {
      throw cursor.error(`the ${section} section belongs to an atom style other than 'atomic'`, sectionLine);
    } else skipSection();
    section = undefined;
    while (!cursor.done) {
      const raw = cursor.next('a section');
      const line = clean(raw);
      if (line === '') continue;
      if (!SECTIONS.has(line)) throw cursor.error(`expected a section name (Atoms, Masses, Velocities, ...), got '${line}'`);
      section = line;
      sectionLine = cursor.line;
      break;
    }
  }
  if (rows.size === 0) throw cursor.error('the file has no Atoms section', cursor.lines.length);

  const cell = [
    [box.x[1] - box.x[0], 0, 0],
    [box.tilt[0], box.y[1] - box.y[0], 0],
    [box.tilt[1], box.tilt[2], box.z[1] - box.z[0]],
  ];
  if (cell[0][0] <= 0 || cell[1][1] <= 0 || cell[2][2] <= 0) throw cursor.error('the box has a non-positive length', 1, 'SINGULAR_CELL');
  checkSpecies(species, 'readStructures');
  const symbolOfType = new Map<number, string>();
  // Only the types atoms use: the header's count can be any integer, and a loop up to it could hang.
  for (const type of new Set([...rows.values()].map((row) => row.type))) {
    const mass = masses.get(type);
    const symbol = speciesOf(species, type) ?? (mass === undefined ? undefined : elementOfMass(mass));
    if (symbol !== undefined) symbolOfType.set(type, symbol);
  }
  const ids = [...rows.keys()].sort((a, b) => a - b);
  const symbols: string[] = [];
  const positions: number[][] = [];
  const atomMasses: number[] = [];
  for (const id of ids) {
    const row = rows.get(id) as { type: number; x: number[]; line: number };
    const symbol = symbolOfType.get(row.type);
    if (symbol === undefined) {
      throw cursor.error(
        `atom ${id} has type ${row.type}, whose element is unknown: pass species (e.g. { species: ['Cu', 'Al'] }) or give Masses that match one element`,
        row.line,
        'UNKNOWN_SPECIES',
      );
    }
    symbols.push(symbol);
    atomMasses.push(masses.get(row.type) ?? standardMass(atomicNumber(symbol)));
    const [x, y, z, ix = 0, iy = 0, iz = 0] = row.x;
    positions.push([0, 1, 2].map((c) => [x, y, z][c] + ix * cell[0][c] + iy * cell[1][c] + iz * cell[2][c]));
  }
  const system: System = { symbols, positions, masses: atomMasses, cell, pbc: true, info: { lammpsTypes: ids.map((id) => rows.get(id)?.type) } };
  // The section has a line per atom and no id twice or unknown, so every atom has its velocity.
  if (velocities.size > 0) system.velocities = ids.map((id) => (velocities.get(id) as { v: number[] }).v.map((v) => v * PS_PER_FS));
  const lineOf = (field: string, index: number | undefined): number => {
    const id = index === undefined ? undefined : ids[index];
    if (id !== undefined && field === 'positions') return rows.get(id)?.line ?? 1;
    if (id !== undefined && field === 'velocities') return velocities.get(id)?.line ?? 1;
    if (id !== undefined && field === 'masses') return massLines.get(rows.get(id)?.type ?? 0) ?? 1;
    return 1;
  };
  return checkReadSystem(system, 'metal', lineOf, (reason, line, cause, code) => cursor.error(reason, line, code, cause));
}

/** Options of `writeLammpsData`. */
export interface WriteLammpsDataOptions {
  /** Element of each atom type, type 1 first (default: the system's elements in order of first appearance). */
  species?: readonly string[];
}

/** The restricted triclinic form of a cell (rows): a along x, b in the xy plane, the same handedness. */
export function lammpsCell(cell: number[][]): number[][] {
  const [a, b, c] = cell;
  const norm = (v: number[]): number => Math.hypot(v[0], v[1], v[2]);
  const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const lx = norm(a);
  const xy = dot(b, a) / lx;
  const ly = Math.sqrt(Math.max(0, dot(b, b) - xy * xy));
  const xz = dot(c, a) / lx;
  const yz = (dot(b, c) - xy * xz) / ly;
  const lz = Math.sqrt(Math.max(0, dot(c, c) - xz * xz - yz * yz));
  return [[lx, 0, 0], [xy, ly, 0], [xz, yz, lz]];
}

/**
 * One System as a LAMMPS data file (atom style atomic, metal units): the cell turned into LAMMPS's
 * restricted triclinic form (positions rotated with it), Masses per type, Atoms and, when any is non-zero,
 * Velocities (Å/ps). Throws MISSING_LATTICE without a cell, INVALID_CELL for a left-handed one (LAMMPS
 * cannot represent it), UNKNOWN_SPECIES for an element missing from `species`.
 *
 * @example
 * formatLammpsData(bulk('Cu', 'fcc', { a: 3.615, cubic: true }), { species: ['Cu'] });
 */
export function formatLammpsData(system: System, options: WriteLammpsDataOptions = {}): string {
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_OPTIONS', 'writeLammpsData: options must be an object', { field: 'options', value: options });
  }
  checkKeys('writeLammpsData', options, ['species'], '', { specorder: 'species' });
  const s = normalizeSystem(system, 0, unitSystem('metal'), 'writeLammpsData');
  const cell = [0, 1, 2].map((r) => Array.from(s.cell.subarray(3 * r, 3 * r + 3)));
  const volume = det3(cell);
  if (Math.abs(volume) < 1e-12) throw new HookmdTypeError('MISSING_LATTICE', 'writeLammpsData: the system has no cell (a LAMMPS box needs three lattice vectors)', { field: 'cell' });
  if (volume < 0) throw new HookmdTypeError('INVALID_CELL', 'writeLammpsData: the cell is left-handed; LAMMPS boxes are right-handed (swap two lattice vectors)', { field: 'cell' });
  const symbols = Array.from(s.atomicNumbers, chemicalSymbol);
  const species = options.species ?? [...new Set(symbols)];
  if (!Array.isArray(species) || species.some((x) => typeof x !== 'string')) {
    throw new HookmdTypeError('INVALID_OPTIONS', 'writeLammpsData: species must be a list of element symbols, type 1 first', { field: 'species', value: species });
  }
  const typeOf = new Map(species.map((symbol, k) => [symbol, k + 1]));
  const massOf = new Map<string, number>();
  symbols.forEach((symbol, atom) => {
    if (!typeOf.has(symbol)) throw new HookmdTypeError('UNKNOWN_SPECIES', `writeLammpsData: atom ${atom} is ${symbol}, which species (${species.join(', ')}) does not list`, { field: 'species', value: symbol });
    if (!massOf.has(symbol)) massOf.set(symbol, s.masses[atom]);
  });
  const box = lammpsCell(cell);
  const number = (x: number): string => (Object.is(x, -0) ? 0 : x).toPrecision(17);
  const lines = ['LAMMPS data file written by hookmd', '', `${s.numAtoms} atoms`, `${species.length} atom types`, ''];
  lines.push(`0 ${number(box[0][0])} xlo xhi`, `0 ${number(box[1][1])} ylo yhi`, `0 ${number(box[2][2])} zlo zhi`);
  lines.push(`${number(box[1][0])} ${number(box[2][0])} ${number(box[2][1])} xy xz yz`, '', 'Masses', '');
  species.forEach((symbol, k) => lines.push(`${k + 1} ${number(massOf.get(symbol) ?? standardMass(atomicNumber(symbol)))} # ${symbol}`));
  lines.push('', 'Atoms # atomic', '');
  for (let atom = 0; atom < s.numAtoms; atom++) {
    const frac = cartesianToFractional(Array.from(s.positions.subarray(3 * atom, 3 * atom + 3)), cell);
    lines.push(`${atom + 1} ${typeOf.get(symbols[atom])} ${fractionalToCartesian(frac, box).map(number).join(' ')}`);
  }
  if (s.velocities.some((v) => v !== 0)) {
    lines.push('', 'Velocities', '');
    for (let atom = 0; atom < s.numAtoms; atom++) {
      const frac = cartesianToFractional(Array.from(s.velocities.subarray(3 * atom, 3 * atom + 3)), cell);
      lines.push(`${atom + 1} ${fractionalToCartesian(frac, box).map((v) => number(v / PS_PER_FS)).join(' ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes one System as a LAMMPS data file (see formatLammpsData), atomically.
 *
 * @example
 * await writeLammpsData('copper.data', bulk('Cu', 'fcc', { a: 3.615, cubic: true }), { species: ['Cu'] });
 */
export async function writeLammpsData(path: string, system: System, options: WriteLammpsDataOptions = {}): Promise<void> {
  const text = formatLammpsData(system, options);
  await writeFileAtomic(path, async (write) => write(text), 'writeLammpsData');
}
