// Crystallographic Information Files (CIF 1.1): the first data block's cell parameters, symmetry
// operations and atom sites, expanded to the full cell as ase.io.read does (ASE's crystal()). Only fully
// occupied sites are accepted: a disordered structure has no single set of atoms to simulate.
import { atomicNumber } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdError } from '../errors.js';
import { checkReadSystem } from './read-check.js';
import { fractionalToCartesian } from './structure-text.js';

interface Token {
  text: string;
  line: number;
  /** Quoted or a text field: never a keyword. */
  quoted: boolean;
}

class CifError {
  constructor(readonly file: string) {}
  at(line: number, message: string, code: string = 'CIF_PARSE', cause?: unknown): HookmdError {
    return new HookmdError(code, `readStructures: ${this.file}:${line}: ${message}`, { file: this.file, line }, cause === undefined ? undefined : { cause });
  }
}

function tokenize(text: string, errors: CifError): Token[] {
  const tokens: Token[] = [];
  const lines = text.split(/\r?\n/);
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l] as string;
    if (line.startsWith(';')) {
      // A text field runs to the next line that starts with ';'.
      const start = l;
      const body = [line.slice(1)];
      for (l++; l < lines.length && !(lines[l] as string).startsWith(';'); l++) body.push(lines[l] as string);
      if (l >= lines.length) throw errors.at(start + 1, 'a text field (;) is never closed');
      tokens.push({ text: body.join('\n'), line: start + 1, quoted: true });
      continue;
    }
    let k = 0;
    while (k < line.length) {
      const ch = line[k] as string;
      if (/\s/.test(ch)) {
        k++;
      } else if (ch === '#') {
        break;
      } else if (ch === "'" || ch === '"') {
        // A quote closes only when followed by whitespace or the line's end.
        let end = k + 1;
        while (end < line.length && !(line[end] === ch && (end + 1 === line.length || /\s/.test(line[end + 1] as string)))) end++;
        if (end >= line.length) throw errors.at(l + 1, `a ${ch}-quoted value is never closed`);
        tokens.push({ text: line.slice(k + 1, end), line: l + 1, quoted: true });
        k = end + 1;
      } else {
        let end = k;
        while (end < line.length && !/\s/.test(line[end] as string)) end++;
        tokens.push({ text: line.slice(k, end), line: l + 1, quoted: false });
        k = end;
      }
    }
  }
  return tokens;
}

interface Loop {
  tags: string[];
  rows: Token[][];
  /** The line of its loop_ keyword. */
  line: number;
}

interface Block {
  name: string;
  items: Map<string, Token>;
  loops: Loop[];
}

function parseBlocks(tokens: Token[], errors: CifError): Block[] {
  const blocks: Block[] = [];
  let block: Block | undefined;
  const isKeyword = (t: Token | undefined): boolean =>
    t !== undefined && !t.quoted && (t.text.startsWith('_') || /^(loop_|data_|save_|global_|stop_)/i.test(t.text));
  for (let k = 0; k < tokens.length; ) {
    const token = tokens[k] as Token;
    const lower = token.text.toLowerCase();
    if (!token.quoted && lower.startsWith('data_')) {
      block = { name: token.text.slice(5), items: new Map(), loops: [] };
      blocks.push(block);
      k++;
    } else if (block === undefined) {
      throw errors.at(token.line, `expected data_ before '${token.text}'`);
    } else if (!token.quoted && lower === 'loop_') {
      const tags: string[] = [];
      k++;
      while (k < tokens.length && !tokens[k]?.quoted && tokens[k]?.text.startsWith('_')) tags.push((tokens[k] as Token).text.toLowerCase()), k++;
      if (tags.length === 0) throw errors.at(token.line, 'loop_ without tags');
      const values: Token[] = [];
      while (k < tokens.length && !isKeyword(tokens[k])) values.push(tokens[k++] as Token);
      if (values.length % tags.length !== 0) {
        throw errors.at(token.line, `the loop of ${tags[0]} has ${values.length} values, not a multiple of its ${tags.length} tags`);
      }
      const rows: Token[][] = [];
      for (let r = 0; r < values.length; r += tags.length) rows.push(values.slice(r, r + tags.length));
      block.loops.push({ tags, rows, line: token.line });
    } else if (!token.quoted && token.text.startsWith('_')) {
      const value = tokens[k + 1];
      if (value === undefined || isKeyword(value)) throw errors.at(token.line, `${token.text} has no value`);
      block.items.set(token.text.toLowerCase(), value);
      k += 2;
    } else {
      throw errors.at(token.line, `unexpected value '${token.text}' outside a loop`);
    }
  }
  return blocks;
}

