// Turns the files given to `hookmd view` (extxyz, a ZarrSink store, ASE .traj, LAMMPS dump, H5MD, LoggingHook
// and TrainingLoggingHook logs) into the page's ViewData. Frames join log rows of the same system through info.systemId.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';

import { namedRecord, type System } from '../data/index.js';
import { describeValue, showText } from '../describe-value.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { readExtxyz, readH5md, readLammpsDump, readTraj, readZarr } from '../io/index.js';
import { readLog, type ParsedLog } from './log-read.js';
import {
  appendRow, emptySystem, flatCell, flatVectors, fmaxOf, pressureOf, symbolsOf, type ViewColumns, type ViewData, type ViewFile, type ViewSystem,
} from './view-model.js';

/** What a given path holds. */
export type ViewFileKind = 'extxyz' | 'zarr' | 'traj' | 'lammps-dump' | 'h5md' | 'log';

function firstBytes(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(256);
    return buffer.subarray(0, readSync(fd, buffer, 0, 256, 0)).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/**
 * The kind of a path: a directory is a Zarr store; `.csv`/`.jsonl` are logs; `.xyz`/`.extxyz` are extxyz,
 * `.traj` ASE trajectories, `.lammpstrj`/`.dump` LAMMPS dumps, `.h5md`/`.h5` H5MD; anything else is told by
 * its first bytes (ULM magic, HDF5 signature, ITEM: TIMESTEP, an atom count, else a text log). Binary
 * content of none of these is VIEW_READ_FAILED saying so.
 */
export function viewFileKind(path: string): ViewFileKind {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw new HookmdError('VIEW_READ_FAILED', `view: cannot read ${path}: ${(error as Error).message}`, { path }, { cause: error });
  }
  if (isDirectory) return 'zarr';
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.jsonl') return 'log';
  if (ext === '.xyz' || ext === '.extxyz') return 'extxyz';
  if (ext === '.traj') return 'traj';
  if (ext === '.lammpstrj' || ext === '.dump') return 'lammps-dump';
  if (ext === '.h5md' || ext === '.h5') return 'h5md';
  const head = firstBytes(path);
  if (head.startsWith('- of Ulm')) return 'traj';
  if (head.startsWith('\x89HDF\r\n\x1a\n')) return 'h5md';
  if (/^\s*ITEM: TIMESTEP/.test(head)) return 'lammps-dump';
  if (/^\s*\d+\s*(\r?\n|$)/.test(head)) return 'extxyz';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0e-\x1f\x7f]/.test(head)) {
    throw new HookmdError('VIEW_READ_FAILED', `view: cannot tell the format of ${path}: it holds binary data of no format hookmd view reads (extxyz, Zarr, .traj, LAMMPS dump, H5MD, csv/jsonl logs)`, { path });
  }
  return 'log';
}

/** The systems being built, by key, in first-seen order, with the scalars their frames carry. */
class Collector {
  readonly systems = new Map<string, ViewSystem>();
  readonly frameScalars = new Map<string, ViewColumns>();
  training: ViewColumns | null = null;

  system(key: string, label: string, symbols: string[], file: number): ViewSystem {
    let system = this.systems.get(key);
    if (system === undefined) this.systems.set(key, (system = emptySystem(key, label, symbols, file)));
    if (system.symbols.length === 0) system.symbols = symbols;
    return system;
  }

