// Reads the LAMMPS parameter files of the many-body styles (`pair_style tersoff`, `tersoff/mod`,
// `tersoff/zbl`, `sw`) the way LAMMPS's PotentialFileReader does: `#` starts a comment, and an entry is three
// element names followed by the style's numbers, which may run over several lines. Every entry is checked
// here, with the file, line and entry in the message (MANY_BODY_PARSE); native code receives the numbers of
// every element triplet in a fixed order and checks only their count and finiteness.

import { HookmdError, HookmdTypeError } from '../errors.js';
import { readRegularFile } from '../regular-file.js';
import { atomicNumber } from '../data/index.js';
import { showText } from '../describe-value.js';

const isElementSymbol = (text: string): boolean => {
  try {
    atomicNumber(text);
    return true;
  } catch {
    return false;
  }
};

/** The LAMMPS pair styles these files are read for. */
export type ManyBodyStyleName = 'tersoff' | 'tersoff/mod' | 'tersoff/zbl' | 'sw';

/** Numbers after the three element names of one entry (native/cpp/kernels/ManyBodyForceKernel.h lists the same). */
export const ENTRY_LENGTH: Readonly<Record<ManyBodyStyleName, number>> = { tersoff: 14, 'tersoff/mod': 17, 'tersoff/zbl': 18, sw: 11 };

/**
 * The species to use, as `pair_coeff * * file A B` names them: the file's names when they are element symbols
 * (`['Si', 'C']`), or a map from each element symbol to the name the file gives it (`{ Si: 'Si(D)', C: 'C' }`).
 */
export type ManyBodyElements = readonly string[] | Readonly<Record<string, string>>;

/** The parsed file: the species chosen, and nt³ entries, (a, b, c) at (a·nt + b)·nt + c. */
export interface ManyBodyFileData {
  readonly style: ManyBodyStyleName;
  /** Element symbols, in the order the entries are indexed. */
  readonly elements: readonly string[];
  /** The names the file gives them. */
  readonly names: readonly string[];
  readonly entries: Float64Array;
}

/** Largest parameter file read (bytes): the shipped ones are a few kB. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Most elements one file may describe: nt³ entries are kept, and types fit in a byte. */
const MAX_ELEMENTS = 16;

interface Word {
  readonly text: string;
  readonly line: number;
}

/** One entry's numbers with their names (the columns LAMMPS's documentation gives), for the checks. */
const COLUMNS: Readonly<Record<ManyBodyStyleName, readonly string[]>> = {
  tersoff: ['m', 'gamma', 'lambda3', 'c', 'd', 'costheta0', 'n', 'beta', 'lambda2', 'B', 'R', 'D', 'lambda1', 'A'],
  'tersoff/mod': ['beta', 'alpha', 'h', 'eta', 'beta_ters', 'lambda2', 'B', 'R', 'D', 'lambda1', 'A', 'n', 'c1', 'c2', 'c3', 'c4', 'c5'],
  'tersoff/zbl': ['m', 'gamma', 'lambda3', 'c', 'd', 'costheta0', 'n', 'beta', 'lambda2', 'B', 'R', 'D', 'lambda1', 'A', 'Z_i', 'Z_j', 'ZBLcut', 'ZBLexpscale'],
  sw: ['epsilon', 'sigma', 'a', 'lambda', 'gamma', 'costheta0', 'A', 'B', 'p', 'q', 'tol'],
};

function parseError(file: string, line: number, message: string): HookmdError {
  return new HookmdError('MANY_BODY_PARSE', `${file}:${line}: ${message}`, { file, line });
}

