// RdfHook, MsdHook and VacfHook by name in a run config (`hooks: [{ type: MsdHook, path: msd.csv }]`): the
// library's hooks, which keep their series in memory, plus the `path` of a csv that the series are written
// to when the run ends (the hook's close()), in the shape `hookmd view` plots. MSD and VACF files are logs
// (`step,time,systemId,msd`): given beside the run's LoggingHook log, their rows join the log's rows of the
// same system and step. An RDF file has one row per bin: `systemId,frames,r,g`.
import { writeFileSync } from 'node:fs';

import { Dynamics, MsdHook, RdfHook, VacfHook, type DynamicsStage, type RdfOptions, type ReferenceSeriesOptions } from '../dynamics/index.js';
import type { Batch } from '../data/index.js';
import { METAL, type UnitSystem } from '../data/units.js';
import { headerCell, logColumnUnits } from '../dynamics/hooks/log-units.js';
import { HookmdError, HookmdTypeError } from '../errors.js';
import { registerHookType } from '../hooks/index.js';
import type { DynamicsContext, Trigger } from '../hooks/index.js';
import { checkKeys } from '../option-keys.js';
import { showValue } from '../describe-value.js';

type Context = DynamicsContext<Batch, unknown, DynamicsStage>;
type Args = Readonly<Record<string, unknown>>;

/** The output path of a config entry (required: a series nobody reads is not worth keeping). */
function pathOf(owner: string, args: Args): string {
  const { path } = args;
  if (typeof path !== 'string' || path === '') {
    throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: path must be the csv file to write the series to, got ${showValue(path)}`, { field: 'path', value: path });
  }
  return path;
}

/** What the file hook needs of the library's hook: its gating, and the two ways it records a state. */
interface Recorder {
  readonly stage: DynamicsStage;
  readonly frequency: number;
  readonly trigger: Trigger | undefined;
  readonly name: string;
  call(ctx: Context): void;
  observeState(ctx: Context, systems: Uint8Array | null): void;
}

/**
 * The csv lines of a recorder's series, for the systemIds it saw, with the engine's time step (MD only); the
 * header names each column's unit in the batch's unit system, as LoggingHook's does.
 */
type Lines = (ids: readonly number[], timeStep: number | undefined, header: (names: readonly string[]) => string) => string[];

/**
 * A recorder that remembers which systems it saw and writes their series to `path` when the run ends. It
 * fires as the recorder does (same stage, frequency and trigger) and hands every state on to it.
 */
class AnalysisFileHook {
  readonly stage: DynamicsStage;
  readonly frequency: number;
  readonly trigger: Trigger | undefined;
  readonly name: string;
  readonly #recorder: Recorder;
  readonly #path: string;
  readonly #lines: Lines;
  readonly #seen = new Set<number>();
  #engine: Dynamics | undefined;
  /** The unit system of the batches seen, which the header's units name. */
  #units: UnitSystem = METAL;

  constructor(recorder: Recorder, path: string, lines: Lines) {
    ({ stage: this.stage, frequency: this.frequency, trigger: this.trigger, name: this.name } = recorder);
    this.#recorder = recorder;
    this.#path = path;
    this.#lines = lines;
  }

  /**
   * Keeps the engine, whose time step gives the time column, as LoggingHook's. It is read when the file is
   * written: an engine registers the hooks it is given before its own parameters exist.
   */
  onRegister(workflow: unknown): void {
    if (workflow instanceof Dynamics) this.#engine = workflow;
  }

  call(ctx: Context): void {
    this.#see(ctx.batch);
    this.#recorder.call(ctx);
  }

  observeState(ctx: Context, systems: Uint8Array | null): void {
    this.#see(ctx.batch);
    this.#recorder.observeState(ctx, systems);
  }

  #see(batch: Batch): void {
    this.#units = batch.units;
    for (const id of batch.read('systemId')) this.#seen.add(id);
  }

  close(): void {
    // One time step for the run; a per-system one (an array) leaves the column empty.
    const dt = this.#engine?.timeStep;
    const units = logColumnUnits(this.#units);
    const header = (names: readonly string[]): string => names.map((name) => headerCell(name, units[name])).join(',');
    const lines = this.#lines([...this.#seen].sort((a, b) => a - b), typeof dt === 'number' ? dt : undefined, header);
    try {
      writeFileSync(this.#path, `${lines.join('\n')}\n`);
    } catch (error) {
      throw new HookmdError('LOG_WRITE_FAILED', `${this.name}: cannot write ${this.#path}: ${(error as Error).message}`, { path: this.#path }, { cause: error });
    }
  }
}

/** The library's options of a config entry: its arguments less `path`, after checking the keys. */
function optionsOf(owner: string, args: Args, keys: readonly string[]): Record<string, unknown> {
  checkKeys(owner, args, [...keys, 'path']);
  const { path: _, ...options } = args;
  return options;
}

registerHookType('RdfHook', (args: Args) => {
  const hook = new RdfHook(optionsOf('RdfHook', args, ['rmax', 'nbins', 'frequency', 'name']) as unknown as RdfOptions);
  return new AnalysisFileHook(hook, pathOf('RdfHook', args), (ids, _, header) => [header(['systemId', 'frames', 'r', 'g']), ...ids.flatMap((id) => {
    const rdf = hook.rdf(id);
    return rdf === undefined ? [] : Array.from(rdf.r, (r, k) => `${id},${rdf.frames},${r},${rdf.g[k]}`);
  })]);
});

/** The config type of MsdHook or VacfHook: a log-shaped csv, `step,time,systemId,<column>`. */
function seriesType(owner: string, column: string, make: (options: ReferenceSeriesOptions) => MsdHook | VacfHook): (args: Args) => AnalysisFileHook {
  return (args) => {
    const hook = make(optionsOf(owner, args, ['frequency', 'name']));
    return new AnalysisFileHook(hook, pathOf(owner, args), (ids, dt, header) => [header(['step', 'time', 'systemId', column]), ...ids.flatMap((id) => {
      const series = hook.series(id);
      return series === undefined ? [] : series.steps.map((step, k) => `${step},${dt === undefined ? '' : step * dt},${id},${series.values[k]}`);
    })]);
  };
}

registerHookType('MsdHook', seriesType('MsdHook', 'msd', (options) => new MsdHook(options)));
registerHookType('VacfHook', seriesType('VacfHook', 'vacf', (options) => new VacfHook(options)));
