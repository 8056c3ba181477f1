// Common inputs, made the way ASE's ase.build makes them: bulk crystals, supercells and rattled copies.
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { atomicNumber } from './elements.js';
import { createRng } from './random.js';
import type { System } from './system.js';
import { normalizeSystem } from './validate.js';
import { METAL } from './units.js';
import { checkAtomCount } from './limits.js';
import { showText, showValue } from '../describe-value.js';

/** Crystal structures `bulk` can build. */
export type CrystalStructure = 'fcc' | 'bcc' | 'sc' | 'hcp' | 'diamond' | CompoundStructure;

/** Compound structures, built from a formula of two atoms (three for fluorite): `bulk('NaCl', 'rocksalt', { a })`, `bulk('CaF2', 'fluorite', { a })`. */
export type CompoundStructure = 'rocksalt' | 'zincblende' | 'cesiumchloride' | 'fluorite' | 'wurtzite';

// The atoms of the formula each compound structure takes, in formula order.
const COMPOUND_ELEMENTS: Readonly<Record<CompoundStructure, number>> = { rocksalt: 2, zincblende: 2, cesiumchloride: 2, fluorite: 3, wurtzite: 2 };

/** Options of `bulk`. */
export interface BulkOptions {
  /** Lattice constant (Å in metal units). Defaults to the element's reference value where one is known. */
  a?: number;
  /**
   * c for hcp (Å). Default, as ase.build.bulk: the element's reference c/a times a (given or not) when its
   * reference structure is hcp, else the ideal a·√(8/3).
   */
  c?: number;
  /** The conventional cubic cell (fcc: 4 atoms, bcc: 2, diamond: 8) instead of the primitive one. */
  cubic?: boolean;
}

// Reference ground states at low temperature: ASE's ase.data.reference_states (ASE 3.22) for every element
// whose structure bulk builds; hcp entries carry ASE's c/a.
const REFERENCE: Record<string, [CrystalStructure, number, number?]> = {
  Li: ['bcc', 3.49], Be: ['hcp', 2.29, 1.567], C: ['diamond', 3.57], Ne: ['fcc', 4.43], Na: ['bcc', 4.23],
  Mg: ['hcp', 3.21, 1.624], Al: ['fcc', 4.05], Si: ['diamond', 5.43], Ar: ['fcc', 5.26], K: ['bcc', 5.23],
  Ca: ['fcc', 5.58], Sc: ['hcp', 3.31, 1.594], Ti: ['hcp', 2.95, 1.588], V: ['bcc', 3.02], Cr: ['bcc', 2.88],
  Fe: ['bcc', 2.87], Co: ['hcp', 2.51, 1.622], Ni: ['fcc', 3.52], Cu: ['fcc', 3.61], Zn: ['hcp', 2.66, 1.856],
  Ge: ['diamond', 5.66], Se: ['hcp', 4.36, 1.136], Kr: ['fcc', 5.72], Rb: ['bcc', 5.59], Sr: ['fcc', 6.08],
  Y: ['hcp', 3.65, 1.571], Zr: ['hcp', 3.23, 1.593], Nb: ['bcc', 3.3], Mo: ['bcc', 3.15], Tc: ['hcp', 2.74, 1.604],
  Ru: ['hcp', 2.7, 1.584], Rh: ['fcc', 3.8], Pd: ['fcc', 3.89], Ag: ['fcc', 4.09], Cd: ['hcp', 2.98, 1.886],
  Te: ['hcp', 4.45, 1.33], Xe: ['fcc', 6.2], Cs: ['bcc', 6.05], Ba: ['bcc', 5.02], La: ['hcp', 3.75, 1.619],
  Ce: ['fcc', 5.16], Pr: ['hcp', 3.67, 1.614], Nd: ['hcp', 3.66, 1.614], Eu: ['bcc', 4.61], Gd: ['hcp', 3.64, 1.588],
  Tb: ['hcp', 3.6, 1.581], Dy: ['hcp', 3.59, 1.573], Ho: ['hcp', 3.58, 1.57], Er: ['hcp', 3.56, 1.57],
  Tm: ['hcp', 3.54, 1.57], Yb: ['fcc', 5.49], Lu: ['hcp', 3.51, 1.585], Hf: ['hcp', 3.2, 1.582], Ta: ['bcc', 3.31],
  W: ['bcc', 3.16], Re: ['hcp', 2.76, 1.615], Os: ['hcp', 2.74, 1.579], Ir: ['fcc', 3.84], Pt: ['fcc', 3.92],
  Au: ['fcc', 4.08], Tl: ['hcp', 3.46, 1.599], Pb: ['fcc', 4.95], Po: ['sc', 3.35], Ac: ['fcc', 5.31],
  Th: ['fcc', 5.08],
};

