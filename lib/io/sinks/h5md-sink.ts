// H5mdSink: streams the frames of one system's trajectory into an H5MD 1.1 file (HDF5, through h5wasm).
import { closeSync, copyFileSync, fsyncSync, openSync } from 'node:fs';
import type { Dataset, File as H5File, Group } from 'h5wasm';

import { normalizeSystem, unitSystem } from '../../data/index.js';
import type { System } from '../../data/index.js';
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { StagedFile } from '../atomic-write.js';
import { BufferedSink } from './buffered-sink.js';
import { H5MD_UNITS, loadH5wasm } from '../h5md.js';
import { h5mdUnitFactor } from '../h5md-units.js';
import type { SinkOptions } from './sink.js';
import { showText, showValue } from '../../describe-value.js';

// SWMR needs HDF5 1.10's file format (superblock 3, its chunk indexes); h5py reads it with HDF5 ≥ 1.10.
const SWMR_LIBVER = 'v110';

/** Options of `new H5mdSink`. */
export interface H5mdSinkOptions extends SinkOptions {
  /** The particle group under /particles (default 'all'). */
  group?: string;
  /** fs per step, for the `time` of frames whose info has no `time` (default 1). */
  timestep?: number;
}

interface Frame {
  step: number;
  time: number;
  n: number;
  numbers: Int32Array;
  masses: Float64Array;
  pbc: boolean[];
  cell: Float64Array;
  positions: Float64Array;
  velocities: Float64Array | undefined;
  forces: Float64Array | undefined;
  energy: number | undefined;
  stress: Float64Array | undefined;
}

type Rows = { step: number; time: number; values: ArrayLike<number> }[];

/**
 * Writes frames to an H5MD 1.1 file at `path` that h5py, MDAnalysis-style H5MD readers and `readH5md`
 * read: /h5md (version 1.1, author, creator), /particles/<group>/position, velocity and force (each with
 * its own step, time and value [T, N, 3], so a frame without valid forces simply has no force entry),
 * box/edges (value [T, 3, 3], rows the lattice vectors; `boundary` 'periodic' or 'none'), species (atomic
 * numbers) and mass (fixed), and /observables/potential_energy [T] and stress [T, 3, 3]. Units are
 * declared in `unit` attributes (Å, fs, eV). An H5MD particle group holds one system: every frame must
 * have the first frame's atoms, elements, masses and pbc (H5MD_SHAPE otherwise; use one sink per system).
 * Frames are buffered `capacity` at a time (default 64). Appends are crash-consistent: new objects (the
 * layout, an element's first frames) are made in a copy renamed over the file, and frames are appended in
 * HDF5's SWMR mode, values and times before the step datasets and the position steps last, after a
 * flush of the rest, shrunk back if the append fails
 * (SINK_WRITE_FAILED); each flush is followed by an fsync of the file (and a copy is fsynced before its
 * rename), as the Zarr sink syncs each chunk before renaming it, so an append's order holds on disk too. A process killed mid-append leaves a file whose whole frames `readH5md` reads (and
 * h5py with `swmr=True`; HDF5's `h5clear -s` clears the writer's flag for other readers).
 *
 * @example
 * const sink = new H5mdSink('md.h5md');
 * await sink.write(batch);
 * await sink.close();
 */
export class H5mdSink extends BufferedSink<Frame> {
  /** The file written. */
  readonly path: string;
  readonly #group: string;
  readonly #timestep: number;
  #first: Frame | undefined;
  #created = false;
  /** The time-dependent elements the file has (their paths), all made by this sink. */
  readonly #elements = new Set<string>();

  constructor(path: string, options: H5mdSinkOptions = {}) {
    super('H5mdSink', checkKeys('H5mdSink', options, ['capacity', 'group', 'timestep']), 64);
    if (typeof path !== 'string' || path === '') throw new HookmdTypeError('INVALID_PATH', 'H5mdSink: path must be a non-empty string', { field: 'path', value: path });
    const group = options.group ?? 'all';
    if (typeof group !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(group)) throw new HookmdTypeError('INVALID_OPTIONS', `H5mdSink: group must be a name of letters, digits, _ . -, got ${showValue(group)}`, { field: 'group', value: group });
    const timestep = options.timestep ?? 1;
    if (typeof timestep !== 'number' || !(timestep > 0) || !Number.isFinite(timestep)) throw new HookmdRangeError('INVALID_OPTIONS', `H5mdSink: timestep must be a positive number of fs, got ${showText(timestep)}`, { field: 'timestep', value: timestep });
    this.path = path;
    this.#group = group;
    this.#timestep = timestep;
  }

