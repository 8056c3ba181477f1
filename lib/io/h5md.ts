// H5MD 1.1 through h5wasm: the layout hookmd writes (particles/<group>/{position,velocity,force,box/edges}
// as step/time/value elements, species and mass fixed, observables/potential_energy and stress) and
// readH5md, which reads such files as untrusted (shapes checked against each other and the file's size).
import { closeSync, openSync, readSync, statSync } from 'node:fs';

import type { Dataset, File as H5File, Group } from 'h5wasm';
import h5wasm from 'h5wasm/node';

import type { System } from '../data/index.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { h5mdUnitFactor } from './h5md-units.js';
import { checkReadSystem } from './read-check.js';
import { MAX_STRUCTURE_FILE_BYTES } from './structure-text.js';
import { showText } from '../describe-value.js';

/**
 * The units hookmd's H5MD files declare. Velocities and forces are in MDAnalysis's own units (Å/ps,
 * kJ/(mol·Å)): its H5MD reader knows no eV, and its releases before 2025 convert Å/fs inversely
 * (MDAnalysis issue 5051). readH5md converts them back to metal units.
 */
export const H5MD_UNITS: Readonly<Record<string, string>> = {
  position: 'Angstrom',
  velocity: 'Angstrom ps-1',
  force: 'kJ mol-1 Angstrom-1',
  edges: 'Angstrom',
  time: 'fs',
  potential_energy: 'eV',
  stress: 'eV Angstrom-3',
};

/** The h5wasm module, loaded once. */
export async function loadH5wasm(): Promise<typeof h5wasm> {
  await h5wasm.ready;
  return h5wasm;
}

const SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Where the file's HDF5 superblock starts (its signature at byte 0, 512, 1024, 2048, ... as HDF5 looks for
 * it), and whether that superblock (version 3) carries the flag of a writer in SWMR mode; offset −1: none.
 */
function hdf5Superblock(path: string, size: number): { offset: number; swmrWriter: boolean } {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(12);
    for (let at = 0; at + 8 <= size; at = at === 0 ? 512 : at * 2) {
      const read = readSync(fd, buffer, 0, 12, at);
      // Version 3 keeps the file consistency flags at byte 11; bit 2 is "opened for SWMR writing".
      if (read >= 8 && buffer.subarray(0, 8).equals(SIGNATURE)) return { offset: at, swmrWriter: read === 12 && buffer[8] === 3 && (buffer[11] & 0x04) !== 0 };
    }
    return { offset: -1, swmrWriter: false };
  } finally {
    closeSync(fd);
  }
}

/** Options of `readH5md`. */
export interface ReadH5mdOptions {
  /** The particle group under /particles (default: 'all', else the only group). */
  group?: string;
}

type Fail = (message: string, where: string, frame?: number, cause?: unknown) => HookmdError;

/** The values of a dataset in metal units (its `unit` attribute converted; none means hookmd's). */
function numbers(dataset: Dataset, where: string, fail: Fail): number[] {
  const value = dataset.value;
  if (value === null || typeof value !== 'object' || !('length' in value)) throw fail('is not a numeric array', where);
  const unit = dataset.attrs?.unit?.json_value;
  const factor = typeof unit === 'string' ? h5mdUnitFactor(unit) : 1;
  if (factor === undefined) throw fail(`has unit '${showText(unit)}', which hookmd cannot convert (lengths Angstrom, nm, pm; times fs, ps; energies eV, kJ mol-1, kcal mol-1; ...)`, where);
  return Array.from(value as ArrayLike<number | bigint>, (v) => Number(v) * factor);
}

/** A time-dependent element (step/time/value) or a fixed dataset: values per step, or one value for all. */
interface Element {
  steps: number[] | undefined;
  times: number[] | undefined;
  frames: number;
  per: number;
  shape: number[];
  flat: number[];
}