// Elements whose reference state needs an atomic basis ASE does not list: bulk(symbol) alone is refused there.
const BASIS_NEEDED: ReadonlySet<string> = new Set(['Se', 'Te']);

/**
 * @internal The reference structure, lattice constant a (Å) and, for hcp, c/a of an element, as ASE's
 * reference_states lists them, or undefined.
 */
export function referenceState(symbol: string): readonly [CrystalStructure, number, number?] | undefined {
  return REFERENCE[symbol];
}

function positive(value: number, field: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new HookmdRangeError('INVALID_LATTICE', `bulk: ${field} must be a finite number > 0, got ${showText(value)}`, { field, value });
  }
  return value;
}

function scaled(fractional: number[][], cell: number[][]): number[][] {
  return fractional.map((f) => [0, 1, 2].map((k) => f[0] * cell[0][k] + f[1] * cell[1][k] + f[2] * cell[2][k]));
}

// ASE's bulk() keywords that hookmd takes under another name, or not at all.
const BULK_ALIASES = {
  crystalstructure: "the structure is the second argument: bulk(symbol, 'fcc', { a })",
  covera: 'hookmd takes c itself: { c: covera·a } (hcp)',
  orthorhombic: 'hookmd builds the primitive cell, or with { cubic: true } the conventional cubic one',
  latticeconstant: 'a',
  alat: 'a',
};

/**
 * The options of `bulk`, checked: ASE's positional lattice constant (`bulk('Cu', 'fcc', 3.61)`) and unknown
 * keys are errors that show the spelling hookmd takes.
 */
function bulkOptions(symbol: string, structure: unknown, options: unknown): BulkOptions {
  if (typeof options === 'number') {
    throw new HookmdTypeError('INVALID_OPTIONS', `bulk: the lattice constant goes in the options object: bulk('${symbol}', '${showText(structure)}', { a: ${options} }) (ASE's positional a)`, {
      field: 'options',
      value: options,
      suggestion: `{ a: ${options} }`,
    });
  }
  return checkKeys('bulk', options, ['a', 'c', 'cubic'], '', BULK_ALIASES) as BulkOptions;
}

/**
 * A periodic bulk crystal (ASE's `bulk`). The options may come second when the element's reference
 * structure is meant: `bulk('Cu', { cubic: true })`.
 *
 * Compounds take a formula: `bulk('NaCl', 'rocksalt', { a: 5.64 })`, and zincblende, cesiumchloride,
 * fluorite (`'CaF2'`) and wurtzite (`'ZnO'`, with c), as ase.build.bulk builds them.
 *
 * @example
 * const argon = bulk('Ar', 'fcc', { a: 5.26, cubic: true }); // 4 atoms, 5.26 Å cubic cell
 * const salt = bulk('NaCl', 'rocksalt', { a: 5.64, cubic: true }); // 8 atoms
 */