  addStructures(structures: readonly System[], file: number, name: string): void {
    const ids = structures.map((s) => s.info?.systemId);
    const haveIds = ids.every((id) => typeof id === 'number' || typeof id === 'string');
    const symbols = structures.map(symbolsOf);
    // Without systemIds, frames that all have the same atoms in the same order are one trajectory.
    const oneTrajectory = !haveIds && structures.length > 1 && symbols.every((s) => s.join() === symbols[0].join());
    structures.forEach((structure, i) => {
      const [key, label] = haveIds ? [`id:${String(ids[i])}`, `system ${String(ids[i])}`]
        : oneTrajectory ? [`${file}:0`, name] : [`${file}:${i}`, `${name} #${i}`];
      const system = this.system(key, label, symbols[i], file);
      const step = typeof structure.info?.step === 'number' ? structure.info.step : system.frames.length;
      system.frames.push({ step, positions: flatVectors(structure.positions), cell: flatCell(structure.cell) });
      const fmax = fmaxOf(structure.forces);
      if (structure.energy !== undefined) system.energy = structure.energy;
      if (fmax !== null) system.fmax = fmax;
      if (typeof structure.info?.converged === 'boolean') system.converged = structure.info.converged;
      const temperature = typeof structure.info?.temperature === 'number' ? structure.info.temperature : null;
      let columns = this.frameScalars.get(key);
      if (columns === undefined) this.frameScalars.set(key, (columns = namedRecord()));
      appendRow(columns, { step, energy: structure.energy ?? null, temperature, pressure: pressureOf(structure.stress), fmax });
    });
  }

  addLog(log: ParsedLog, file: number, name: string): void {
    if (log.kind === 'training') {
      this.training ??= namedRecord();
      for (const row of log.rows) appendRow(this.training, row);
      return;
    }
    for (const row of log.rows) {
      const id = row.systemId ?? null;
      const key = id === null ? `${file}:${row.system ?? 0}` : `id:${id}`;
      const system = this.system(key, id === null ? `${name} #${row.system ?? 0}` : `system ${id}`, [], file);
      const { system: _index, systemId: _id, status: _status, ...values } = row;
      appendRow(system.scalars, values);
      if (row.energy !== null && row.energy !== undefined) system.energy = row.energy;
      if (row.fmax !== null && row.fmax !== undefined) system.fmax = row.fmax;
    }
  }

  /** The systems, with frame scalars standing in where no log gave any. */
  finish(): ViewSystem[] {
    for (const [key, system] of this.systems) {
      const fromFrames = this.frameScalars.get(key);
      if (Object.keys(system.scalars).length === 0 && fromFrames !== undefined) {
        // Columns that no frame had a value for would draw empty plots.
        system.scalars = Object.fromEntries(Object.entries(fromFrames).filter(([, c]) => c.some((v) => v !== null)));
      }
    }
    return [...this.systems.values()];
  }
}

/** The frames of a structure file of `kind`. */
async function readFrames(kind: Exclude<ViewFileKind, 'log'>, path: string): Promise<System[]> {
  if (kind === 'zarr') return readZarr(path);
  if (kind === 'traj') return readTraj(path);
  if (kind === 'lammps-dump') return readLammpsDump(path);
  if (kind === 'h5md') return readH5md(path);
  return readExtxyz(path);
}

/** Throws INVALID_ARGUMENT unless `paths` is an array of file paths (strings). */
export function checkViewPaths(paths: unknown, operation: string): void {
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string' && path !== '')) {
    throw new HookmdTypeError('INVALID_ARGUMENT', `${operation}: paths must be an array of file paths, such as ['traj.extxyz', 'md.csv'], got ${describeValue(paths)}`, { field: 'paths' });
  }
}

/**
 * Reads every path into the page's data; `files` gets one entry per path with its download address.
 *
 * @example
 * const data = await loadViewData(['traj.extxyz', 'md.csv']);
 * data.systems[0].frames.length;
 */
export async function loadViewData(paths: readonly string[]): Promise<ViewData> {
  checkViewPaths(paths, 'loadViewData');
  const collector = new Collector();
  const files: ViewFile[] = [];
  for (const [index, path] of paths.entries()) {
    const kind = viewFileKind(path);
    const name = basename(path);
    files.push({ name, href: kind === 'zarr' ? null : `files/${index}/${encodeURIComponent(name)}` });
    if (kind === 'log') collector.addLog(readLog(path), index, name);
    else collector.addStructures(await readFrames(kind, path), index, name);
  }
  return { title: files.map((f) => f.name).join(', '), live: false, seq: 0, maxFrames: null, systems: collector.finish(), training: collector.training, files };
}
