// ASE trajectories (.traj): readTraj and writeTraj, and the mapping between a System and one ULM item as
// ASE 3.22's TrajectoryWriter lays it out (numbers, pbc, masses, positions, cell, momenta, constraints,
// a `calculator` child with energy, forces and stress, and info).
import { normalizeSystem, standardMass, unitSystem } from '../data/index.js';
import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError, isHookmdError } from '../errors.js';
import { StagedFile } from './atomic-write.js';
import { ASE_FS, fromVoigt } from './extxyz/mapping.js';
import { checkReadSystem } from './read-check.js';
import { MAX_STRUCTURE_FILE_BYTES } from './structure-text.js';
import { openUlm, UlmAppender, UlmArray, UlmChild, ulmError } from './ulm.js';

/** The ULM tag of ASE trajectories. */
export const TRAJ_TAG = 'ASE-Trajectory';
/** The ASE version hookmd's files claim (readers older than it warn, none refuse). */
const ASE_VERSION = '3.22.1';

type Header = { numbers: unknown; pbc: unknown; masses: unknown; constraints: unknown };

function matrix(value: unknown, rows: number, cols: number): number[][] | undefined {
  if (!Array.isArray(value) || value.length !== rows) return undefined;
  if (!value.every((r) => Array.isArray(r) && r.length === cols && r.every((v) => typeof v === 'number'))) return undefined;
  return value as number[][];
}

function vector(value: unknown, length: number): number[] | undefined {
  if (!Array.isArray(value) || value.length !== length || !value.every((v) => typeof v === 'number')) return undefined;
  return value as number[];
}

/** ASE's `ndarray` JSON objects (`{"__ndarray__": [shape, dtype, flat]}`) in info, as nested lists. */
function plainInfo(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainInfo);
  if (value === null || typeof value !== 'object') return value;
  const ndarray = (value as { __ndarray__?: unknown }).__ndarray__;
  if (Array.isArray(ndarray) && ndarray.length === 3 && Array.isArray(ndarray[0]) && Array.isArray(ndarray[2])) {
    const [shape, , flat] = ndarray as [number[], string, unknown[]];
    const build = (dims: number[], at: number): unknown =>
      dims.length === 0 ? flat[at] : Array.from({ length: dims[0] as number }, (_, i) => build(dims.slice(1), at * (dims[0] as number) + i));
    return shape.length === 0 ? flat[0] : build(shape, 0);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainInfo(v)]));
}

/** One trajectory item as a System (metal units); `header` is item 0's, for items that do not repeat it. */
function itemSystem(item: Record<string, unknown>, header: Header, index: number, file: string, offset: number): System {
  const fail = (message: string, cause?: unknown, code = 'TRAJ_PARSE'): HookmdError =>
    new HookmdError(code, `readTraj: ${file}: frame ${index} (byte ${offset}): ${message}`, { file, frame: index, offset }, cause === undefined ? undefined : { cause });
  const own = 'numbers' in item;
  const numbers = own ? item.numbers : header.numbers;
  if (!Array.isArray(numbers) || !numbers.every((z) => Number.isInteger(z))) throw fail('numbers must be a list of atomic numbers');
  const n = numbers.length;
  const positions = matrix(item.positions, n, 3);
  if (positions === undefined) throw fail(`positions must be ${n}×3 numbers`);
  const pbcValue = own ? item.pbc : header.pbc;
  const pbc = typeof pbcValue === 'boolean' ? [pbcValue, pbcValue, pbcValue] : pbcValue;
  if (!Array.isArray(pbc) || pbc.length !== 3 || !pbc.every((p) => typeof p === 'boolean' || p === 0 || p === 1)) throw fail('pbc must be three booleans');
  const cell = matrix(item.cell, 3, 3) ?? (Array.isArray((item.cell as { array?: unknown })?.array) ? matrix((item.cell as { array: unknown }).array, 3, 3) : undefined);
  if (cell === undefined) throw fail('cell must be 3×3 numbers');
  const system: System = { atomicNumbers: numbers as number[], positions, cell, pbc: pbc.map(Boolean) };
  const massesValue = own ? item.masses : header.masses;
  if (massesValue !== undefined && massesValue !== null) {
    const masses = vector(massesValue, n);
    if (masses === undefined) throw fail(`masses must be ${n} numbers`);
    system.masses = masses;
  }
  if (item.momenta !== undefined) {
    const momenta = matrix(item.momenta, n, 3);
    if (momenta === undefined) throw fail(`momenta must be ${n}×3 numbers`);
    const mass = (atom: number): number => system.masses?.[atom] ?? (standardMass(numbers[atom] as number) || 1);
    system.velocities = momenta.map((p, atom) => p.map((v) => (v / mass(atom)) * ASE_FS));
  }
  const info = item.info === undefined ? {} : plainInfo(item.info);
  if (info === null || typeof info !== 'object' || Array.isArray(info)) throw fail('info must be an object');
  system.info = { ...(info as Record<string, unknown>) };
  const constraints = own ? item.constraints : header.constraints;
  if (typeof constraints === 'string' && constraints !== '[]') {
    try {
      system.info.aseConstraints = plainInfo(JSON.parse(constraints));
    } catch (error) {
      throw fail('constraints are not JSON', error);
    }
  }
  const calc = item.calculator as Record<string, unknown> | undefined;
  if (calc !== undefined) {
    if (calc === null || typeof calc !== 'object') throw fail('calculator must be an object');
    if (calc.energy !== undefined) {
      if (typeof calc.energy !== 'number') throw fail('calculator.energy must be a number');
      system.energy = calc.energy;
    }
    if (calc.forces !== undefined) {
      const forces = matrix(calc.forces, n, 3);
      if (forces === undefined) throw fail(`calculator.forces must be ${n}×3 numbers`);
      system.forces = forces;
    }
    if (calc.stress !== undefined) {
      const voigt = vector(calc.stress, 6);
      const full = voigt === undefined ? matrix(calc.stress, 3, 3) : fromVoigt(voigt);
      if (full === undefined) throw fail('calculator.stress must be 6 Voigt values or 3×3');
      system.stress = full;
    }
  }
  return checkReadSystem(system, 'metal', () => index, (reason, _line, cause, code) => fail(reason, cause, code));
}