/** A CIF number: "5.431(2)" is 5.431; '.' and '?' are unknown. */
function cifNumber(token: Token | undefined, what: string, errors: CifError, fallbackLine: number): number {
  if (token === undefined) throw errors.at(fallbackLine, `${what} is missing`);
  const value = Number(token.text.replace(/\(\d+\)$/, ''));
  if (!Number.isFinite(value)) throw errors.at(token.line, `${what}: expected a number, got '${token.text}'`);
  return value;
}

/** ASE's cellpar_to_cell with its defaults: a along x, b in the xy plane, exact zeros for right angles. */
export function cellFromParameters(a: number, b: number, c: number, alpha: number, beta: number, gamma: number): number[][] {
  const eps = 2 * 1.4210854715202004e-14; // 2·spacing(90.0), as ASE
  const cosOf = (angle: number): number => (Math.abs(Math.abs(angle) - 90) < eps ? 0 : Math.cos((angle * Math.PI) / 180));
  const cosAlpha = cosOf(alpha);
  const cosBeta = cosOf(beta);
  let cosGamma: number;
  let sinGamma: number;
  if (Math.abs(gamma - 90) < eps) [cosGamma, sinGamma] = [0, 1];
  else if (Math.abs(gamma + 90) < eps) [cosGamma, sinGamma] = [0, -1];
  else [cosGamma, sinGamma] = [Math.cos((gamma * Math.PI) / 180), Math.sin((gamma * Math.PI) / 180)];
  const cy = (cosAlpha - cosBeta * cosGamma) / sinGamma;
  const czSquared = 1 - cosBeta * cosBeta - cy * cy;
  return [
    [a, 0, 0],
    [b * cosGamma, b * sinGamma, 0],
    [c * cosBeta, c * cy, c * Math.sqrt(czSquared)],
  ];
}

type Operation = (s: readonly number[]) => number[];

/** "x+1/2,-y,z" → the affine map of fractional coordinates. */
function parseOperation(text: string, line: number, errors: CifError): Operation {
  const parts = text.toLowerCase().replace(/\s+/g, '').split(',');
  if (parts.length !== 3) throw errors.at(line, `symmetry operation '${text}' does not have three components`);
  const rows = parts.map((part) => {
    const row = [0, 0, 0, 0];
    const terms = part.match(/[+-]?[^+-]+/g);
    if (terms === null) throw errors.at(line, `symmetry operation '${text}' has an empty component`);
    for (const term of terms) {
      const m = /^([+-]?)(?:(\d*\.?\d+(?:\/\d+)?)\*?)?([xyz])?$/.exec(term);
      if (m === null || (m[2] === undefined && m[3] === undefined)) throw errors.at(line, `symmetry operation '${text}': cannot read '${term}'`);
      const sign = m[1] === '-' ? -1 : 1;
      const [num, den = '1'] = (m[2] ?? '1').split('/');
      const value = (sign * Number(num)) / Number(den);
      if (!Number.isFinite(value)) throw errors.at(line, `symmetry operation '${text}': '${term}' is not a finite number (a zero denominator?)`);
      if (m[3] === undefined) row[3] += value;
      else row['xyz'.indexOf(m[3])] += value;
    }
    return row;
  });
  // A crystallographic operation maps the lattice onto itself: in fractional coordinates its matrix has
  // determinant ±1. Any other would squeeze sites onto each other or off the lattice.
  const det = rows[0][0] * (rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1]) - rows[0][1] * (rows[1][0] * rows[2][2] - rows[1][2] * rows[2][0]) +
    rows[0][2] * (rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0]);
  if (!(Math.abs(Math.abs(det) - 1) < 1e-6)) throw errors.at(line, `symmetry operation '${text}' is not a symmetry operation: its matrix has determinant ${det}, not ±1`);
  return (s) => rows.map((r) => r[0] * s[0] + r[1] * s[1] + r[2] * s[2] + r[3]);
}

function column(loop: Loop, ...names: string[]): number {
  for (const name of names) {
    const index = loop.tags.indexOf(name);
    if (index >= 0) return index;
  }
  return -1;
}

