// LoggingHook (docs/dynamics.md): one row per system per firing, to a csv or jsonl file and/or a callback.
// Writes are synchronous and buffered, so the hook works under run() and runSync() alike.
import { appendFileSync, existsSync, statSync, truncateSync, writeFileSync } from 'node:fs';

import { setNamed } from '../../data/index.js';
import { METAL, type UnitSystem } from '../../data/units.js';
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { every, registerHookType } from '../../hooks/index.js';
import type { Trigger } from '../../hooks/index.js';
import { Dynamics, type DynamicsHookContext } from '../dynamics.js';
import { SystemScalars } from '../scalars.js';
import { DynamicsStage } from '../stage.js';
import { stepsTaken } from '../state-observers.js';
import { checkFrequency } from './builtin-options.js';
import { headerCell, logColumnUnits } from './log-units.js';
import { showText, showValue } from '../../describe-value.js';

/** A custom column: its value for system `system` (an index into `ctx.batch`). */
export type LogColumn = (ctx: DynamicsHookContext, system: number) => number | string;

/** One logged row: the built-in columns, then the custom ones. */
export type LogRow = Record<string, number | string>;

/** Options of `new LoggingHook`. */
export interface LoggingHookOptions {
  /** File to write (created, or emptied, at the first write). Give this, `writer`, or both. */
  path?: string;
  /** Keep the rows already in `path` and add after them, as a resumed run does (the csv header goes only to an empty file). */
  append?: boolean;
  /** File format (default 'csv'). */
  format?: 'csv' | 'jsonl';
  /** Log the state after every multiple of `frequency` steps (default 1). */
  frequency?: number;
  /**
   * The stage to log at, as a value or a name (default AFTER_STEP, where the step has moved the systems: the
   * row of step n is the state after n steps).
   */
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
  const message = `${owner}: stage must be a DynamicsStage or its name, got ${showValue(value)}`;
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
 * @internal The gating of a state recorder at `stage`: the state after every multiple of `frequency` steps.
 * From AFTER_POST_UPDATE on, step k shows the state after k + 1 steps, so the hook fires when k + 1 is a
 * multiple; at earlier stages when k is.
 */
export function multiplesOf(stage: DynamicsStage, frequency: number): Trigger | undefined {
  return stepsTaken(stage, 0) === 1 ? every(frequency, { phase: frequency - 1 }) : undefined;
}

/**
 * Logs the thermo of every system, as LAMMPS's thermo output and ASE's MDLogger do: a row per system for
 * the state a run starts from (step 0 of a first run: the input positions and their energy), for the state
 * after every multiple of `frequency` steps, and for the state the run ends in (its last step, always); in
 * runStream also as each system enters and leaves the batch. A state is logged once, however many of these
 * fall on it. Columns: step (steps taken); time (step × dt, fs in metal units; empty under an optimizer,
 * whose steps are not time; in a FusedStage, each system's steps in MD sub-stages times their dt); system
 * (index in the batch), systemId and status; temperature (K); energy (the potential energy), kineticEnergy
 * and totalEnergy (eV); fmax (eV/Å); then the custom columns. The header (csv: the column names, each
 * built-in one with its unit, `energy[eV]`) is fixed at construction and written once. File rows are buffered and appended `bufferRows` at a time;
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
  /** Fires when the state at its stage is that after a multiple of `frequency` steps. */
  readonly trigger: Trigger | undefined;
  readonly name: string;
  readonly needs: readonly string[];
  /**
   * The column names, in order: the keys of each row. The csv header writes each built-in column with its
   * unit in the batch's unit system, as ASE's MDLogger does: `time[fs]`, `energy[eV]`, `fmax[eV/Å]`.
   */
  readonly header: readonly string[];
  readonly path: string | undefined;
  readonly format: 'csv' | 'jsonl';
  readonly #columns: ReadonlyArray<[string, LogColumn]>;
  readonly #pressure: boolean;
  readonly #writer: ((row: LogRow) => void) | undefined;
  readonly #bufferRows: number;
  #lines: string[] = [];
  #started = false;
  readonly #append: boolean;
  #engine: Dynamics | undefined;
  /** The unit system of the batch logged last, which the csv header's units name. */
  #units: UnitSystem = METAL;
  /** The built-in columns no custom column replaced: the ones whose unit the header can name. */
  readonly #builtins: ReadonlySet<string>;
  /** The step of each system's last row (by systemId), so a state is logged once. */
  readonly #logged = new Map<number, number>();

