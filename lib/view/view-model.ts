// The data the view page draws: systems (atoms, frames, per-step scalars) and training curves. Files,
// and ViewHook while a run goes, are turned into this one shape, so the page has a single code path.
import { chemicalSymbol, namedRecord, setNamed, type System, type Vectors } from '../data/index.js';

/** One frame of a system: flat positions (x0, y0, z0, x1, …) and its cell rows, flat (null when none). */
export interface ViewFrame {
  step: number;
  positions: number[];
  cell: number[] | null;
}

/** Per-step values of one system: each column is as long as `step` (null where a row had no value). */
export type ViewColumns = Record<string, Array<number | null>>;

/** One system: its atoms, frames (possibly none, for a log), scalar history and latest results. */
export interface ViewSystem {
  /** Stable key: `id:<systemId>` when the source knows it, else file and index. */
  key: string;
  label: string;
  symbols: string[];
  frames: ViewFrame[];
  /** `step` plus energy, temperature, pressure, fmax, … as the sources have them. */
  scalars: ViewColumns;
  energy: number | null;
  fmax: number | null;
  converged: boolean | null;
  /** Index into `ViewData.files` of the file it came from. */
  file: number | null;
}

/** A file the page lists; `href` is null for what cannot be downloaded as one file (a Zarr directory). */
export interface ViewFile {
  name: string;
  href: string | null;
}

/**
 * One curve of a plot: its own x values and y values (equal lengths; a null y breaks the line there);
 * `points` draws markers, not a line.
 */
export interface ViewSeries {
  label: string;
  x: number[];
  y: Array<number | null>;
  points?: boolean;
}

/**
 * A plot that is no per-step scalar: an NEB energy profile, phonon bands or DOS, g(r). `system` names the
 * system (its key) whose selection shows it, or null for a plot the page always shows; `ticks` labels x
 * positions (the q points of a band path); `marks` label points of the plot (each path's saddle with its
 * barrier); `notes` are lines under the plot.
 */
export interface ViewPlot {
  id: string;
  title: string;
  system: string | null;
  xLabel: string;
  yLabel: string;
  series: ViewSeries[];
  ticks?: Array<{ x: number; label: string }>;
  marks?: Array<{ x: number; y: number; label: string }>;
  notes?: string[];
}

/**
 * Everything the page shows. `training` holds a training log's columns against `epoch`; `plots` the curves
 * of NEB bands, phonon files and g(r) files.
 */
export interface ViewData {
  title: string;
  /** True while a ViewHook streams updates to the page. */
  live: boolean;
  /** Updates included in this snapshot: a live page applies only events with a larger `seq`. */
  seq: number;
  /** Frames kept per system (older ones are dropped), or null for no limit. */
  maxFrames: number | null;
  systems: ViewSystem[];
  training: ViewColumns | null;
  plots: ViewPlot[];
  files: ViewFile[];
}

/** A flat copy of per-atom vectors given as rows or flat. */
export function flatVectors(vectors: Vectors | undefined): number[] {
  if (vectors === undefined) return [];
  const out: number[] = [];
  for (let i = 0; i < vectors.length; i++) {
    const row = vectors[i];
    if (typeof row === 'number') out.push(row);
    else for (let j = 0; j < row.length; j++) out.push(row[j]);
  }
  return out;
}

/** The cell as 9 numbers, or null for no cell (all zero) or three lengths turned into a diagonal. */
export function flatCell(cell: Vectors | undefined): number[] | null {
  const flat = flatVectors(cell);
  if (flat.length === 3) return [flat[0], 0, 0, 0, flat[1], 0, 0, 0, flat[2]];
  if (flat.length !== 9 || flat.every((v) => v === 0)) return null;
  return flat;
}

/** Chemical symbols of a system given by symbols or atomic numbers. */
export function symbolsOf(system: System): string[] {
  if (system.symbols !== undefined) return Array.from(system.symbols);
  return Array.from(system.atomicNumbers ?? [], (z) => chemicalSymbol(z));
}

/** Largest per-atom force norm, or null without forces. */
export function fmaxOf(forces: Vectors | undefined): number | null {
  const flat = flatVectors(forces);
  if (flat.length === 0) return null;
  let max = 0;
  for (let i = 0; i + 2 < flat.length; i += 3) max = Math.max(max, Math.hypot(flat[i], flat[i + 1], flat[i + 2]));
  return max;
}

/** Pressure −tr(σ)/3 from a stress (ASE's sign: positive stress is tension), or null without one. */
export function pressureOf(stress: Vectors | undefined): number | null {
  const flat = flatVectors(stress);
  if (flat.length === 9) return -(flat[0] + flat[4] + flat[8]) / 3;
  if (flat.length === 6) return -(flat[0] + flat[1] + flat[2]) / 3;
  return null;
}

/** A formula such as `Ar32` or `CuO2`, elements in order of first appearance. */
export function formulaOf(symbols: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n === 1 ? s : `${s}${n}`)).join('');
}

/** Appends a row to columns that all have the same length, adding columns (backfilled with null) as they appear. */
export function appendRow(columns: ViewColumns, row: Readonly<Record<string, number | null>>): void {
  const length = columns.step?.length ?? columns.epoch?.length ?? 0;
  for (const [name, value] of Object.entries(row)) {
    // Column names come from logs: 'constructor' or '__proto__' is a column, not a member of Object.
    if (!Object.hasOwn(columns, name)) setNamed(columns, name, new Array<number | null>(length).fill(null));
    (columns[name] as Array<number | null>).push(value);
  }
  for (const column of Object.values(columns)) if (column.length === length) column.push(null);
}

/** A new empty system. */
export function emptySystem(key: string, label: string, symbols: string[], file: number | null): ViewSystem {
  return { key, label, symbols, frames: [], scalars: namedRecord(), energy: null, fmax: null, converged: null, file };
}
