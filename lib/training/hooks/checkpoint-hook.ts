// CheckpointHook: writes JSON training checkpoints every N epochs or steps, keeps the k best by a metric
// (PyTorch Lightning's ModelCheckpoint bookkeeping), optionally `last.json`, and optionally a checkpoint
// when the run fails. The bookkeeping is updated when the hook fires, before the trainer snapshots the
// state, so every checkpoint holds the list of files that exist once it is written.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { HookmdError, HookmdTypeError } from '../../errors.js';
import { registerHookType, type ErrorPolicy } from '../../hooks/index.js';
import { writeFileAtomic } from '../../io/atomic-write.js';
import { encodeCheckpoint, type TrainingCheckpoint } from '../checkpoint.js';
import type { CheckpointWriter, TrainingHookContext } from '../context.js';
import { BUILTIN_OPTION_KEYS, builtinOptions, type BuiltinHookOptions } from './builtin-options.js';
import { checkKeys, integerOption, modeOption, readMetric, stringOption } from '../options.js';
import { TrainingStage } from '../stage.js';
import { FilenameTemplate } from './filename.js';
import { showValue } from '../../describe-value.js';

/**
 * Options of `new CheckpointHook`.
 *
 * @example
 * const options: CheckpointHookOptions = { dirpath: 'ckpt', monitor: 'val_loss', saveTopK: 3, saveLast: true };
 */
export interface CheckpointHookOptions extends BuiltinHookOptions {
  /** Directory of the files (created when needed; default 'checkpoints'). */
  dirpath?: string;
  /**
   * File name template without '.json': {epoch}, {step} and any metric (`{val_loss}` or `{val/loss}`), with
   * Python format specs (:.2f, :.3e, :04d) (default 'epoch={epoch}-step={step}'). Checked at construction:
   * an unknown key is UNKNOWN_TEMPLATE_KEY. A '/' becomes '_' in the file name.
   */
  filename?: string;
  /** Write each template field as `name=value` (Lightning's auto_insert_metric_name; default false). */
  autoInsertMetricName?: boolean;
  /** Metrics your own hooks add that the template names (the trainer's own are known). */
  metrics?: readonly string[];
  /** The metric that ranks checkpoints; without it the latest ones are kept. */
  monitor?: string | null;
  mode?: 'min' | 'max';
  /** Keep the k best (default 1); −1 keeps all, 0 none (with saveLast, only last.json). */
  saveTopK?: number;
  /** Save at the end of every n-th epoch (default 1 unless everyNSteps is given). */
  everyNEpochs?: number;
  /** Save after every n-th optimizer step instead. */
  everyNSteps?: number;
  /** Also write `last.json` at every save (default false). */
  saveLast?: boolean;
  /** Write `on-exception.json` when the run fails (default false). */
  saveOnException?: boolean;
  name?: string;
}

/**
 * One kept checkpoint file.
 *
 * @example
 * hook.kept[0]; // { path: 'ckpt/epoch=41-step=210.json', score: 0.0012, epoch: 41, step: 210 }
 */
export interface KeptCheckpoint {
  readonly path: string;
  /** The monitored value (null without a monitor). */
  readonly score: number | null;
  readonly epoch: number;
  readonly step: number;
}

/**
 * Saves checkpoints that `fit({ resumeFrom })` continues exactly. With `monitor`, keeps the `saveTopK`
 * best files (deleting the one that drops out); `bestModelPath` names the best.
 *
 * @example
 * const checkpoints = new CheckpointHook({ dirpath: 'ckpt', monitor: 'val_loss', saveTopK: 2, saveLast: true });
 * await new Trainer({ model, train, validation, epochs: 50, hooks: [checkpoints] }).fit();
 * checkpoints.bestModelPath; // 'ckpt/epoch=41-step=210.json'
 */
export class CheckpointHook {
  readonly stage: TrainingStage;
  readonly frequency = 1;
  /** Built-in hooks run after user hooks at every stage. */
  readonly tier = 'builtin' as const;
  readonly order: number;
  readonly errorPolicy: ErrorPolicy;
  readonly name: string;
  readonly dirpath: string;
  readonly filename: string;
  readonly monitor: string | null;
  readonly mode: 'min' | 'max';
  readonly saveTopK: number;
  readonly everyNEpochs: number | null;
  readonly everyNSteps: number | null;
  readonly saveLast: boolean;
  readonly saveOnException: boolean;
  readonly config: Readonly<Record<string, unknown>>;
  readonly #template: FilenameTemplate;
  #kept: KeptCheckpoint[] = [];
  #lastPath: string | null = null;

