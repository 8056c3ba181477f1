// Turns the files given to `hookmd view` (extxyz, a ZarrSink store, ASE .traj, LAMMPS dump, H5MD, LoggingHook
// and TrainingLoggingHook logs, MSD/VACF/RDF files of `hookmd run`, NEB bands, phonon files) into the page's
// ViewData. Frames join log rows of the same system through info.systemId.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';

import { namedRecord, setNamed, type System } from '../data/index.js';
import { describeValue, showText } from '../describe-value.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { readExtxyz, readH5md, readLammpsDump, readTraj, readZarr } from '../io/index.js';
import { readLog, type ParsedLog } from './log-read.js';
import { isNebBand, nebPlot, nebProfiles } from './neb-profile.js';
import { checkPhononFile, PHONON_FORMAT, phononPlots } from './phonon-bands.js';
import {
  appendRow, emptySystem, flatCell, flatVectors, fmaxOf, pressureOf, symbolsOf, type ViewColumns, type ViewData, type ViewFile, type ViewPlot, type ViewSystem,
} from './view-model.js';

/** What a given path holds. */
export type ViewFileKind = 'extxyz' | 'zarr' | 'traj' | 'lammps-dump' | 'h5md' | 'log' | 'json';

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
 * The kind of a path: a directory is a Zarr store; `.csv`/`.jsonl` are logs; `.json` a phonon file; `.xyz`/`.extxyz` are extxyz,
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
  if (ext === '.json') return 'json';
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
  // Per system key, the row of each step its logs gave, so that another file's columns join that row.
  readonly #rowOfStep = new Map<string, Map<number, number>>();
  readonly plots: ViewPlot[] = [];
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
    // An NEB band (hookmd neb --out): each path is one trajectory through its images, whatever their ids.
    const neb = isNebBand(structures);
    if (neb) this.plots.push(nebPlot(nebProfiles(structures), file, name));
    structures.forEach((structure, i) => {
      const [key, label] = neb ? [`${file}:path${String(structure.info?.path)}`, `${name} path ${String(structure.info?.path)}`]
        : haveIds ? [`id:${String(ids[i])}`, `system ${String(ids[i])}`]
        : oneTrajectory ? [`${file}:0`, name] : [`${file}:${i}`, `${name} #${i}`];
      const system = this.system(key, label, symbols[i], file);
      const step = neb ? (structure.info?.image as number) : typeof structure.info?.step === 'number' ? structure.info.step : system.frames.length;
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
    if (log.kind === 'rdf') {
      this.#addRdf(log, file);
      return;
    }
    for (const row of log.rows) {
      const id = row.systemId ?? null;
      const key = id === null ? `${file}:${row.system ?? 0}` : `id:${id}`;
      const system = this.system(key, id === null ? `${name} #${row.system ?? 0}` : `system ${id}`, [], file);
      const { system: _index, systemId: _id, status: _status, ...values } = row;
      this.#addRow(key, system.scalars, values);
      if (row.energy !== null && row.energy !== undefined) system.energy = row.energy;
      if (row.fmax !== null && row.fmax !== undefined) system.fmax = row.fmax;
    }
  }

  /**
   * Adds a log row to a system's columns: into the row of the same step when that row has none of its
   * values yet or the same ones (an MSD file's `msd` beside the log's energies), else as a row of its own
   * (a second run of the same system, whose steps start again at 0).
   */
  #addRow(key: string, columns: ViewColumns, values: Readonly<Record<string, number | null>>): void {
    let rows = this.#rowOfStep.get(key);
    if (rows === undefined) this.#rowOfStep.set(key, (rows = new Map()));
    const step = values.step ?? null;
    const index = step === null ? undefined : rows.get(step);
    const joins = index !== undefined && Object.entries(values).every(([name, value]) => {
      const held = Object.hasOwn(columns, name) ? columns[name]?.[index] ?? null : null;
      return value === null || held === null || held === value;
    });
    if (index === undefined || !joins) {
      appendRow(columns, values);
      if (step !== null && index === undefined) rows.set(step, (columns.step?.length ?? 1) - 1);
      return;
    }
    const length = columns.step?.length ?? 0;
    for (const [name, value] of Object.entries(values)) {
      if (value === null) continue;
      if (!Object.hasOwn(columns, name)) setNamed(columns, name, new Array<number | null>(length).fill(null));
      (columns[name] as Array<number | null>)[index] = value;
    }
  }

  /** An RDF file: a g(r) plot for each system, shown when that system is selected. */
  #addRdf(log: ParsedLog, file: number): void {
    const bySystem = new Map<number, Array<Record<string, number | null>>>();
    for (const row of log.rows) {
      if (row.systemId === null || row.systemId === undefined || row.r === null || row.g === null) continue;
      const rows = bySystem.get(row.systemId);
      if (rows === undefined) bySystem.set(row.systemId, [row]);
      else rows.push(row);
    }
    for (const [id, rows] of bySystem) {
      const key = `id:${id}`;
      this.system(key, `system ${id}`, [], file);
      const frames = rows[0]?.frames;
      this.plots.push({
        id: `rdf-${file}-${id}`, title: `g(r): system ${id}`, system: key, xLabel: 'r (Å)', yLabel: 'g(r)',
        series: [{ label: 'g(r)', x: rows.map((row) => row.r as number), y: rows.map((row) => row.g as number) }],
        notes: typeof frames === 'number' ? [`averaged over ${frames} frame${frames === 1 ? '' : 's'}`] : [],
      });
    }
  }

  /** A phonon file (`hookmd phonons --out`): its bands and DOS. */
  addJson(path: string, file: number, name: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new HookmdError('VIEW_BAD_FILE', `view: cannot read ${path} as JSON: ${(error as Error).message}`, { path }, { cause: error });
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as Record<string, unknown>).format !== PHONON_FORMAT) {
      throw new HookmdError('VIEW_BAD_FILE', `view: ${path} is no JSON file hookmd view reads (a phonon file of hookmd phonons --out has format '${PHONON_FORMAT}')`, { path });
    }
    const phonon = parsed as Record<string, unknown>;
    checkPhononFile(phonon, path);
    this.plots.push(...phononPlots(phonon, file, name));
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
async function readFrames(kind: Exclude<ViewFileKind, 'log' | 'json'>, path: string): Promise<System[]> {
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
    else if (kind === 'json') collector.addJson(path, index, name);
    else collector.addStructures(await readFrames(kind, path), index, name);
  }
  return { title: files.map((f) => f.name).join(', '), live: false, seq: 0, maxFrames: null, systems: collector.finish(), training: collector.training, plots: collector.plots, files };
}