  constructor(options: LoggingHookOptions) {
    if (options === null || typeof options !== 'object') throw invalid('options', 'must be an object', options);
    checkKeys('LoggingHook', options, ['path', 'format', 'frequency', 'stage', 'columns', 'writer', 'bufferRows', 'pressure', 'append', 'name']);
    const { path, format = 'csv', writer, columns = {}, bufferRows = 1000, pressure = false, append = false } = options;
    if (typeof pressure !== 'boolean') throw invalid('pressure', 'must be a boolean', pressure);
    if (typeof append !== 'boolean') throw invalid('append', 'must be a boolean', append);
    if (path !== undefined && (typeof path !== 'string' || path === '')) throw invalid('path', 'must be a non-empty string', path);
    if (writer !== undefined && typeof writer !== 'function') throw invalid('writer', 'must be a function', writer);
    if (path === undefined && writer === undefined) throw invalid('path', 'is required when there is no writer', path);
    if (format !== 'csv' && format !== 'jsonl') throw invalid('format', `must be 'csv' or 'jsonl', got ${showValue(format)}`, format);
    if (!Number.isInteger(bufferRows) || bufferRows < 1) throw invalid('bufferRows', `must be an integer ≥ 1, got ${showText(bufferRows)}`, bufferRows);
    if (columns === null || typeof columns !== 'object') throw invalid('columns', 'must be an object of functions', columns);
    for (const [name, column] of Object.entries(columns)) {
      if (typeof column !== 'function') throw invalid(`columns.${name}`, 'must be a function (ctx, system) => number | string', column);
    }
    this.stage = dynamicsStageOption('LoggingHook', options.stage, DynamicsStage.AFTER_STEP);
    this.frequency = checkFrequency('LoggingHook', options.frequency ?? 1);
    this.trigger = multiplesOf(this.stage, this.frequency);
    this.name = options.name ?? 'LoggingHook';
    this.path = path;
    this.format = format;
    this.#writer = writer;
    this.#bufferRows = bufferRows;
    this.#columns = Object.entries(columns);
    this.#pressure = pressure;
    this.#append = append;
    const builtins = pressure ? [...LOG_COLUMNS, ...PRESSURE_COLUMNS] : LOG_COLUMNS;
    this.header = [...builtins, ...this.#columns.map(([name]) => name).filter((name) => !builtins.includes(name))];
    this.#builtins = new Set(builtins.filter((name) => !(name in columns)));
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
    this.#log(ctx, stepsTaken(this.stage, ctx.stepCount), null);
  }

  /** The state a run starts or ends in (rows of `ctx.stepCount` steps), for the systems in `systems` (null: all). */
  observeState(ctx: DynamicsHookContext, systems: Uint8Array | null): void {
    this.#log(ctx, ctx.stepCount, systems);
  }

  #log(ctx: DynamicsHookContext, step: number, systems: Uint8Array | null): void {
    const { batch } = ctx;
    this.#units = batch.units;
    const scalars = ctx.scalars ?? new SystemScalars(batch, ctx.model);
    const [energy, kinetic, fmax, temperature] = [scalars.energy, scalars.kineticEnergy, scalars.fmax, scalars.temperature];
    const [status, ids] = [batch.read('status'), batch.read('systemId')];
    const dt = this.#engine?.timeStep;
    const mdTime = this.#engine?.mdTime(batch);
    for (let s = 0; s < batch.numSystems; s++) {
      if ((systems !== null && systems[s] === 0) || this.#logged.get(ids[s]) === step) continue;
      this.#logged.set(ids[s], step);
      const time = mdTime !== undefined ? (Number.isNaN(mdTime[s]) ? '' : mdTime[s]) : dt === undefined ? '' : step * (typeof dt === 'number' ? dt : dt[s]);
      const row: LogRow = {
        step, time, system: s, systemId: ids[s], status: status[s], temperature: temperature[s],
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
    if (!this.#started && this.#append && existsSync(this.path) && statSync(this.path).size > 0) this.#started = true;
    const head = !this.#started && this.format === 'csv' ? `${this.#csvHeader().join(',')}\n` : '';
    const text = head + this.#lines.map((line) => `${line}\n`).join('');
    const before = this.#started ? statSync(this.path, { throwIfNoEntry: false })?.size ?? 0 : 0;
    try {
      if (this.#started) appendFileSync(this.path, text);
      else writeFileSync(this.path, text);
    } catch (error) {
      // A short write (disk full) would leave half a row: cut the file back to whole rows, as ExtxyzSink does.
      try {
        truncateSync(this.path, before);
      } catch {
        // The file cannot be cut back (it went away): the write error below is what to report.
      }
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

  #csvHeader(): string[] {
    const units = logColumnUnits(this.#units);
    return this.header.map((name) => csvCell(headerCell(name, this.#builtins.has(name) ? units[name] : undefined)));
  }

  #format(row: LogRow): string {
    if (this.format === 'jsonl') return JSON.stringify(row);
    return this.header.map((name) => csvCell(row[name])).join(',');
  }
}

registerHookType('LoggingHook', (args) => new LoggingHook(args as LoggingHookOptions));
