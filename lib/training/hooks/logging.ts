// TrainingLoggingHook: the LoggingHook of training runs. lib/dynamics' LoggingHook writes one row per
// system of a batch at a DynamicsStage, so training gets this small counterpart with the same options
// (path, format csv | jsonl, frequency, stage, columns, writer, bufferRows): one row per firing with the
// epoch, step, learning rate, loss terms and every metric. It also writes the run metadata at
// BEFORE_TRAIN: as the first jsonl line, or, for csv, to `<path>.metadata.json`.
import { appendFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';

import { setNamed } from '../../data/index.js';
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import type { TrainingHookContext } from '../context.js';
import type { RunMetadata } from '../metadata.js';
import { consoleMetadata, consoleRow } from './console-row.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, integerOption, stringOption } from '../options.js';
import { trainingStage, TrainingStage } from '../stage.js';
import { showValue } from '../../describe-value.js';

/**
 * A custom column: its value at this firing.
 *
 * @example
 * const sigma: TrainingLogColumn = (ctx) => ctx.parameters['Ar-Ar.sigma'];
 */
export type TrainingLogColumn = (ctx: TrainingHookContext) => number | string;

/**
 * One logged row.
 *
 * @example
 * const row: TrainingLogRow = { epoch: 3, step: 16, lr: 0.05, loss: 1.2e-6, val_loss: 1.1e-6 };
 */
export type TrainingLogRow = Record<string, number | string>;

/**
 * Options of `new TrainingLoggingHook`.
 *
 * @example
 * const options: TrainingLoggingOptions = { path: 'fit.csv', stage: 'AFTER_EPOCH', columns: { sigma: (ctx) => ctx.parameters['Ar-Ar.sigma'] } };
 */
export interface TrainingLoggingOptions extends BuiltinHookOptions {
  /** File to write (created, or emptied, at the first write; a resumed run appends). Without it and without `writer`, rows go to the console. */
  path?: string;
  format?: 'csv' | 'jsonl';
  /** Default AFTER_EPOCH (one row per epoch); AFTER_STEP gives one row per step. */
  stage?: TrainingStage | keyof typeof TrainingStage;
  frequency?: number;
  columns?: Readonly<Record<string, TrainingLogColumn>>;
  writer?: (row: TrainingLogRow) => void;
  /** Receives the run metadata at BEFORE_TRAIN. */
  onMetadata?: (metadata: RunMetadata) => void;
  /** Rows held before they are appended to the file (default 100); close() writes the rest. */
  bufferRows?: number;
  name?: string;
}

/**
 * The built-in columns, before the metrics and the custom columns.
 *
 * @example
 * TRAINING_LOG_COLUMNS; // ['epoch', 'step', 'lr', 'loss', 'energy', 'forces', 'stress']
 */
export const TRAINING_LOG_COLUMNS: readonly string[] = ['epoch', 'step', 'lr', 'loss', 'energy', 'forces', 'stress'];

/**
 * Logs training progress as csv or jsonl rows, to a file, a writer, or (with neither) the console. The
 * csv header is fixed at the first row: the built-in columns, the metrics present then (sorted), the
 * custom columns.
 *
 * @example
 * new Trainer({ model, train, validation, epochs: 50, hooks: [new TrainingLoggingHook({ path: 'fit.jsonl', format: 'jsonl' })] });
 */
export class TrainingLoggingHook {
  readonly stage: TrainingStage;
  readonly frequency: number;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly path: string | undefined;
  readonly format: 'csv' | 'jsonl';
  readonly config: Readonly<Record<string, unknown>>;
  readonly #columns: ReadonlyArray<[string, TrainingLogColumn]>;
  readonly #writer: ((row: TrainingLogRow) => void) | undefined;
  readonly #onMetadata: ((metadata: RunMetadata) => void) | undefined;
  readonly #bufferRows: number;
  #header: string[] | null = null;
  #lines: string[] = [];
  #started = false;

  /** The config `type` and message prefix of the class (subclasses name themselves). */
  protected static readonly hookType: string = 'TrainingLoggingHook';

  constructor(options: TrainingLoggingOptions = {}) {
    const owner = (new.target as typeof TrainingLoggingHook).hookType;
    const given = checkKeys(owner, options, ['path', 'format', 'stage', 'frequency', 'columns', 'writer', 'onMetadata', 'bufferRows', 'name', ...BUILTIN_OPTION_KEYS]);
    this.path = given.path === undefined ? undefined : stringOption(owner, 'path', given.path);
    for (const field of ['writer', 'onMetadata']) {
      if (given[field] !== undefined && typeof given[field] !== 'function') {
        throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${field} must be a function`, { field, value: given[field] });
      }
    }
    // Neither a file nor a writer: the rows go to the console, and the run metadata with them.
    const toConsole = this.path === undefined && given.writer === undefined;
    const format = given.format ?? 'csv';
    if (format !== 'csv' && format !== 'jsonl') {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: format must be 'csv' or 'jsonl', got ${showValue(format)}`, { field: 'format', value: format });
    }
    this.format = format;
    const columns = (given.columns ?? {}) as Record<string, unknown>;
    for (const [name, column] of Object.entries(columns)) {
      if (typeof column !== 'function') throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: columns.${name} must be a function (ctx) => number | string`, { field: `columns.${name}`, value: column });
    }
    this.#columns = Object.entries(columns as Record<string, TrainingLogColumn>);
    this.#writer = toConsole ? (row) => console.log(consoleRow(row)) : (given.writer as ((row: TrainingLogRow) => void) | undefined);
    const onMetadata = given.onMetadata as ((metadata: RunMetadata) => void) | undefined;
    this.#onMetadata = toConsole && onMetadata === undefined ? (metadata) => console.log(consoleMetadata(metadata)) : onMetadata;
    this.stage = trainingStage(given.stage ?? TrainingStage.AFTER_EPOCH, owner);
    this.frequency = integerOption(owner, 'frequency', given.frequency ?? 1, 1);
    this.#bufferRows = integerOption(owner, 'bufferRows', given.bufferRows ?? 100, 1);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({
      type: owner, path: this.path ?? null, format, stage: this.stage, frequency: this.frequency, columns: this.#columns.map(([name]) => name), name: this.name,
    });
  }

  /** Fires at its stage, and at BEFORE_TRAIN for the metadata. */
  runsOnStage(stage: TrainingStage): boolean {
    return stage === this.stage || stage === TrainingStage.BEFORE_TRAIN;
  }

  call(ctx: TrainingHookContext, stage: TrainingStage): void {
    if (stage === TrainingStage.BEFORE_TRAIN) this.#logMetadata(ctx.metadata);
    if (stage !== this.stage) return;
    const row: TrainingLogRow = {
      epoch: ctx.epoch, step: ctx.stepCount, lr: ctx.optimizer.lr, loss: ctx.loss,
      energy: ctx.losses.energy, forces: ctx.losses.forces, stress: ctx.losses.stress,
    };
    // Metric and column names are the user's: set as own fields, so 'constructor' or '__proto__' is a column too.
    for (const key of Object.keys(ctx.metrics).sort()) if (!Object.hasOwn(row, key)) setNamed<number | string>(row, key, ctx.metrics[key]);
    for (const [name, column] of this.#columns) setNamed(row, name, column(ctx));
    this.#header ??= Object.keys(row);
    this.#writer?.(row);
    if (this.path !== undefined) this.#lines.push(this.format === 'jsonl' ? JSON.stringify(row) : this.#header.map((name) => csvCell(Object.hasOwn(row, name) ? row[name] : undefined)).join(','));
    if (this.#lines.length >= this.#bufferRows) this.flush();
  }

  /** Appends the buffered rows to the file now (the csv header first, on the first write). */
  flush(): void {
    if (this.path === undefined || this.#lines.length === 0) return;
    const head = !this.#started && this.format === 'csv' && this.#header !== null ? `${this.#header.map(csvCell).join(',')}\n` : '';
    this.#write(head + this.#lines.map((line) => `${line}\n`).join(''));
    this.#lines = [];
  }

  close(): void {
    this.flush();
  }

  /**
   * Whether the file was started, its csv header, and its length once every row so far is written: a
   * checkpoint taken now records exactly the rows of the epochs (and steps) it contains.
   */
  stateDict(): Record<string, unknown> {
    this.flush();
    return { started: this.#started, header: this.#header, bytes: this.#bytes() };
  }

  /**
   * Restores the state of a checkpoint. The file is cut back to the length the checkpoint recorded: rows
   * written after it was taken (a run killed before its next checkpoint became durable) belong to epochs
   * the resumed run repeats, so each epoch stays in the log exactly once.
   */
  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as { started?: unknown; header?: unknown; bytes?: unknown };
    if (typeof s.started !== 'boolean' || !(s.header === null || Array.isArray(s.header)) || !(s.bytes === undefined || (Number.isSafeInteger(s.bytes) && (s.bytes as number) >= 0))) {
      throw new HookmdError('INVALID_CHECKPOINT', `${this.name}.loadStateDict: expected { started, header, bytes }`, { value: state });
    }
    this.#started = s.started;
    this.#header = s.header === null ? null : [...(s.header as string[])];
    this.#lines = [];
    if (this.path !== undefined && s.started && typeof s.bytes === 'number' && this.#bytes() > s.bytes) {
      try {
        truncateSync(this.path, s.bytes);
      } catch (error) {
        throw logWriteFailed(this.path, error);
      }
    }
  }

  /** The file's length (0 while it is not started or does not exist). */
  #bytes(): number {
    if (this.path === undefined || !this.#started) return 0;
    try {
      return statSync(this.path).size;
    } catch {
      return 0;
    }
  }

  #logMetadata(metadata: RunMetadata): void {
    this.#onMetadata?.(metadata);
    if (this.path === undefined) return;
    if (this.format === 'jsonl') {
      this.#write(`${JSON.stringify({ event: 'metadata', ...metadata })}\n`);
    } else {
      try {
        writeFileSync(`${this.path}.metadata.json`, `${JSON.stringify(metadata, null, 2)}\n`);
      } catch (error) {
        throw logWriteFailed(`${this.path}.metadata.json`, error);
      }
    }
  }

  #write(text: string): void {
    if (this.path === undefined) return;
    try {
      if (this.#started) appendFileSync(this.path, text);
      else writeFileSync(this.path, text);
    } catch (error) {
      throw logWriteFailed(this.path, error);
    }
    this.#started = true;
  }
}

function logWriteFailed(path: string, error: unknown): HookmdError {
  return new HookmdError('LOG_WRITE_FAILED', `TrainingLoggingHook: cannot write ${path}: ${(error as Error).message}`, { path }, { cause: error });
}

function csvCell(value: number | string | undefined): string {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

registerHookType('TrainingLoggingHook', (args) => new TrainingLoggingHook(args as TrainingLoggingOptions));