  protected prepare(system: System, index: number): Frame {
    const s = normalizeSystem(system, index, unitSystem('metal'), 'H5mdSink');
    const step = Number.isSafeInteger(s.info.step) && (s.info.step as number) >= 0 ? (s.info.step as number) : index;
    const time = typeof s.info.time === 'number' && Number.isFinite(s.info.time) ? s.info.time : step * this.#timestep;
    const frame: Frame = {
      step, time, n: s.numAtoms, numbers: s.atomicNumbers, masses: s.masses, pbc: Array.from(s.pbc, Boolean), cell: s.cell, positions: s.positions,
      velocities: system.velocities === undefined ? undefined : s.velocities, forces: s.forces, energy: s.energy, stress: s.stress,
    };
    const first = this.#first;
    if (first === undefined) this.#first = frame;
    else if (first.n !== frame.n || first.numbers.some((z, k) => z !== frame.numbers[k]) || first.masses.some((m, k) => m !== frame.masses[k]) || first.pbc.some((p, k) => p !== frame.pbc[k])) {
      throw new HookmdTypeError('H5MD_SHAPE', `H5mdSink: systems[${index}] has other atoms, elements, masses or pbc than the file's first frame; an H5MD particle group holds one system (use one H5mdSink per system)`, { field: 'systems', index });
    }
    return frame;
  }