/**
 * Reads every frame of an ASE trajectory (`.traj`, ASE's ULM format) into Systems in metal units:
 * numbers, positions, cell, pbc, masses (when the file sets them), velocities from ASE's momenta (Å/fs:
 * `p / m × ase.units.fs`), the calculator's energy, forces and stress (Voigt or 3×3), info, and ASE
 * constraints as `info.aseConstraints` (ASE's `[{ name, kwargs }]`, written back by `writeTraj`). The
 * file is read as untrusted: TRAJ_PARSE names the byte offset (or frame) of the fault, and no size in
 * the file is believed beyond the file's length.
 *
 * @example
 * const frames = readTraj('md.traj');
 * console.log(frames.length, frames[0].energy);
 */
export function readTraj(path: string): System[] {
  if (typeof path !== 'string' || path === '') throw new HookmdTypeError('INVALID_PATH', 'readTraj: expected a path', { field: 'path', value: path });
  const file = openUlm(path, 'readTraj', MAX_STRUCTURE_FILE_BYTES);
  try {
    if (file.tag !== TRAJ_TAG) throw ulmError('readTraj', path, 8, `the ULM tag is '${file.tag}', not '${TRAJ_TAG}': this is not an ASE trajectory`);
    const systems: System[] = [];
    let header: Header | undefined;
    for (let i = 0; i < file.count; i++) {
      const item = file.item(i);
      header ??= { numbers: item.numbers, pbc: item.pbc, masses: item.masses, constraints: item.constraints };
      systems.push(itemSystem(item, header, i, path, file.offsetOf(i)));
    }
    return systems;
  } finally {
    file.close();
  }
}

function rows(flat: ArrayLike<number>): number[][] {
  return Array.from({ length: flat.length / 3 }, (_, i) => [flat[3 * i] as number, flat[3 * i + 1] as number, flat[3 * i + 2] as number]);
}

/** A JSON-safe copy of info (ASE's json): finite numbers, strings, booleans, null, lists, objects. */
function jsonInfo(value: unknown, where: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new HookmdTypeError('INVALID_INFO', `${where} is ${value}; a trajectory's info holds finite numbers`, { field: where, value });
    return value;
  }
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>, (v, k) => jsonInfo(v, `${where}[${k}]`));
  if (Array.isArray(value)) return value.map((v, k) => jsonInfo(v, `${where}[${k}]`));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonInfo(v, `${where}.${k}`)]));
  }
  throw new HookmdTypeError('INVALID_INFO', `${where} cannot be written to a trajectory (only numbers, strings, booleans, null, lists and plain objects)`, { field: where });
}

