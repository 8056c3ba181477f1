// LoggingHook (docs/dynamics.md): one row per system per firing, to a csv or jsonl file and/or a callback.
// Writes are synchronous and buffered, so the hook works under run() and runSync() alike.
import { appendFileSync, writeFileSync } from 'node:fs';

import { setNamed } from '../../data/index.js';
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { registerHookType } from '../../hooks/index.js';
import { Dynamics, type DynamicsHookContext } from '../dynamics.js';
import { SystemScalars } from '../scalars.js';
import { DynamicsStage } from '../stage.js';
import { checkFrequency } from './builtin-options.js';

/** A custom column: its value for system `system` (an index into `ctx.batch`). */
export type LogColumn = (ctx: DynamicsHookContext, system: number) => number | string;

/** One logged row: the built-in columns, then the custom ones. */
export type LogRow = Record<string, number | string>;

/** Options of `new LoggingHook`. */
export interface LoggingHookOptions {
  /** File to write (created, or emptied, at the first write). Give this, `writer`, or both. */
  path?: string;
  /** File format (default 'csv'). */
  format?: 'csv' | 'jsonl';
  /** Log every `frequency` steps (default 1). */
  frequency?: number;
  /** The stage to log at, as a value or a name (default AFTER_STEP). */
  stage?: DynamicsStage | keyof typeof DynamicsStage;
  /** Extra columns, in order, after the built-in ones; one named like a built-in column replaces it in place (nvalchemi). */
  columns?: Readonly<Record<string, LogColumn>>;
  /** Receives every row as it is made (in addition to the file, if any). */
  writer?: (row: LogRow) => void;
  /** Rows held before they are appended to the file (default 1000); `close()` writes the rest. */
  bufferRows?: number;
  /**
   * Also log `volume` and `pressure` (after fmax), as LAMMPS's thermo does: the engine then computes the
   * stress on the logged steps, and only on those.
   */
  pressure?: boolean;
  name?: string;
}

/**
 * The built-in columns, in order.
 *
 * @example
 * new LoggingHook({ path: 'log.csv' }).header; // [...LOG_COLUMNS]
 */
export const LOG_COLUMNS: readonly string[] = [
  'step', 'time', 'system', 'systemId', 'status', 'temperature', 'energy', 'kineticEnergy', 'totalEnergy', 'fmax',
];

/** The columns `pressure: true` adds after fmax: volume (length³) and pressure (energy/length³). */
export const PRESSURE_COLUMNS: readonly string[] = ['volume', 'pressure'];

/** @internal A DynamicsStage from a value or a name (config files give names). */
export function dynamicsStageOption(owner: string, value: unknown, fallback: DynamicsStage): DynamicsStage {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && value in DynamicsStage && typeof DynamicsStage[value as keyof typeof DynamicsStage] === 'number') {
    return DynamicsStage[value as keyof typeof DynamicsStage];
  }
  if (typeof value === 'number' && DynamicsStage[value] !== undefined) return value as DynamicsStage;
  const message = `${owner}: stage must be a DynamicsStage or its name, got ${JSON.stringify(value)}`;
  throw new HookmdTypeError('INVALID_STAGE', message, { field: 'stage', value });
}

function csvCell(value: number | string): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function invalid(field: string, problem: string, value: unknown): HookmdTypeError {
  return new HookmdTypeError('INVALID_OPTIONS', `LoggingHook: ${field} ${problem}`, { field, value });
}

/**
 * Logs the thermo of every system each time it fires, as LAMMPS's thermo output and ASE's MDLogger do:
 * step; time (step × dt, fs in metal units; empty under an optimizer, whose steps are not time); system
 * (index in the batch), systemId and status; temperature (K); energy (the potential energy), kineticEnergy
 * and totalEnergy (eV); fmax (eV/Å); then the custom columns. The header (csv: the column names) is fixed at
 * construction and written once. File rows are buffered and appended `bufferRows` at a time;
 * `close()` (run automatically when a run ends) writes the rest. A failed write throws
 * LOG_WRITE_FAILED and keeps the rows for the next attempt.
 *
 * @example
 * const log = new LoggingHook({ path: 'relax.csv', frequency: 10, columns: { volume: (ctx, s) => volumeOf(ctx.batch, s) } });
 * await new FIRE({ model, hooks: [log] }).run(batch, { steps: 500 });
 * registry.fromConfig([{ type: 'LoggingHook', path: 'md.jsonl', format: 'jsonl', frequency: 100 }]);
 */
export class LoggingHook {
  readonly stage: DynamicsStage;
  readonly frequency: number;
  readonly name: string;
  readonly needs: readonly string[];
  /** The column names, in order (the csv header). */
  readonly header: readonly string[];
  readonly path: string | undefined;
  readonly format: 'csv' | 'jsonl';
  readonly #columns: ReadonlyArray<[string, LogColumn]>;
  readonly #pressure: boolean;
  readonly #writer: ((row: LogRow) => void) | undefined;
  readonly #bufferRows: number;
  #lines: string[] = [];
  #started = false;
  #engine: Dynamics | undefined;