  protected async persist(frames: readonly Frame[]): Promise<void> {
    const h5 = await loadH5wasm();
    const first = frames[0] as Frame;
    // Every element has one row per frame, NaN where the frame has no such value (MDAnalysis's reader
    // indexes velocity, force and observables by frame); an element no frame has a value of yet is not
    // made. Values go in the declared units: metal values divided by the unit's factor to metal units.
    const rows = (pick: (f: Frame) => ArrayLike<number> | number | undefined, per: number, unit: string, exists: boolean): Rows | undefined => {
      if (!exists && frames.every((f) => pick(f) === undefined)) return undefined;
      const scale = h5mdUnitFactor(unit) as number;
      return frames.map((f) => {
        const v = pick(f);
        const values = v === undefined ? new Float64Array(per).fill(Number.NaN) : Float64Array.from(typeof v === 'number' ? [v] : v, (x) => x / scale);
        return { step: f.step, time: f.time, values };
      });
    };
    const n = first.n;
    const element = (where: string, tail: number[], unit: string, pick: (f: Frame) => ArrayLike<number> | number | undefined): { where: string; tail: number[]; unit: string; rows: Rows | undefined } =>
      ({ where, tail, unit, rows: rows(pick, tail.reduce((a, b) => a * b, 1), unit, this.#elements.has(where)) });
    const appends = [
      element(`particles/${this.#group}/position`, [n, 3], H5MD_UNITS.position as string, (f) => f.positions),
      element(`particles/${this.#group}/velocity`, [n, 3], H5MD_UNITS.velocity as string, (f) => f.velocities),
      element(`particles/${this.#group}/force`, [n, 3], H5MD_UNITS.force as string, (f) => f.forces),
      element(`particles/${this.#group}/box/edges`, [3, 3], H5MD_UNITS.edges as string, (f) => f.cell),
      element('observables/potential_energy', [], H5MD_UNITS.potential_energy as string, (f) => f.energy),
      element('observables/stress', [3, 3], H5MD_UNITS.stress as string, (f) => f.stress),
    ].filter((a): a is typeof a & { rows: Rows } => a.rows !== undefined);
    // New objects (the layout, an element's first frames) cannot be made in SWMR mode: they are made in a
    // copy of the file, renamed over it, so the file the reader sees is the old one or the new one.
    const missing = appends.filter((a) => !this.#elements.has(a.where));
    if (!this.#created || missing.length > 0) {
      const staged = new StagedFile(this.path);
      try {
        if (this.#created) copyFileSync(this.path, staged.temporary);
        const file = new h5.File(staged.temporary, this.#created ? 'a' : 'w', { libver: SWMR_LIBVER });
        try {
          if (!this.#created) this.#layout(file, first);
          // An element's first value comes after frames without it: those frames get NaN rows.
          const position = this.#created ? (file.get(`particles/${this.#group}/position`) as Group) : undefined;
          const column = (key: string): number[] => Array.from((position?.get(key) as Dataset).value as ArrayLike<number | bigint>, Number);
          const earlier = position === undefined ? { steps: [], times: [] } : { steps: column('step'), times: column('time') };
          for (const a of missing) createElement(file, a.where, a.tail, a.unit, earlier);
        } finally {
          file.close();
        }
        syncToDisk(staged.temporary);
        await staged.commit('H5mdSink');
      } catch (error) {
        await staged.discard();
        throw error;
      }
      this.#created = true;
      for (const a of missing) this.#elements.add(a.where);
    }
    // The frames themselves go in under SWMR: HDF5 then orders its writes so that the file stays readable
    // whatever moment the process dies at (by SWMR readers while the writer's flag is left set).
    // A frame counts once its position step is written, and that comes last, after a flush of everything
    // else: readH5md never sees a frame without its velocities, forces, box or observables.
    const file = new h5.File(this.path, 'Sa');
    const undo: (() => void)[] = [];
    try {
      const steps = appends.map((a) => append(file.get(a.where) as Group, a.tail, a.rows, undo));
      steps.slice(1).forEach((writeSteps) => writeSteps());
      file.flush();
      syncToDisk(this.path);
      steps[0]?.();
      file.flush();
      syncToDisk(this.path);
    } catch (error) {
      for (const restore of undo.reverse()) {
        try {
          restore();
        } catch {
          // Best effort: the step datasets, shrunk first, already hide the frames.
        }
      }
      throw error;
    } finally {
      file.close();
    }
  }

  protected async finalize(): Promise<void> {
    if (this.#created) return;
    const h5 = await loadH5wasm();
    const staged = new StagedFile(this.path);
    try {
      const file = new h5.File(staged.temporary, 'w', { libver: SWMR_LIBVER });
      try {
        this.#layout(file, undefined);
      } finally {
        file.close();
      }
      syncToDisk(staged.temporary);
      await staged.commit('H5mdSink');
    } catch (error) {
      await staged.discard();
      throw error;
    }
    this.#created = true;
  }

  protected describe(): Record<string, unknown> {
    return { path: this.path };
  }

  /** The groups and fixed datasets of a new file; species and mass when the first frame is known. */
  #layout(file: H5File, first: Frame | undefined): void {
    const h5md = file.create_group('h5md');
    h5md.create_attribute('version', [1, 1], [2], '<i4');
    h5md.create_group('author').create_attribute('name', 'hookmd');
    const creator = h5md.create_group('creator');
    creator.create_attribute('name', 'hookmd');
    creator.create_attribute('version', '0.1.0');
    const group = file.create_group('particles').create_group(this.#group);
    const box = group.create_group('box');
    box.create_attribute('dimension', 3, null, '<i4');
    box.create_attribute('boundary', (first?.pbc ?? [false, false, false]).map((p) => (p ? 'periodic' : 'none')));
    file.create_group('observables');
    if (first === undefined) return;
    group.create_dataset({ name: 'species', data: Int32Array.from(first.numbers), shape: [first.n], dtype: '<i4' });
    group.create_dataset({ name: 'mass', data: Float64Array.from(first.masses), shape: [first.n], dtype: '<d' }).create_attribute('unit', 'amu');
  }
}

/**
 * Forces what h5wasm wrote to `path` (through Node's file descriptors: its NODERAWFS build) from the page
 * cache onto the disk. HDF5's flush only hands its buffers to the OS; without the sync, a power loss could
 * keep the position steps of an append and lose the values they count. An fsync on a descriptor of our own
 * syncs every write to the file, h5wasm's included.
 */
function syncToDisk(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A time-dependent element at `where` (its group, then value, time and step, each extensible), with NaN rows for the `earlier` frames. */
function createElement(file: H5File, where: string, tail: number[], unit: string, earlier: { steps: number[]; times: number[] }): void {
  const slash = where.lastIndexOf('/');
  const group = (file.get(where.slice(0, slash)) as Group).create_group(where.slice(slash + 1));
  const per = tail.reduce((a, b) => a * b, 1);
  const count = earlier.steps.length;
  group.create_dataset({ name: 'value', data: new Float64Array(count * per).fill(Number.NaN), shape: [count, ...tail], maxshape: [null, ...tail], chunks: [Math.max(1, Math.floor(65536 / Math.max(per, 1))), ...tail], dtype: '<d' }).create_attribute('unit', unit);
  group.create_dataset({ name: 'time', data: Float64Array.from(earlier.times), shape: [count], maxshape: [null], chunks: [1024], dtype: '<d' }).create_attribute('unit', H5MD_UNITS.time as string);
  group.create_dataset({ name: 'step', data: BigInt64Array.from(earlier.steps, (v) => BigInt(v)), shape: [count], maxshape: [null], chunks: [1024], dtype: '<q' });
}

/**
 * Appends rows to the element `group`: its values and times now, its steps when the returned function is
 * called (a reader counts an element's frames by the shortest of the three); `undo` restores the old lengths.
 */
function append(group: Group, tail: number[], rows: Rows, undo: (() => void)[]): () => void {
  const grow = (key: string, data: ArrayLike<number> | BigInt64Array, width: number[]): void => {
    const dataset = group.get(key) as Dataset;
    const old = (dataset.shape as number[])[0] as number;
    dataset.resize([old + rows.length, ...width]);
    undo.push(() => dataset.resize([old, ...width]));
    dataset.write_slice([[old, old + rows.length]], data);
  };
  const per = tail.reduce((a, b) => a * b, 1);
  const values = new Float64Array(rows.length * per);
  rows.forEach((r, k) => values.set(Array.from(r.values), k * per));
  grow('value', values, tail);
  grow('time', Float64Array.from(rows, (r) => r.time), []);
  return () => grow('step', BigInt64Array.from(rows, (r) => BigInt(r.step)), []);
}
