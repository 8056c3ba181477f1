// The phonon file `hookmd phonons --out` writes (docs/workflows.md, "Phonons"), and the page's plots of it:
// the bands (one curve per branch against the linear axis of the band path, the special points as ticks)
// and the density of states when the file has one.
import { describeValue } from '../describe-value.js';
import { HookmdError } from '../errors.js';
import type { ViewPlot } from './view-model.js';

/** The `format` field that marks a phonon file. */
export const PHONON_FORMAT = 'hookmd-phonons';

/**
 * A phonon band file: `frequencies[k]` are the 3n frequencies (ascending, `unit`) at `q[k]` (reduced
 * coordinates), which sits at `distance[k]` (2π/Å) on the path's linear axis; `labels` place the special
 * points on that axis; `dos`, when present, is the density of states (states per `unit`, 3n in all).
 */
export interface PhononBandsFile {
  format: typeof PHONON_FORMAT;
  version: 1;
  unit: 'THz' | 'meV' | 'eV';
  supercell: [number, number, number];
  q: Array<[number, number, number]>;
  distance: number[];
  labels: Array<{ label: string; distance: number }>;
  frequencies: number[][];
  dos?: { kpts: [number, number, number]; frequencies: number[]; dos: number[] };
}

const numbers = (value: unknown, length?: number): value is number[] =>
  Array.isArray(value) && (length === undefined || value.length === length) && value.every((x) => typeof x === 'number' && Number.isFinite(x));

/** The first problem of `file` as a phonon band file, or null when it is one. */
function problemOf(file: Record<string, unknown>): string | null {
  const { q, distance, labels, frequencies, dos } = file;
  if (!Array.isArray(q) || !q.every((point) => numbers(point, 3))) return 'q must be an array of [x, y, z] points';
  if (!numbers(distance, q.length)) return `distance must be ${q.length} numbers, one per q point`;
  if (!Array.isArray(frequencies) || frequencies.length !== q.length) return `frequencies must have ${q.length} rows, one per q point`;
  const branches = Array.isArray(frequencies[0]) ? frequencies[0].length : 0;
  if (branches === 0 || !frequencies.every((row) => numbers(row, branches))) return 'frequencies must be rows of equal length of numbers';
  if (!Array.isArray(labels) || !labels.every((l) => typeof l?.label === 'string' && typeof l?.distance === 'number')) return 'labels must be an array of { label, distance }';
  if (!['THz', 'meV', 'eV'].includes(file.unit as string)) return `unit must be THz, meV or eV, got ${describeValue(file.unit)}`;
  if (dos !== undefined && !(numbers((dos as Record<string, unknown>)?.frequencies) && numbers((dos as Record<string, unknown>).dos, ((dos as Record<string, unknown>).frequencies as number[]).length))) {
    return 'dos must be { frequencies, dos } of equal lengths';
  }
  return null;
}

/** Throws VIEW_BAD_FILE naming the first problem unless `file` (parsed from `path`) is a phonon band file. */
export function checkPhononFile(file: Record<string, unknown>, path: string): asserts file is Record<string, unknown> & PhononBandsFile {
  const problem = problemOf(file);
  if (problem !== null) throw new HookmdError('VIEW_BAD_FILE', `view: ${path} is not a phonon file as hookmd phonons --out writes: ${problem}`, { path });
}

/** The band plot and, when the file has one, the DOS plot of file `index` (named `name`). */
export function phononPlots(file: PhononBandsFile, index: number, name: string): ViewPlot[] {
  const branches = (file.frequencies[0] as number[]).length;
  // A jump between segments of the path (two q points at one distance, 'L|U') breaks every branch there, as
  // ASE draws a band structure: a point without a value between the two.
  const jump = (k: number): boolean => k > 0 && file.distance[k] === file.distance[k - 1];
  const x = file.distance.flatMap((d, k) => (jump(k) ? [d, d] : [d]));
  const series = Array.from({ length: branches }, (_, b) => ({
    label: `branch ${b + 1}`, x, y: file.frequencies.flatMap((row, k) => (jump(k) ? [null, row[b] as number] : [row[b] as number])),
  }));
  const bands: ViewPlot = {
    id: `phonon-bands-${index}`, title: `Phonon bands: ${name}`, system: null, xLabel: 'q (band path)', yLabel: `frequency (${file.unit})`,
    series, ticks: file.labels.map(({ label, distance }) => ({ x: distance, label })),
  };
  if (file.dos === undefined) return [bands];
  const dos: ViewPlot = {
    id: `phonon-dos-${index}`, title: `Phonon DOS: ${name}`, system: null, xLabel: `frequency (${file.unit})`, yLabel: `states per ${file.unit}`,
    series: [{ label: 'DOS', x: file.dos.frequencies, y: file.dos.dos }],
    notes: [`${file.dos.kpts.join('×')} q points`],
  };
  return [bands, dos];
}