/** The problem with one entry's numbers as LAMMPS would refuse them ("Illegal ... parameter"), or undefined. */
function entryProblem(style: ManyBodyStyleName, v: readonly number[]): string | undefined {
  const names = COLUMNS[style];
  const at = (name: string): number => v[names.indexOf(name)] as number;
  const nonNegative = (list: readonly string[]): string | undefined => {
    const bad = list.find((name) => !(at(name) >= 0));
    return bad === undefined ? undefined : `${bad} must be >= 0, got ${at(bad)}`;
  };
  if (style === 'sw') return nonNegative(['epsilon', 'sigma', 'a', 'lambda', 'gamma', 'A', 'B', 'p', 'q', 'tol']);
  const m = style === 'tersoff/mod' ? at('beta') : at('m');
  if (m !== 1 && m !== 3) return `${style === 'tersoff/mod' ? 'beta (the exponent)' : 'm'} must be 1 or 3, got ${showText(m)}`;
  const common = nonNegative(['lambda2', 'B', 'R', 'D', 'lambda1', 'A']);
  if (common !== undefined) return common;
  if (at('D') > at('R')) return `D (${at('D')}) must not exceed R (${at('R')})`;
  if (style === 'tersoff/mod') {
    const own = nonNegative(['beta_ters']);
    if (own !== undefined) return own;
    const exponents = nonNegative(['eta', 'n']);
    if (exponents !== undefined) return exponents;
    if (!(at('c3') > 0)) return `c3 must be > 0, got ${at('c3')}`;
    return undefined;
  }
  const own = nonNegative(['gamma', 'c', 'd', 'n', 'beta']);
  if (own !== undefined) return own;
  if (at('c') > 0 && !(at('d') > 0)) return `d must be > 0 where c is not 0, got ${at('d')}`;
  if (style === 'tersoff/zbl') {
    if (!(at('Z_i') >= 1) || !(at('Z_j') >= 1)) return `Z_i and Z_j must be >= 1, got ${at('Z_i')} and ${at('Z_j')}`;
    return nonNegative(['ZBLcut', 'ZBLexpscale']);
  }
  return undefined;
}

/** The words of `text` with their 1-based line numbers, comments left out. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const hash = raw.indexOf('#');
    const line = hash < 0 ? raw : raw.slice(0, hash);
    for (const text of line.trim().split(/\s+/)) if (text !== '') words.push({ text, line: index + 1 });
  });
  return words;
}

const isNumber = (text: string): boolean => text.trim() !== '' && Number.isFinite(Number(text));

/** Which Tersoff variant an entry length and the file's name say. */
function tersoffStyleOf(file: string, length: number, requested: ManyBodyStyleName | undefined, line: number): ManyBodyStyleName {
  const byLength = (Object.keys(ENTRY_LENGTH) as ManyBodyStyleName[]).filter((s) => s !== 'sw' && ENTRY_LENGTH[s] === length);
  if (requested !== undefined) {
    if (ENTRY_LENGTH[requested] !== length) {
      throw parseError(file, line, `a ${requested} entry has ${ENTRY_LENGTH[requested]} numbers after its elements, this one ${length}`);
    }
    return requested;
  }
  if (/\.modc$|tersoff\.mod\.c|mod\/c/i.test(file)) {
    throw parseError(file, line, "this is a tersoff/mod/c file (its name says so); hookmd reads tersoff, tersoff/mod and tersoff/zbl files");
  }
  const [style] = byLength;
  if (style === undefined) {
    throw parseError(file, line, `an entry has ${length} numbers after its elements: tersoff files have 14, tersoff/mod 17, tersoff/zbl 18`);
  }
  return style;
}

/** The species of `elements` (default: every name of the file, each an element symbol) as symbol and file name. */
function chooseSpecies(where: string, names: readonly string[], elements: ManyBodyElements | undefined): { symbol: string; name: string }[] {
  const pairs: [string, string][] =
    elements === undefined ? names.map((n) => [n, n]) : Array.isArray(elements) ? elements.map((n) => [n, n]) : Object.entries(elements as Record<string, string>);
  if (pairs.length === 0) throw new HookmdTypeError('INVALID_OPTIONS', `${where}: elements must name at least one element`, { field: 'elements', value: elements });
  return pairs.map(([symbol, name]) => {
    if (!isElementSymbol(symbol)) {
      const hint = elements === undefined || Array.isArray(elements) ? `; map each element to its name in the file, as in elements: { Si: '${name}' }` : '';
      throw new HookmdError('MISSING_SPECIES', `${where}: '${symbol}' is not an element symbol${hint}`, { field: 'elements', value: symbol });
    }
    if (!names.includes(name)) {
      throw new HookmdError('MISSING_SPECIES', `${where}: the file has no entries for ${name}; it covers ${names.join(', ')}`, { field: 'elements', value: name });
    }
    return { symbol, name };
  });
}

/**
 * Reads a LAMMPS Tersoff or Stillinger–Weber file. `family` picks the format; for Tersoff, `style` names the
 * variant when the entry length alone does not say it (otherwise 14 numbers are tersoff, 17 tersoff/mod, 18
 * tersoff/zbl). `elements` chooses the species, as `pair_coeff * * file A B` does: then only their
 * triplets must be present. Throws READ_FAILED, MANY_BODY_PARSE (file, line, entry) or MISSING_TRIPLET.
 */