/** The element of an atom site: its type symbol, else its label ("Fe1", "O2-" → Fe, O). */
function siteElement(symbolToken: Token | undefined, label: Token | undefined, errors: CifError, line: number): string {
  const token = symbolToken ?? label;
  if (token === undefined) throw errors.at(line, 'an atom site has neither _atom_site_type_symbol nor _atom_site_label');
  const match = /^([A-Za-z]{1,2})/.exec(token.text);
  for (const candidate of match === null ? [] : [match[1] as string, (match[1] as string).slice(0, 1)]) {
    const symbol = candidate.charAt(0).toUpperCase() + candidate.slice(1).toLowerCase();
    try {
      atomicNumber(symbol);
      return symbol;
    } catch {
      // try the one-letter reading ("Os" vs "O" + "s")
    }
  }
  throw errors.at(token.line, `'${token.text}' names no element`, 'UNKNOWN_ELEMENT');
}

/**
 * Parses CIF text: the first data block with atom sites. Symmetry operations (_space_group_symop_operation_xyz
 * or _symmetry_equiv_pos_as_xyz) are applied to every site and images closer than 1e-3 (fractional, as
 * ASE's symprec) merged; without operations the sites are taken as given (P1). Throws CIF_PARSE naming the
 * file and line, CIF_PARTIAL_OCCUPANCY for an occupancy other than 1, CIF_UNSUPPORTED for a space group given
 * only by name, and CIF_OVERLAP when two sites' images coincide.
 */
export function parseCif(text: string, file: string): System {
  const errors = new CifError(file);
  const blocks = parseBlocks(tokenize(text, errors), errors);
  const block = blocks.find((b) => b.loops.some((l) => l.tags.some((t) => t.startsWith('_atom_site_fract_'))));
  if (block === undefined) throw errors.at(1, 'no data block lists atom sites with fractional coordinates (_atom_site_fract_x)');
  const item = (name: string): Token | undefined => block.items.get(name);
  const firstLine = block.items.values().next().value?.line ?? 1;
  const cell = cellFromParameters(
    cifNumber(item('_cell_length_a'), '_cell_length_a', errors, firstLine),
    cifNumber(item('_cell_length_b'), '_cell_length_b', errors, firstLine),
    cifNumber(item('_cell_length_c'), '_cell_length_c', errors, firstLine),
    cifNumber(item('_cell_angle_alpha'), '_cell_angle_alpha', errors, firstLine),
    cifNumber(item('_cell_angle_beta'), '_cell_angle_beta', errors, firstLine),
    cifNumber(item('_cell_angle_gamma'), '_cell_angle_gamma', errors, firstLine),
  );
  if (cell.flat().some((v) => !Number.isFinite(v))) throw errors.at(firstLine, 'the cell parameters describe no cell', 'SINGULAR_CELL');

  const symmetryLoop = block.loops.find((l) => column(l, '_space_group_symop_operation_xyz', '_symmetry_equiv_pos_as_xyz') >= 0);
  let operations: Operation[] = [(s) => [...s]];
  if (symmetryLoop !== undefined) {
    const c = column(symmetryLoop, '_space_group_symop_operation_xyz', '_symmetry_equiv_pos_as_xyz');
    // An empty list would expand every site to nothing: at least the identity must be listed.
    if (symmetryLoop.rows.length === 0) throw errors.at(symmetryLoop.line, 'the symmetry-operation loop lists no operations (it needs at least x,y,z)');
    operations = symmetryLoop.rows.map((row) => parseOperation((row[c] as Token).text, (row[c] as Token).line, errors));
  } else {
    const single = item('_space_group_symop_operation_xyz') ?? item('_symmetry_equiv_pos_as_xyz');
    const name = item('_symmetry_space_group_name_h-m') ?? item('_space_group_name_h-m_alt');
    if (single !== undefined) operations = [parseOperation(single.text, single.line, errors)];
    else if (name !== undefined && !/^P\s*1$/i.test(name.text.trim())) {
      throw errors.at(name.line, `space group '${name.text}' is named but its symmetry operations are not listed (_space_group_symop_operation_xyz); hookmd expands only listed operations`, 'CIF_UNSUPPORTED');
    }
  }

  const sites = block.loops.find((l) => l.tags.some((t) => t.startsWith('_atom_site_fract_'))) as Loop;
  const [cx, cy, cz] = ['x', 'y', 'z'].map((axis) => column(sites, `_atom_site_fract_${axis}`));
  const absent = [[cx, 'x'], [cy, 'y'], [cz, 'z']].filter(([c]) => (c as number) < 0).map(([, axis]) => `_atom_site_fract_${axis}`);
  if (absent.length > 0) throw errors.at(sites.line, `the atom-site loop lacks ${absent.join(' and ')}`);
  if (sites.rows.length === 0) throw errors.at(sites.line, 'the atom-site loop lists no sites');
  if (sites.rows.length * operations.length > MAX_IMAGES) {
    throw errors.at(sites.line, `${sites.rows.length} sites under ${operations.length} operations make more than ${MAX_IMAGES} images; hookmd expands at most that many`, 'CIF_UNSUPPORTED');
  }
  const cs = column(sites, '_atom_site_type_symbol');
  const cl = column(sites, '_atom_site_label');
  const co = column(sites, '_atom_site_occupancy');
  const kinds: { symbol: string; s: number[]; site: number }[] = [];
  const images = new ImageIndex();
  sites.rows.forEach((row, site) => {
    const label = cl >= 0 ? row[cl] : undefined;
    const name = label?.text ?? `site ${site + 1}`;
    if (co >= 0) {
      const token = row[co] as Token;
      const occupancy = token.text === '.' || token.text === '?' ? 1 : cifNumber(token, `the occupancy of ${name}`, errors, token.line);
      if (Math.abs(occupancy - 1) > 1e-6) {
        throw errors.at(token.line, `site ${name} has occupancy ${token.text}; only fully occupied sites (1) can be simulated`, 'CIF_PARTIAL_OCCUPANCY');
      }
    }
    const symbol = siteElement(cs >= 0 ? row[cs] : undefined, label, errors, (row[0] as Token).line);
    const position = [cx, cy, cz].map((c) => cifNumber(row[c], `the fractional coordinate of ${name}`, errors, (row[0] as Token).line));
    for (const operation of operations) {
      const image = operation(position).map((v) => v - Math.floor(v));
      const same = images.find(image, (k) => kinds[k].s);
      if (same === undefined) {
        images.add(image, kinds.length);
        kinds.push({ symbol, s: image, site });
      } else if (kinds[same].site !== site) {
        const other = kinds[same].site;
        throw errors.at((row[0] as Token).line, `site ${name} has an image on top of site ${sites.rows[other]?.[cl]?.text ?? other + 1}`, 'CIF_OVERLAP');
      }
    }
  });
  const system: System = {
    symbols: kinds.map((k) => k.symbol),
    positions: kinds.map((k) => fractionalToCartesian(k.s, cell)),
    cell,
    pbc: true,
    info: { name: block.name },
  };
  const lineOf = (field: string, index: number | undefined): number =>
    field === 'positions' && index !== undefined ? (sites.rows[kinds[index].site]?.[0]?.line ?? sites.line) : firstLine;
  return checkReadSystem(system, 'metal', lineOf, (reason, line, cause, code) => errors.at(line, reason, code, cause), { singularCell: false });
}