function element(group: Group, name: string, fileBytes: number, fail: Fail): Element | undefined {
  const entry = group.get(name);
  if (entry === null) return undefined;
  const where = `${group.path}/${name}`;
  const isDataset = (e: unknown): e is Dataset => e !== null && typeof e === 'object' && 'shape' in (e as object) && 'slice' in (e as object);
  const valueSet = isDataset(entry) ? entry : (entry as Group).get('value');
  if (!isDataset(valueSet)) throw fail("has no 'value' dataset", where);
  const shape = valueSet.shape ?? [];
  const timed = !isDataset(entry);
  const count = shape.reduce((a, b) => a * b, 1);
  // No dataset larger than the file (hookmd writes no compression): a hostile header cannot make us allocate.
  if (!Number.isSafeInteger(count) || count * 8 > 64 * Math.max(fileBytes, 1)) throw fail(`has shape [${shape.join(', ')}], more than a file of ${fileBytes} bytes holds`, where);
  const flat = numbers(valueSet, `${where}/value`, fail);
  if (!timed) return { steps: undefined, times: undefined, frames: 1, per: count, shape, flat };
  const frames = shape[0] ?? 0;
  const stepSet = (entry as Group).get('step');
  if (!isDataset(stepSet)) throw fail("has no 'step' dataset", where);
  const steps = numbers(stepSet, `${where}/step`, fail);
  const timeSet = (entry as Group).get('time');
  const times = isDataset(timeSet) ? numbers(timeSet, `${where}/time`, fail) : undefined;
  // Frames count as written once their step is: an interrupted append leaves value longer than step.
  const written = Math.min(frames, steps.length, times?.length ?? Infinity);
  return { steps: steps.slice(0, written), times: times?.slice(0, written), frames: written, per: frames === 0 ? 0 : count / frames, shape: shape.slice(1), flat };
}

/** The values of `e` for the frame at `step` (fixed elements: their one value); undefined when it has none or only NaN. */
function at(e: Element | undefined, step: number, frame: number): number[] | undefined {
  if (e === undefined) return undefined;
  if (e.steps === undefined) return e.flat;
  const k = e.steps[frame] === step ? frame : e.steps.indexOf(step);
  if (k < 0) return undefined;
  // A row of NaN is a frame without the quantity (H5mdSink keeps every element one row per frame).
  const row = e.flat.slice(k * e.per, (k + 1) * e.per);
  return row.every(Number.isNaN) ? undefined : row;
}

function rows(flat: number[], n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [flat[3 * i] as number, flat[3 * i + 1] as number, flat[3 * i + 2] as number]);
}

/**
 * Reads the frames of an H5MD 1.1 file (the layout `H5mdSink` writes, and files of other H5MD writers in
 * it): positions of particles/<group>/position, with species (atomic numbers), mass, velocity, force, box
 * edges (a vector or a 3×3 matrix per frame, or fixed; `boundary` 'periodic' → pbc), and
 * observables/potential_energy and stress matched by step; `info.step` and `info.time` from position's
 * datasets. Values are converted from their `unit` attributes (nm, ps, kJ mol-1, ...) to Å, fs, eV;
 * a unit hookmd does not know is H5MD_PARSE. Frames count up to the shortest of an element's step, time and value. Typed errors: H5MD_PARSE
 * naming the dataset (and frame), READ_FAILED for a file that is not HDF5 or cannot be read.
 *
 * @example
 * const frames = await readH5md('md.h5md');
 */