  constructor(options: LoggingHookOptions) {
    if (options === null || typeof options !== 'object') throw invalid('options', 'must be an object', options);
    checkKeys('LoggingHook', options, ['path', 'format', 'frequency', 'stage', 'columns', 'writer', 'bufferRows', 'pressure', 'name']);
    const { path, format = 'csv', writer, columns = {}, bufferRows = 1000, pressure = false } = options;
    if (typeof pressure !== 'boolean') throw invalid('pressure', 'must be a boolean', pressure);
    if (path !== undefined && (typeof path !== 'string' || path === '')) throw invalid('path', 'must be a non-empty string', path);
    if (writer !== undefined && typeof writer !== 'function') throw invalid('writer', 'must be a function', writer);
    if (path === undefined && writer === undefined) throw invalid('path', 'is required when there is no writer', path);
    if (format !== 'csv' && format !== 'jsonl') throw invalid('format', `must be 'csv' or 'jsonl', got ${JSON.stringify(format)}`, format);
    if (!Number.isInteger(bufferRows) || bufferRows < 1) throw invalid('bufferRows', `must be an integer ≥ 1, got ${bufferRows}`, bufferRows);
    if (columns === null || typeof columns !== 'object') throw invalid('columns', 'must be an object of functions', columns);
    for (const [name, column] of Object.entries(columns)) {
      if (typeof column !== 'function') throw invalid(`columns.${name}`, 'must be a function (ctx, system) => number | string', column);
    }
    this.stage = dynamicsStageOption('LoggingHook', options.stage, DynamicsStage.AFTER_STEP);
    this.frequency = checkFrequency('LoggingHook', options.frequency ?? 1);
    this.name = options.name ?? 'LoggingHook';
    this.path = path;
    this.format = format;
    this.#writer = writer;
    this.#bufferRows = bufferRows;
    this.#columns = Object.entries(columns);
    this.#pressure = pressure;
    const builtins = pressure ? [...LOG_COLUMNS, ...PRESSURE_COLUMNS] : LOG_COLUMNS;
    this.header = [...builtins, ...this.#columns.map(([name]) => name).filter((name) => !builtins.includes(name))];
    const needs = ['energy', 'forces', 'velocities', 'masses', 'status', 'systemId'];
    this.needs = pressure ? [...needs, 'cell', 'stress'] : needs;
  }

  /**
   * Keeps the engine, whose time step (MD only) gives the time column. It is read at each call: an engine
   * registers the hooks it is given before its own parameters exist.
   */
  onRegister(workflow: unknown): void {
    if (workflow instanceof Dynamics) this.#engine = workflow;
  }

  call(ctx: DynamicsHookContext): void {
    const { batch } = ctx;
    const scalars = ctx.scalars ?? new SystemScalars(batch, ctx.model);
    const [energy, kinetic, fmax, temperature] = [scalars.energy, scalars.kineticEnergy, scalars.fmax, scalars.temperature];
    const [status, ids] = [batch.read('status'), batch.read('systemId')];
    const dt = this.#engine?.timeStep;
    for (let s = 0; s < batch.numSystems; s++) {
      const time = dt === undefined ? '' : ctx.stepCount * (typeof dt === 'number' ? dt : dt[s]);
      const row: LogRow = {
        step: ctx.stepCount, time, system: s, systemId: ids[s], status: status[s], temperature: temperature[s],
        energy: energy[s], kineticEnergy: kinetic[s], totalEnergy: energy[s] + kinetic[s], fmax: fmax[s],
      };
      if (this.#pressure) {
        row.volume = scalars.volume[s];
        row.pressure = scalars.pressure[s];
      }
      for (const [name, column] of this.#columns) {
        const value = column(ctx, s);
        if (typeof value !== 'number' && typeof value !== 'string') {
          const problem = `returned ${typeof value} for system ${s}; expected a number or a string`;
          throw new HookmdTypeError('INVALID_COLUMN_VALUE', `LoggingHook: column ${name} ${problem}`, { field: `columns.${name}`, value });
        }
        setNamed(row, name, value);
      }
      this.#writer?.(row);
      if (this.path !== undefined) this.#lines.push(this.#format(row));
    }
    if (this.#lines.length >= this.#bufferRows) this.flush();
  }

  /** Appends the buffered rows to the file now (the header first, on the first write). */
  flush(): void {
    if (this.path === undefined || (this.#started && this.#lines.length === 0)) return;
    const head = !this.#started && this.format === 'csv' ? `${this.header.map(csvCell).join(',')}\n` : '';
    const text = head + this.#lines.map((line) => `${line}\n`).join('');
    try {
      if (this.#started) appendFileSync(this.path, text);
      else writeFileSync(this.path, text);
    } catch (error) {
      const message = `LoggingHook: cannot write ${this.path}: ${(error as Error).message}`;
      throw new HookmdError('LOG_WRITE_FAILED', message, { path: this.path, cause: error }, { cause: error });
    }
    this.#started = true;
    this.#lines = [];
  }

  /** Writes the buffered rows; the hook keeps appending if it runs again. */
  close(): void {
    this.flush();
  }

  #format(row: LogRow): string {
    if (this.format === 'jsonl') return JSON.stringify(row);
    return this.header.map((name) => csvCell(row[name])).join(',');
  }
}

registerHookType('LoggingHook', (args) => new LoggingHook(args as LoggingHookOptions));