/** Images closer than this (fractional, per coordinate, across the cell's faces) are one site, as ASE's symprec. */
const SYMPREC = 1e-3;
/** The most atoms a CIF may expand to (sites × operations). */
const MAX_IMAGES = 10_000_000;

/**
 * Fractional positions in [0, 1)³ hashed on a grid of SYMPREC-wide cells, so that finding a position within
 * SYMPREC of a given one (across the cell's faces too) looks at 27 cells instead of every position.
 */
class ImageIndex {
  readonly #cells = Math.round(1 / SYMPREC);
  readonly #grid = new Map<number, number[]>();

  #cellOf(image: readonly number[]): number[] {
    return image.map((v) => Math.min(this.#cells - 1, Math.floor(v * this.#cells)));
  }

  #key(a: number, b: number, c: number): number {
    const n = this.#cells;
    const wrap = (i: number): number => ((i % n) + n) % n;
    return (wrap(a) * n + wrap(b)) * n + wrap(c);
  }

  add(image: readonly number[], index: number): void {
    const [a, b, c] = this.#cellOf(image);
    const key = this.#key(a, b, c);
    const list = this.#grid.get(key);
    if (list === undefined) this.#grid.set(key, [index]);
    else list.push(index);
  }

  /** The first index added whose position (`positionOf`) is within SYMPREC of `image`, or undefined. */
  find(image: readonly number[], positionOf: (index: number) => readonly number[]): number | undefined {
    const [a, b, c] = this.#cellOf(image);
    let found: number | undefined;
    for (let da = -1; da <= 1; da++) {
      for (let db = -1; db <= 1; db++) {
        for (let dc = -1; dc <= 1; dc++) {
          for (const k of this.#grid.get(this.#key(a + da, b + db, c + dc)) ?? []) {
            const same = positionOf(k).every((v, i) => {
              const d = Math.abs(v - image[i]);
              return d < SYMPREC || Math.abs(d - 1) < SYMPREC;
            });
            if (same && (found === undefined || k < found)) found = k;
          }
        }
      }
    }
    return found;
  }
}