export async function readH5md(path: string, options: ReadH5mdOptions = {}): Promise<System[]> {
  if (typeof path !== 'string' || path === '') throw new HookmdTypeError('INVALID_PATH', 'readH5md: expected a path', { field: 'path', value: path });
  if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'readH5md: options must be an object', { field: 'options', value: options });
  checkKeys('readH5md', options, ['group']);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_STRUCTURE_FILE_BYTES) throw new Error(`it has ${stat.size} bytes, more than the ${MAX_STRUCTURE_FILE_BYTES} allowed`);
    size = stat.size;
  } catch (error) {
    throw new HookmdError('READ_FAILED', `readH5md: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
  const superblock = hdf5Superblock(path, size);
  if (superblock.offset < 0) throw new HookmdError('READ_FAILED', `readH5md: cannot read ${path}: not an HDF5 file (no HDF5 signature at byte 0, 512, 1024, ...)`, { path });
  const h5 = await loadH5wasm();
  let file: H5File;
  try {
    // A writer killed inside an SWMR append (H5mdSink's) leaves its flag set, which a plain open refuses;
    // an SWMR read opens the file as it stands, whole frames and all.
    file = new h5.File(path, superblock.swmrWriter ? 'Sr' : 'r');
    if (file.file_id < 0n) throw new Error('HDF5 cannot open it');
  } catch (error) {
    throw new HookmdError('READ_FAILED', `readH5md: cannot read ${path}: not an HDF5 file (${showText((error as Error)?.message ?? error)})`, { path, cause: error }, { cause: error });
  }
  const fail: Fail = (message, where, frame, cause) =>
    new HookmdError('H5MD_PARSE', `readH5md: ${path}: ${where}${frame === undefined ? '' : ` (frame ${frame})`}: ${message}`, { file: path, dataset: where, frame }, cause === undefined ? undefined : { cause });
  try {
    if (file.get('h5md') === null) throw fail('the file has no /h5md group: it is HDF5 but not H5MD', '/h5md');
    const particles = file.get('particles') as Group | null;
    const names = particles?.keys?.() ?? [];
    const name = options.group ?? (names.includes('all') || names.length !== 1 ? 'all' : (names[0] as string));
    const group = particles?.get(name) as Group | null | undefined;
    if (group === null || group === undefined || typeof group.keys !== 'function') throw fail(`there is no particle group '${name}' (groups: ${names.join(', ') || 'none'})`, `/particles/${name}`);
    const position = element(group, 'position', size, fail);
    if (position === undefined || position.steps === undefined) throw fail('the group has no time-dependent position', `${group.path}/position`);
    const n = position.shape[0] ?? 0;
    if (position.shape.length !== 2 || position.shape[1] !== 3) throw fail(`value has shape [T, ${position.shape.join(', ')}], not [T, N, 3]`, `${group.path}/position`);
    const get = (g: Group | null, key: string): Element | undefined => (g === null ? undefined : element(g, key, size, fail));
    const species = get(group, 'species');
    const mass = get(group, 'mass');
    const velocity = get(group, 'velocity');
    const force = get(group, 'force');
    const box = group.get('box') as Group | null;
    const edges = get(box, 'edges');
    const observables = file.get('observables') as Group | null;
    const energy = get(observables, 'potential_energy');
    const stress = get(observables, 'stress');
    const boundary = box?.attrs?.boundary?.json_value;
    const pbc = Array.isArray(boundary) && boundary.length === 3 ? boundary.map((b) => b === 'periodic') : [false, false, false];
    if (species === undefined) throw fail('the group has no species (atomic numbers): hookmd cannot tell the elements', `${group.path}/species`);
    const systems: System[] = [];
    for (let frame = 0; frame < position.frames; frame++) {
      const step = position.steps[frame] as number;
      const check = (e: Element | undefined, values: number[] | undefined, count: number, what: string): number[] | undefined => {
        if (values !== undefined && values.length !== count) throw fail(`has ${values.length} values for the frame, expected ${count}`, `${group.path}/${what}`, frame);
        return values;
      };
      const z = check(species, at(species, step, frame), n, 'species');
      if (z === undefined) throw fail('no species for this step', `${group.path}/species`, frame);
      const x = at(position, step, frame) as number[];
      const edge = at(edges, step, frame);
      let cell: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
      if (edge !== undefined) {
        if (edge.length === 3) cell = [[edge[0] as number, 0, 0], [0, edge[1] as number, 0], [0, 0, edge[2] as number]];
        else if (edge.length === 9) cell = rows(edge, 3);
        else throw fail(`has ${edge.length} values per frame; box edges are 3 (a rectangular box) or 9 (a 3×3 matrix)`, `${group.path}/box/edges`, frame);
      }
      const system: System = { atomicNumbers: z, positions: rows(x, n), cell, pbc, info: { step, ...(position.times ? { time: position.times[frame] } : {}) } };
      const m = check(mass, at(mass, step, frame), n, 'mass');
      if (m !== undefined) system.masses = m;
      const v = check(velocity, at(velocity, step, frame), 3 * n, 'velocity');
      if (v !== undefined) system.velocities = rows(v, n);
      const f = check(force, at(force, step, frame), 3 * n, 'force');
      if (f !== undefined) system.forces = rows(f, n);
      const e = check(energy, at(energy, step, frame), 1, '/observables/potential_energy');
      if (e !== undefined) system.energy = e[0];
      const s = check(stress, at(stress, step, frame), 9, '/observables/stress');
      if (s !== undefined) system.stress = rows(s, 3);
      systems.push(checkReadSystem(system, 'metal', () => frame, (reason, _line, cause, code) => {
        const error = fail(reason, group.path, frame, cause);
        return code === undefined ? error : new HookmdError(code, error.message, error.details, { cause });
      }));
    }
    return systems;
  } catch (error) {
    if (error instanceof HookmdError) throw error;
    throw fail(`the file cannot be read as H5MD: ${showText((error as Error)?.message ?? error)}`, '/', undefined, error);
  } finally {
    file.close();
  }
}