export function readManyBodyFile(
  model: string,
  file: string,
  family: 'tersoff' | 'sw',
  style?: ManyBodyStyleName,
  elements?: ManyBodyElements,
): ManyBodyFileData {
  if (typeof file !== 'string' || file === '') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${model}: file must be the path of a LAMMPS ${family} file`, { field: 'file', value: file });
  }
  let text: string;
  try {
    text = readRegularFile(file, MAX_FILE_BYTES, 'a parameter file').toString('utf8');
  } catch (error) {
    throw new HookmdError('READ_FAILED', `${model}: cannot read ${file}: ${(error as Error).message}`, { file });
  }
  const where = `${model}: ${file}`;
  const words = wordsOf(text);
  if (words.length === 0) throw parseError(where, 1, 'the file has no entries');
  // The entry length: numbers between the first entry's elements and the next element name.
  let length = 0;
  while (3 + length < words.length && isNumber((words[3 + length] as Word).text)) length++;
  const valid = family === 'sw' ? [ENTRY_LENGTH.sw] : [ENTRY_LENGTH.tersoff, ENTRY_LENGTH['tersoff/mod'], ENTRY_LENGTH['tersoff/zbl']];
  const stop = words[3 + length];
  if (!valid.includes(length) && stop !== undefined && !valid.some((n) => n < length)) {
    // Not an element name after a whole entry: a word that should have been a number.
    const head = words.slice(0, 3).map((w) => w.text).join(' ');
    throw parseError(where, stop.line, `entry ${head}: expected a number, got '${stop.text}' (number ${length + 1} after the elements)`);
  }
  const resolved: ManyBodyStyleName = family === 'sw' ? 'sw' : tersoffStyleOf(file, length, style, (words[0] as Word).line);
  const size = ENTRY_LENGTH[resolved];
  const columns = COLUMNS[resolved];
  const table = new Map<string, { values: number[]; line: number }>();
  const order: string[] = [];
  for (let k = 0; k < words.length; k += 3 + size) {
    const head = words.slice(k, k + 3);
    const line = (words[k] as Word).line;
    if (words.length - k < 3 + size) {
      throw parseError(where, line, `the file ends inside an entry: a ${resolved} entry is 3 element names and ${size} numbers, ${words.length - k} words are left`);
    }
    const names = head.map((w) => w.text);
    for (const name of names) {
      if (isNumber(name)) throw parseError(where, line, `expected three element names before the numbers, got '${name}'`);
      if (!order.includes(name)) order.push(name);
    }
    const values = words.slice(k + 3, k + 3 + size).map((w, c) => {
      const value = Number(w.text);
      if (!isNumber(w.text)) throw parseError(where, w.line, `entry ${names.join(' ')}: ${columns[c]} must be a number, got '${w.text}'`);
      return value;
    });
    const problem = entryProblem(resolved, values);
    if (problem !== undefined) throw parseError(where, line, `entry ${names.join(' ')}: ${problem}`);
    const key = names.join(' ');
    if (table.has(key)) throw parseError(where, line, `entry ${key} appears twice (first on line ${table.get(key)?.line})`);
    table.set(key, { values, line });
  }
  const chosen = chooseSpecies(where, order, elements);
  const species = chosen.map((c) => c.name);
  if (species.length > MAX_ELEMENTS) throw parseError(where, 1, `the file describes ${species.length} elements, more than ${MAX_ELEMENTS}`);
  const nt = species.length;
  const entries = new Float64Array(nt * nt * nt * size);
  for (let a = 0; a < nt; a++) {
    for (let b = 0; b < nt; b++) {
      for (let c = 0; c < nt; c++) {
        const key = `${species[a]} ${species[b]} ${species[c]}`;
        const entry = table.get(key);
        if (entry === undefined) {
          throw new HookmdError('MISSING_TRIPLET', `${where}: the file has no entry ${key}${elements === undefined ? '; pass elements to use a subset of its elements' : ''}`, {
            field: 'elements',
            value: key,
          });
        }
        // The (i, j, j) entries set the bond order, whose exponent divides.
        const exponent = resolved === 'sw' ? 1 : Math.min(...['n', 'eta'].filter((name) => COLUMNS[resolved].includes(name)).map((name) => entry.values[COLUMNS[resolved].indexOf(name)] as number));
        if (b === c && !(exponent > 0)) throw parseError(where, entry.line, `entry ${key}: ${resolved === 'tersoff/mod' ? 'eta and n' : 'n'} must be > 0 in an entry that sets a bond order, got ${showText(exponent)}`);
        entries.set(entry.values, ((a * nt + b) * nt + c) * size);
      }
    }
  }
  return { style: resolved, elements: chosen.map((c) => c.symbol), names: species, entries };
}