/** @internal Item 0 of a file carries the trajectory's version keys (ASE reads them from there). */
export function firstItem(item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { version: 1, ase_version: ASE_VERSION, ...item };
}

/** @internal One System as a trajectory item (validated as Batch.fromSystems does). */
export function trajItem(system: System, index: number, operation: string): Record<string, unknown> {
  const s = normalizeSystem(system, index, unitSystem('metal'), operation);
  const n = s.numAtoms;
  const { aseConstraints, ...rest } = s.info;
  const item: Record<string, unknown> = {};
  item.pbc = Array.from(s.pbc, Boolean);
  item.numbers = new UlmArray([n], 'int64', s.atomicNumbers);
  if (aseConstraints !== undefined) item.constraints = JSON.stringify(jsonInfo(aseConstraints, `${operation}: systems[${index}].info.aseConstraints`));
  if (s.masses.some((m, atom) => m !== standardMass(s.atomicNumbers[atom] as number))) item.masses = new UlmArray([n], 'float64', s.masses);
  item.positions = new UlmArray([n, 3], 'float64', s.positions);
  item.cell = rows(s.cell);
  if (system.velocities !== undefined && s.velocities.some((v) => v !== 0)) {
    item.momenta = new UlmArray([n, 3], 'float64', s.velocities.map((v, k) => (s.masses[Math.floor(k / 3)] as number) * v / ASE_FS));
  }
  if (s.energy !== undefined || s.forces !== undefined || s.stress !== undefined) {
    const calc: Record<string, unknown> = { name: 'unknown' };
    if (s.energy !== undefined) calc.energy = s.energy;
    if (s.forces !== undefined) calc.forces = new UlmArray([n, 3], 'float64', s.forces);
    if (s.stress !== undefined) {
      const t = s.stress;
      const symmetric = [[1, 3], [2, 6], [5, 7]].every(([a, b]) => t[a as number] === t[b as number]);
      // ASE's own order, xx yy zz yz xz xy, when the tensor is symmetric; the full 3×3 otherwise.
      calc.stress = symmetric ? [t[0], t[4], t[8], t[5], t[2], t[1]] : rows(t);
    }
    item.calculator = new UlmChild(calc);
  }
  const info = jsonInfo(rest, `${operation}: systems[${index}].info`) as Record<string, unknown>;
  if (Object.keys(info).length > 0) item.info = info;
  return item;
}

/**
 * Writes systems (any iterable or async iterable) as an ASE trajectory that `ase.io.read(path, ':')`
 * reads back field for field: numbers, positions, cell, pbc, masses (when not the element table's),
 * velocities as ASE momenta, energy/forces/stress as a calculator's results (present only when valid),
 * `info` (JSON values) and `info.aseConstraints` as ASE constraints. The file is written beside `path`
 * and renamed over it at the end, so a failure leaves no partial file.
 *
 * @example
 * await writeTraj('relaxed.traj', batch.toSystems());
 */
export async function writeTraj(path: string, systems: Iterable<System> | AsyncIterable<System>): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new HookmdTypeError('INVALID_PATH', 'writeTraj: path must be a non-empty string', { field: 'path', value: path });
  const iterable = systems as Partial<Iterable<System> & AsyncIterable<System>> | null;
  if (iterable === null || typeof iterable !== 'object' || (typeof iterable[Symbol.iterator] !== 'function' && typeof iterable[Symbol.asyncIterator] !== 'function')) {
    throw new HookmdTypeError('INVALID_SYSTEMS', 'writeTraj: systems must be an iterable of System objects', { field: 'systems' });
  }
  const staged = new StagedFile(path);
  try {
    const appender = new UlmAppender(staged.temporary, TRAJ_TAG);
    let pending: Record<string, unknown>[] = [];
    let index = 0;
    for await (const system of systems) {
      const item = trajItem(system, index, 'writeTraj');
      pending.push(index === 0 ? firstItem(item) : item);
      index++;
      if (pending.length >= 256) {
        await appender.append(pending);
        pending = [];
      }
    }
    await appender.append(pending);
  } catch (error) {
    await staged.discard();
    if (isHookmdError(error)) throw error;
    throw new HookmdError('WRITE_FAILED', `writeTraj: cannot write ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
  await staged.commit('writeTraj');
}
