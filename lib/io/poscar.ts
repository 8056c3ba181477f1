// VASP POSCAR/CONTCAR: reading (VASP 4 and 5, Direct and Cartesian, selective dynamics, one or three scale
// factors, a negative one meaning the cell volume) and writing (VASP 5, Direct, full precision).
import { atomicNumber, chemicalSymbol, normalizeSystem, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdTypeError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { checkReadSystem } from './read-check.js';
import { cartesianToFractional, det3, fractionalToCartesian, LineCursor } from './structure-text.js';

function isSymbol(token: string): boolean {
  try {
    atomicNumber(token);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses POSCAR text. Selective-dynamics flags go to `info.selectiveDynamics` ([x, y, z] per atom, true =
 * free, as in the file) and atoms fixed in all three directions to `info.fixed` (per atom), which
 * `FreezeAtomsHook.fromSystems` turns into frozen atoms. VASP 4 files without a species line take the
 * species from the comment line, as ASE does. Throws POSCAR_PARSE naming the file and line.
 */
export function parsePoscar(text: string, file: string): System {
  const cursor = new LineCursor(text, 'POSCAR_PARSE', 'readStructures', file);
  const comment = cursor.next('the comment line').trim();
  const scaleTokens = cursor.tokens('the scale factor');
  if (scaleTokens.length === 0) throw cursor.error('the scale-factor line is empty');
  const scales = scaleTokens.length >= 3 && scaleTokens.slice(0, 3).every((t) => Number.isFinite(Number(t)))
    ? cursor.numbers(scaleTokens, 3, 'the three scale factors')
    : [cursor.number(scaleTokens[0], 'the scale factor')];
  const scaleLine = cursor.line;
  let cell = [0, 1, 2].map((k) => cursor.numbers(cursor.tokens(`lattice vector ${k + 1}`), 3, `lattice vector ${k + 1}`));
  const latticeLine = cursor.line - 2;
  const volume = det3(cell);
  if (Math.abs(volume) < 1e-12) throw cursor.error('the lattice vectors span no volume', cursor.line, 'SINGULAR_CELL');
  if (scales.length === 3 && scales.some((x) => x <= 0)) throw cursor.error('three scale factors must all be > 0', scaleLine);
  if (scales.length === 1 && scales[0] === 0) throw cursor.error('the scale factor must not be 0', scaleLine);
  // A negative single scale is the cell volume (Å³) the lattice is scaled to.
  const axisScale = scales.length === 3 ? scales : Array<number>(3).fill(scales[0] > 0 ? scales[0] : Math.cbrt(-scales[0] / Math.abs(volume)));
  cell = cell.map((row) => row.map((x, c) => x * axisScale[c]));

  let line = cursor.tokens('the species or counts line');
  let symbols: string[];
  if (line.length > 0 && !Number.isFinite(Number(line[0]))) {
    // VASP 5: species, then counts. POTCAR-style names ("Fe_pv", "Cu/123") keep the element part.
    symbols = line.map((t) => t.split(/[_/]/)[0] as string);
    const speciesLine = cursor.line;
    for (const symbol of symbols) if (!isSymbol(symbol)) throw cursor.error(`'${symbol}' is not an element symbol`, speciesLine);
    line = cursor.tokens('the counts line');
  } else {
    symbols = comment.split(/\s+/).filter(isSymbol);
  }
  const counts = line.filter((t) => /^\d+$/.test(t)).map(Number);
  if (counts.length === 0 || counts.length !== line.length) throw cursor.error(`expected atom counts (non-negative integers), got '${line.join(' ')}'`);
  if (symbols.length < counts.length) {
    throw cursor.error(`${counts.length} atom counts but ${symbols.length} species: a VASP 4 file needs its species on the comment line`);
  }
  const countsLine = cursor.line;
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) throw cursor.error('the file declares no atoms', countsLine);

  let mode = cursor.next('the coordinate mode line').trim();
  const selective = /^[sS]/.test(mode);
  if (selective) mode = cursor.next('the coordinate mode line').trim();
  const cartesian = /^[cCkK]/.test(mode);

  const positions: number[][] = [];
  const flags: boolean[][] = [];
  const firstAtomLine = cursor.line + 1;
  for (let atom = 0; atom < total; atom++) {
    const tokens = cursor.tokens(`atom ${atom + 1} of ${total}`);
    const xyz = cursor.numbers(tokens, 3, `atom ${atom + 1}'s coordinates`);
    positions.push(cartesian ? xyz.map((x, c) => x * axisScale[c]) : fractionalToCartesian(xyz, cell));
    if (selective) {
      const f = tokens.slice(3, 6);
      if (f.length < 3 || f.some((t) => !/^[TFtf]$/.test(t))) throw cursor.error(`atom ${atom + 1}: selective dynamics needs three T/F flags, got '${f.join(' ')}'`);
      flags.push(f.map((t) => t.toUpperCase() === 'T'));
    }
  }
  const atomSymbols = counts.flatMap((count, k) => Array<string>(count).fill(symbols[k] as string));
  const info: Record<string, unknown> = { comment };
  if (selective) {
    info.selectiveDynamics = flags;
    info.fixed = flags.map((f) => !f[0] && !f[1] && !f[2]);
  }
  // The scale factors can still carry finite numbers past a double, or squeeze the cell to nothing.
  const lineOf = (field: string, index: number | undefined): number => (field === 'positions' && index !== undefined ? firstAtomLine + index : latticeLine);
  return checkReadSystem({ symbols: atomSymbols, positions, cell, pbc: true, info }, 'metal', lineOf, (reason, line, cause, code) => cursor.error(reason, line, code, cause));
}

function fixedFlags(system: System, n: number, where: string): boolean[][] | undefined {
  const info = system.info ?? {};
  const flags = info.selectiveDynamics;
  if (flags !== undefined) {
    if (!Array.isArray(flags) || flags.length !== n || !flags.every((f) => Array.isArray(f) && f.length === 3)) {
      throw new HookmdTypeError('INVALID_INFO', `${where}.info.selectiveDynamics must hold three booleans per atom (${n})`, { field: 'info.selectiveDynamics', value: flags });
    }
    return flags.map((f: unknown[]) => f.map(Boolean));
  }
  const fixed = info.fixed;
  if (fixed === undefined) return undefined;
  if (!Array.isArray(fixed) || fixed.length !== n) {
    throw new HookmdTypeError('INVALID_INFO', `${where}.info.fixed must hold one boolean per atom (${n})`, { field: 'info.fixed', value: fixed });
  }
  return fixed.map((f) => [!f, !f, !f]);
}

/**
 * One System as VASP 5 POSCAR text: the cell at scale 1, a species line, Direct coordinates at full
 * precision, and selective dynamics when `info.selectiveDynamics` or `info.fixed` is set. Runs of equal
 * species become one block each, so atom order is kept (as ase.io.write does without sorting).
 * Throws MISSING_LATTICE for a system without a cell.
 *
 * @example
 * formatPoscar(bulk('Cu', 'fcc', { a: 3.615 })).split('\n')[5]; // 'Cu'
 */
export function formatPoscar(system: System): string {
  const where = 'writePoscar: system';
  const s = normalizeSystem(system, 0, unitSystem('metal'), 'writePoscar');
  const n = s.numAtoms;
  const cell = [0, 1, 2].map((r) => Array.from(s.cell.subarray(3 * r, 3 * r + 3)));
  if (Math.abs(det3(cell)) < 1e-12) {
    throw new HookmdTypeError('MISSING_LATTICE', 'writePoscar: the system has no cell (a POSCAR needs three lattice vectors)', { field: 'cell' });
  }
  const flags = fixedFlags(system, n, where);
  const symbols = Array.from(s.atomicNumbers, chemicalSymbol);
  const blocks: { symbol: string; count: number }[] = [];
  for (const symbol of symbols) {
    const last = blocks[blocks.length - 1];
    if (last !== undefined && last.symbol === symbol) last.count++;
    else blocks.push({ symbol, count: 1 });
  }
  const number = (x: number): string => (Object.is(x, -0) ? 0 : x).toPrecision(17).padStart(24);
  const comment = typeof system.info?.comment === 'string' && !/[\r\n]/.test(system.info.comment) ? system.info.comment : blocks.map((b) => `${b.symbol}${b.count}`).join('');
  const lines = [comment, '1.0', ...cell.map((row) => row.map(number).join('')), blocks.map((b) => b.symbol.padStart(5)).join(''), blocks.map((b) => String(b.count).padStart(5)).join('')];
  if (flags !== undefined) lines.push('Selective dynamics');
  lines.push('Direct');
  for (let atom = 0; atom < n; atom++) {
    const frac = cartesianToFractional(Array.from(s.positions.subarray(3 * atom, 3 * atom + 3)), cell);
    const flagText = flags === undefined ? '' : ` ${(flags[atom] as boolean[]).map((f) => (f ? 'T' : 'F')).join(' ')}`;
    lines.push(`${frac.map(number).join('')}${flagText}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes one System as a VASP 5 POSCAR (see formatPoscar), atomically: a failure leaves no partial file.
 *
 * @example
 * await writePoscar('POSCAR', bulk('Cu', 'fcc', { a: 3.615, cubic: true }));
 */
export async function writePoscar(path: string, system: System): Promise<void> {
  const text = formatPoscar(system);
  await writeFileAtomic(path, async (write) => write(text), 'writePoscar');
}