export function bulk(symbol: string, structure?: CrystalStructure | BulkOptions, options: BulkOptions = {}): System {
  if (structure !== null && typeof structure === 'object' && arguments.length < 3) [structure, options] = [undefined, structure];
  if (typeof structure === 'string' && Object.hasOwn(COMPOUND_ELEMENTS, structure)) return compound(symbol, structure as CompoundStructure, bulkOptions(symbol, structure, options));
  atomicNumber(symbol);
  options = bulkOptions(symbol, structure, options);
  const reference = REFERENCE[symbol];
  if (structure === undefined && BASIS_NEEDED.has(symbol)) {
    throw new HookmdError('MISSING_STRUCTURE', `bulk: ${symbol}'s reference state is trigonal (ASE lists it as hcp with an atomic basis it does not give), so ase.build.bulk refuses it too; pass the structure: bulk('${symbol}', 'hcp')`, { field: 'structure', value: symbol });
  }
  const kind = (structure as CrystalStructure | undefined) ?? reference?.[0];
  if (kind === undefined) {
    throw new HookmdError('MISSING_STRUCTURE', `bulk: no reference structure for ${symbol}; pass one`, { field: 'structure', value: symbol });
  }
  const known = reference !== undefined && reference[0] === kind ? reference : undefined;
  if (options.a === undefined && known === undefined) {
    throw new HookmdError('MISSING_LATTICE', `bulk: no reference lattice constant for ${kind} ${symbol}; pass { a }`, { field: 'a' });
  }
  const a = positive(options.a ?? (known as [CrystalStructure, number])[1], 'a');
  const h = a / 2;
  let cell: number[][];
  let fractional: number[][];
  switch (kind) {
    case 'sc':
      cell = [[a, 0, 0], [0, a, 0], [0, 0, a]];
      fractional = [[0, 0, 0]];
      break;
    case 'fcc':
      [cell, fractional] = options.cubic
        ? [[[a, 0, 0], [0, a, 0], [0, 0, a]], [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]]]
        : [[[0, h, h], [h, 0, h], [h, h, 0]], [[0, 0, 0]]];
      break;
    case 'bcc':
      [cell, fractional] = options.cubic
        ? [[[a, 0, 0], [0, a, 0], [0, 0, a]], [[0, 0, 0], [0.5, 0.5, 0.5]]]
        : [[[-h, h, h], [h, -h, h], [h, h, -h]], [[0, 0, 0]]];
      break;
    case 'diamond':
      [cell, fractional] = options.cubic
        ? [[[a, 0, 0], [0, a, 0], [0, 0, a]], [[0, 0, 0], [0.25, 0.25, 0.25], [0, 0.5, 0.5], [0.25, 0.75, 0.75],
            [0.5, 0, 0.5], [0.75, 0.25, 0.75], [0.5, 0.5, 0], [0.75, 0.75, 0.25]]]
        : [[[0, h, h], [h, 0, h], [h, h, 0]], [[0, 0, 0], [0.25, 0.25, 0.25]]];
      break;
    case 'hcp': {
      const c = positive(options.c ?? a * (known?.[2] ?? Math.sqrt(8 / 3)), 'c');
      cell = [[a, 0, 0], [-a / 2, (a * Math.sqrt(3)) / 2, 0], [0, 0, c]];
      fractional = [[0, 0, 0], [1 / 3, 2 / 3, 0.5]];
      break;
    }
    default:
      throw new HookmdError('UNKNOWN_STRUCTURE', `bulk: unknown crystal structure ${showValue(kind)}`, { field: 'structure', value: kind });
  }
  const positions = scaled(fractional, cell);
  return { symbols: positions.map(() => symbol), positions, cell, pbc: [true, true, true] };
}

/**
 * A compound crystal as ase.build.bulk builds it (ASE 3.22): the formula's elements in order, a required
 * (there are no reference values), the primitive cell, or with `cubic` the conventional one (rocksalt and
 * zincblende: 8 atoms; cesiumchloride: 2). Wurtzite takes c (default the ideal a·√(8/3)) and ASE's
 * u = 1/4 + 1/(3(c/a)²).
 */