  constructor(options: CheckpointHookOptions = {}) {
    const owner = 'CheckpointHook';
    const given = checkKeys(owner, options, [
      'dirpath', 'filename', 'autoInsertMetricName', 'metrics', 'monitor', 'mode', 'saveTopK', 'everyNEpochs', 'everyNSteps', 'saveLast', 'saveOnException', 'name',
      ...BUILTIN_OPTION_KEYS]);
    this.dirpath = stringOption(owner, 'dirpath', given.dirpath ?? 'checkpoints');
    this.filename = stringOption(owner, 'filename', given.filename ?? 'epoch={epoch}-step={step}');
    const metrics = given.metrics ?? [];
    if (!Array.isArray(metrics) || !metrics.every((m) => typeof m === 'string' && m !== '')) {
      throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: metrics must be an array of metric names`, { field: 'metrics', value: metrics });
    }
    this.#template = new FilenameTemplate(this.filename, owner, { autoInsertMetricName: flag(owner, 'autoInsertMetricName', given.autoInsertMetricName), metrics });
    this.monitor = given.monitor == null ? null : stringOption(owner, 'monitor', given.monitor);
    this.mode = modeOption(owner, given.mode);
    this.saveTopK = integerOption(owner, 'saveTopK', given.saveTopK ?? 1, -1);
    if (this.monitor === null && this.saveTopK > 1) {
      throw new HookmdError('INVALID_OPTIONS', `${owner}: saveTopK ${this.saveTopK} needs a monitor to rank checkpoints (without one use 1, 0 or −1)`, {
        field: 'saveTopK',
        value: this.saveTopK,
      });
    }
    if (given.everyNEpochs !== undefined && given.everyNSteps !== undefined) {
      throw new HookmdError('INVALID_OPTIONS', `${owner}: give everyNEpochs or everyNSteps, not both`, { field: 'everyNSteps', value: given.everyNSteps });
    }
    this.everyNSteps = given.everyNSteps === undefined ? null : integerOption(owner, 'everyNSteps', given.everyNSteps, 1);
    this.everyNEpochs = this.everyNSteps === null ? integerOption(owner, 'everyNEpochs', given.everyNEpochs ?? 1, 1) : null;
    this.stage = this.everyNSteps === null ? TrainingStage.AFTER_EPOCH : TrainingStage.AFTER_STEP;
    this.saveLast = flag(owner, 'saveLast', given.saveLast);
    this.saveOnException = flag(owner, 'saveOnException', given.saveOnException);
    this.name = given.name === undefined ? owner : stringOption(owner, 'name', given.name);
    ({ order: this.order, errorPolicy: this.errorPolicy } = builtinOptions(owner, given));
    this.config = Object.freeze({
      type: owner, dirpath: this.dirpath, filename: this.filename, autoInsertMetricName: this.#template.autoInsertMetricName, metrics: [...metrics], monitor: this.monitor, mode: this.mode, saveTopK: this.saveTopK,
      everyNEpochs: this.everyNEpochs, everyNSteps: this.everyNSteps, saveLast: this.saveLast, saveOnException: this.saveOnException, name: this.name,
    });
  }

  /** The kept files, best first (latest first without a monitor). */
  get kept(): readonly KeptCheckpoint[] {
    return [...this.#kept];
  }

  /** The best kept file, or null. */
  get bestModelPath(): string | null {
    return this.#kept[0]?.path ?? null;
  }

  get bestModelScore(): number | null {
    return this.#kept[0]?.score ?? null;
  }

  /** `last.json`, once written. */
  get lastModelPath(): string | null {
    return this.#lastPath;
  }

  call(ctx: TrainingHookContext): void {
    // Counted in completed epochs / steps: this call ends epoch ctx.epoch, or step ctx.stepCount.
    const step = this.stage === TrainingStage.AFTER_STEP ? ctx.stepCount + 1 : ctx.stepCount;
    const due = this.everyNSteps !== null ? step % this.everyNSteps === 0 : (ctx.epoch + 1) % (this.everyNEpochs as number) === 0;
    if (!due) return;
    const score = this.monitor === null ? null : readMetric(this.name, ctx.metrics, this.monitor);
    const { write, evicted } = this.#rank(ctx, step, score);
    const last = this.saveLast ? join(this.dirpath, 'last.json') : null;
    if (last !== null) this.#lastPath = last;
    if (write === null && last === null) return;
    ctx.saveCheckpoint(async (checkpoint) => {
      await mkdir(this.dirpath, { recursive: true });
      const text = encodeCheckpoint(checkpoint);
      const written = [write, last].filter((path): path is string => path !== null);
      for (const path of written) await writeFileAtomic(path, (chunk) => chunk(text), this.name);
      for (const path of evicted) await rm(path, { force: true });
      return written;
    });
  }

  /**
   * @internal The writer of the checkpoint a fit takes when its AbortSignal ends it (SIGTERM in `hookmd
   * fit`): the state after the last completed step, as `interrupted.json` and, with saveLast, `last.json`,
   * with `extra.interrupted: { reason }`. A fit resumed from it continues exactly.
   */
  interruptWriter(reason: string): CheckpointWriter {
    return async (checkpoint) => {
      await mkdir(this.dirpath, { recursive: true });
      const text = encodeCheckpoint({ ...checkpoint, extra: { ...checkpoint.extra, interrupted: { reason } } });
      const written = [join(this.dirpath, 'interrupted.json'), ...(this.saveLast ? [join(this.dirpath, 'last.json')] : [])];
      for (const path of written) await writeFileAtomic(path, (chunk) => chunk(text), this.name);
      if (this.saveLast) this.#lastPath = join(this.dirpath, 'last.json');
      return written;
    };
  }

  /** Writes `on-exception.json` (the state at the failure, for inspection or a resume). */
  async onException(error: unknown, ctx: TrainingHookContext | undefined): Promise<void> {
    if (!this.saveOnException || ctx?.trainer === undefined) return;
    const checkpoint: TrainingCheckpoint = ctx.trainer.checkpoint();
    checkpoint.extra.exception = { message: error instanceof Error ? error.message : String(error), stage: ctx.stage, step: ctx.stepCount };
    await mkdir(this.dirpath, { recursive: true });
    const text = encodeCheckpoint(checkpoint);
    await writeFileAtomic(join(this.dirpath, 'on-exception.json'), (chunk) => chunk(text), this.name);
  }

  stateDict(): Record<string, unknown> {
    return { kept: this.#kept.map((k) => ({ ...k })), lastPath: this.#lastPath };
  }

  loadStateDict(state: unknown): void {
    const s = (state ?? {}) as { kept?: unknown; lastPath?: unknown };
    if (!Array.isArray(s.kept) || !(s.lastPath === null || typeof s.lastPath === 'string')) {
      throw new HookmdError('INVALID_CHECKPOINT', `${this.name}.loadStateDict: expected { kept: [...], lastPath }`, { value: state });
    }
    this.#kept = s.kept.map((k: KeptCheckpoint) => ({ path: k.path, score: k.score, epoch: k.epoch, step: k.step }));
    this.#lastPath = s.lastPath;
  }

  // Decides whether this save enters the kept list, and which file drops out.
  #rank(ctx: TrainingHookContext, step: number, score: number | null): { write: string | null; evicted: string[] } {
    if (this.saveTopK === 0) return { write: null, evicted: [] };
    const base = this.#template.format({ ...ctx.metrics, epoch: ctx.epoch, step });
    let path = join(this.dirpath, `${base}.json`);
    for (let v = 1; this.#kept.some((k) => k.path === path); v++) path = join(this.dirpath, `${base}-v${v}.json`);
    const entry: KeptCheckpoint = { path, score, epoch: ctx.epoch, step };
    if (this.saveTopK === -1) {
      this.#kept = this.monitor === null ? [entry, ...this.#kept] : sortKept([...this.#kept, entry], this.mode);
      return { write: path, evicted: [] };
    }
    // NaN ranks last, as the worst possible score.
    const ranked = this.monitor === null ? [entry, ...this.#kept] : sortKept([...this.#kept, entry], this.mode);
    const dropped = ranked.slice(this.saveTopK);
    this.#kept = ranked.slice(0, this.saveTopK);
    const entered = !dropped.includes(entry);
    return { write: entered ? path : null, evicted: dropped.filter((k) => k !== entry).map((k) => k.path) };
  }
}

function sortKept(list: KeptCheckpoint[], mode: 'min' | 'max'): KeptCheckpoint[] {
  const key = (k: KeptCheckpoint): number => (k.score === null || Number.isNaN(k.score) ? Infinity : mode === 'min' ? k.score : -k.score);
  // Stable: among equal scores the earlier checkpoint stays ahead.
  return [...list].sort((a, b) => key(a) - key(b) || 0);
}

function flag(owner: string, field: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  throw new HookmdTypeError('INVALID_OPTIONS', `${owner}: ${field} must be a boolean, got ${showValue(value)}`, { field, value });
}

registerHookType('CheckpointHook', (args) => new CheckpointHook(args as CheckpointHookOptions));