function compound(formula: string, kind: CompoundStructure, options: BulkOptions): System {
  // ASE's string2symbols: an element and an optional count ('CaF2' is Ca, F, F).
  const parts = typeof formula === 'string' ? [...formula.matchAll(/([A-Z][a-z]?)(\d*)/g)] : [];
  const symbols = parts.flatMap(([, element, n]) => Array<string>(n === '' ? 1 : Number(n)).fill(element));
  const count = COMPOUND_ELEMENTS[kind];
  if (parts.map(([whole]) => whole).join('') !== formula || symbols.length !== count) {
    throw new HookmdError('INVALID_FORMULA', `bulk: ${kind} takes a formula of ${count} atoms ('${kind === 'fluorite' ? 'CaF2' : kind === 'wurtzite' ? 'ZnO' : 'NaCl'}'), got ${showValue(formula)}`, { field: 'symbol', value: formula });
  }
  for (const element of symbols) atomicNumber(element);
  if (options.a === undefined) throw new HookmdError('MISSING_LATTICE', `bulk: no reference lattice constant for ${kind} ${formula}; pass { a }`, { field: 'a' });
  const a = positive(options.a, 'a');
  if (options.cubic === true && (kind === 'fluorite' || kind === 'wurtzite')) {
    throw new HookmdError('INVALID_OPTIONS', `bulk: no cubic cell for the ${kind} structure (ase.build.bulk refuses it too)`, { field: 'cubic', value: true });
  }
  const h = a / 2;
  const fcc = [[0, h, h], [h, 0, h], [h, h, 0]];
  const cube = [[a, 0, 0], [0, a, 0], [0, 0, a]];
  const [s1, s2, s3] = symbols;
  const cartesian = (cell: number[][], species: string[], positions: number[][]): System => ({ symbols: species, positions, cell, pbc: [true, true, true] });
  const fractional = (cell: number[][], species: string[], f: number[][]): System => cartesian(cell, species, scaled(f, cell));
  const alternating = [s1, s2, s1, s2, s1, s2, s1, s2];
  switch (kind) {
    case 'rocksalt':
      return options.cubic === true
        ? fractional(cube, alternating, [[0, 0, 0], [0.5, 0, 0], [0, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0, 0.5], [0, 0, 0.5], [0.5, 0.5, 0], [0, 0.5, 0]])
        : cartesian(fcc, [s1, s2], [[0, 0, 0], [h, 0, 0]]);
    case 'zincblende':
      return options.cubic === true
        ? fractional(cube, alternating, [[0, 0, 0], [0.25, 0.25, 0.25], [0, 0.5, 0.5], [0.25, 0.75, 0.75], [0.5, 0, 0.5], [0.75, 0.25, 0.75], [0.5, 0.5, 0], [0.75, 0.75, 0.25]])
        : cartesian(fcc, [s1, s2], [[0, 0, 0], [a / 4, a / 4, a / 4]]);
    case 'cesiumchloride':
      return cartesian(cube, [s1, s2], [[0, 0, 0], [h, h, h]]);
    case 'fluorite':
      return cartesian(fcc, [s1, s2, s3], [[0, 0, 0], [a / 4, a / 4, a / 4], [(3 * a) / 4, (3 * a) / 4, (3 * a) / 4]]);
    case 'wurtzite': {
      const c = positive(options.c ?? a * Math.sqrt(8 / 3), 'c');
      const u = 0.25 + 1 / 3 / (c / a) ** 2;
      const cell = [[a, 0, 0], [-a / 2, (a * Math.sqrt(3)) / 2, 0], [0, 0, c]];
      return fractional(cell, [s1, s2, s1, s2], [[0, 0, 0], [1 / 3, 2 / 3, 0.5 - u], [1 / 3, 2 / 3, 0.5], [0, 0, 1 - u]]);
    }
  }
}

// Three counts, one per lattice vector; one integer n stands for [n, n, n], as in ASE's Atoms.repeat(n).
function repeatCounts(counts: unknown): readonly [number, number, number] {
  if (typeof counts === 'number') return [counts, counts, counts];
  if (!Array.isArray(counts) || counts.length !== 3) {
    const padded = Array.isArray(counts) && counts.length < 3 ? ` (for ${counts.length === 0 ? 'no' : counts.length === 1 ? 'one' : 'two'} repeated direction${counts.length === 1 ? '' : 's'} write [${[...counts, 1, 1, 1].slice(0, 3).join(', ')}])` : '';
    throw new HookmdTypeError('INVALID_REPEAT', `repeat: counts must be three integers [nx, ny, nz], one per lattice vector, or one integer for all three, got ${showValue(counts)}${padded}`, {
      field: 'counts',
      value: counts,
    });
  }
  return counts as [number, number, number];
}

/**
 * A supercell: `counts[k]` copies along lattice vector k (one integer n means [n, n, n]), atoms ordered
 * block by block as ASE's `Atoms.repeat` orders them.
 *
 * @example
 * const cube = repeat(bulk('Cu', 'fcc', { cubic: true }), [3, 3, 3]); // 108 atoms
 */
export function repeat(system: System, repeats: readonly [number, number, number] | number): System {
  const counts = repeatCounts(repeats);
  for (const [k, n] of counts.entries()) {
    if (!Number.isInteger(n) || n < 1) {
      throw new HookmdRangeError('INVALID_REPEAT', `repeat: counts[${k}] must be an integer ≥ 1, got ${showText(n)}`, { field: 'counts', index: k, value: n });
    }
  }
  const s = normalizeSystem(system, 0, METAL, 'repeat');
  const n = s.numAtoms;
  checkAtomCount(n * counts[0] * counts[1] * counts[2], 'repeat: the supercell');
  const positions: number[][] = [];
  const numbers: number[] = [];
  const masses: number[] = [];
  const velocities: number[][] = [];
  for (let i = 0; i < counts[0]; i++) {
    for (let j = 0; j < counts[1]; j++) {
      for (let k = 0; k < counts[2]; k++) {
        const shift = [0, 1, 2].map((c) => i * s.cell[c] + j * s.cell[3 + c] + k * s.cell[6 + c]);
        for (let a = 0; a < n; a++) {
          positions.push([0, 1, 2].map((c) => s.positions[3 * a + c] + shift[c]));
          velocities.push([0, 1, 2].map((c) => s.velocities[3 * a + c]));
          numbers.push(s.atomicNumbers[a]);
          masses.push(s.masses[a]);
        }
      }
    }
  }
  const cell = [0, 1, 2].map((r) => [0, 1, 2].map((c) => s.cell[3 * r + c] * counts[r]));
  return {
    atomicNumbers: numbers,
    positions,
    velocities,
    ...(system.masses === undefined ? {} : { masses }),
    cell,
    pbc: [s.pbc[0] === 1, s.pbc[1] === 1, s.pbc[2] === 1],
    info: { ...s.info },
  };
}

/** Options of `rattle`, ASE's keywords of `Atoms.rattle`. */
export interface RattleOptions {
  /** Standard deviation of each displacement (Å in metal units; ASE's default 0.001). */
  stdev?: number;
  /** Seed of the random stream (default 42, as ASE's). */
  seed?: number;
}

/**
 * A copy with every coordinate displaced by a normal deviate of standard deviation `stdev`
 * (ASE's `Atoms.rattle`; the stream is hookmd's own, reproducible for a seed but not numpy's). ASE's
 * keywords may come as an object: `rattle(system, { stdev: 0.1, seed: 1 })`.
 *
 * @example
 * const shaken = rattle(bulk('Ar', 'fcc', { cubic: true }), 0.05, 7);
 */
export function rattle(system: System, stdev: number | RattleOptions = 0.001, seed = 42): System {
  if (stdev !== null && typeof stdev === 'object') {
    if (arguments.length > 2) {
      throw new HookmdTypeError('INVALID_OPTIONS', 'rattle: give the seed either in the options object or as the third argument, not both', { field: 'seed', value: seed });
    }
    const options = checkKeys('rattle', stdev, ['stdev', 'seed'], '', { rng: 'seed' }) as RattleOptions;
    return rattle(system, options.stdev ?? 0.001, options.seed ?? 42);
  }
  if (!(Number.isFinite(stdev) && stdev >= 0)) {
    throw new HookmdRangeError('INVALID_STDEV', `rattle: stdev must be a finite number ≥ 0, got ${showText(stdev)}`, { field: 'stdev', value: stdev });
  }
  if (!Number.isSafeInteger(seed)) {
    throw new HookmdRangeError('INVALID_SEED', `rattle: seed must be a safe integer, got ${showText(seed)}`, { field: 'seed', value: seed });
  }
  const s = normalizeSystem(system, 0, METAL, 'rattle');
  const rng = createRng(seed);
  const positions = Array.from({ length: s.numAtoms }, (_, a) => [0, 1, 2].map((c) => s.positions[3 * a + c] + stdev * rng.normal()));
  return { ...system, positions };
}
