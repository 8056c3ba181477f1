// ViewHook: serves the view page while a run goes, and pushes each firing's frames and scalars to the
// connected pages over Server-Sent Events. One hook object serves an engine (AFTER_STEP) or a trainer
// (AFTER_EPOCH): it names both stages through runsOnStage, and each registry keeps the one it has.
import type { Batch } from '../data/index.js';
import { chemicalSymbol, namedRecord } from '../data/index.js';
import type { DynamicsHookContext } from '../dynamics/dynamics.js';
import { checkFrequency } from '../dynamics/hooks/builtin-options.js';
import { SystemScalars } from '../dynamics/scalars.js';
import { DynamicsStage } from '../dynamics/stage.js';
import { HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { TrainingHookContext } from '../training/context.js';
import { TrainingStage } from '../training/stage.js';
import { ViewServer } from './server.js';
import { appendRow, emptySystem, type ViewData, type ViewFrame, type ViewSystem } from './view-model.js';
import { showText } from '../describe-value.js';

/** Options of `new ViewHook`. */
export interface ViewHookOptions {
  /** Port (default 0: a free one; `hook.url` tells which). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: this machine only). */
  host?: string;
  /** Send an update every `frequency` steps (epochs under a trainer); default 100. */
  frequency?: number;
  /** Frames kept per system for the slider (default 100; older ones are dropped). 0 sends scalars only. */
  maxFrames?: number;
  /**
   * Atom positions kept over all systems' frames (default 2,000,000, about 50 MB): past it the oldest
   * frames go first, so a long streamed run keeps bounded memory however many systems pass.
   */
  maxStoredAtoms?: number;
  /**
   * Systems kept (default 10,000): past it the system seen first goes, with its frames and scalars, so a
   * stream of millions of systems keeps bounded memory too.
   */
  maxSystems?: number;
  /** Page title (default 'live run'). */
  title?: string;
  name?: string;
}

/** One system's part of an update. */
interface SystemUpdate {
  key: string;
  label: string;
  symbols: string[];
  frame: ViewFrame | null;
  row: Record<string, number | null>;
  converged: boolean | null;
}

/**
 * Serves the view page (3D structure, frame slider, plots; docs/view.md) while a run goes. At every
 * `frequency`-th step (dynamics: AFTER_STEP) or epoch (training: AFTER_EPOCH) it records each system's
 * frame and energy, temperature and fmax (training: loss, loss terms and metrics), and sends them to
 * the pages that are open. The run never waits for a browser: events are written without waiting, and a
 * page that reads too slowly misses updates instead of holding memory. With no page open an update costs
 * only the copy of the positions kept for pages that open later (at most `maxFrames` per system and
 * `maxStoredAtoms` positions in all).
 *
 * The server starts at `open()` (or earlier, with `start()`, to print its address first, or for
 * `runSync()`, which cannot wait for it) and stops at `close()`, when the run ends; an open page then
 * shows "run finished".
 *
 * @example
 * const view = new ViewHook({ frequency: 100 });
 * console.log(await view.start()); // http://127.0.0.1:PORT/
 * await new VelocityVerlet({ model, dt: 1, hooks: [view] }).run(batch, { steps: 2000 });
 */
export class ViewHook {
  readonly stage = null;
  readonly frequency: number;
  readonly name: string;
  readonly needs: readonly string[] = ['positions', 'cell', 'atomicNumbers', 'energy', 'forces', 'velocities', 'masses', 'systemId'];
  readonly port: number;
  readonly host: string;
  readonly maxFrames: number;
  readonly maxStoredAtoms: number;
  readonly maxSystems: number;
  readonly #data: ViewData;
  readonly #symbols = new Map<number, string[]>();
  readonly #systems = new Map<string, ViewSystem>();
  // Every kept frame in the order it came, for dropping the oldest past maxStoredAtoms; `#oldest` is the
  // queue's head (an index, so that dropping does not shift the array each time).
  #kept: Array<{ system: ViewSystem; frame: ViewFrame }> = [];
  #oldest = 0;
  #storedAtoms = 0;
  // Frames the systems hold now: the live entries of #kept.
  #frames = 0;
  #server: ViewServer | null = null;
  #starting: Promise<ViewServer> | null = null;

  constructor(options: ViewHookOptions = {}) {
    if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'ViewHook: options must be an object', { field: 'options', value: options });
    checkKeys('ViewHook', options, ['port', 'host', 'frequency', 'maxFrames', 'maxStoredAtoms', 'maxSystems', 'title', 'name']);
    const { port = 0, host = '127.0.0.1', maxFrames = 100, maxStoredAtoms = 2_000_000, maxSystems = 10_000, title = 'live run' } = options;
    if (!Number.isInteger(maxSystems) || maxSystems < 1) throw new HookmdRangeError('INVALID_OPTIONS', `ViewHook: maxSystems must be an integer ≥ 1, got ${showText(maxSystems)}`, { field: 'maxSystems', value: maxSystems });
    this.maxSystems = maxSystems;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HookmdRangeError('INVALID_OPTIONS', `ViewHook: port must be an integer from 0 to 65535, got ${showText(port)}`, { field: 'port', value: port });
    if (typeof host !== 'string' || host === '') throw new HookmdTypeError('INVALID_OPTIONS', 'ViewHook: host must be a non-empty string', { field: 'host', value: host });
    if (!Number.isInteger(maxFrames) || maxFrames < 0) throw new HookmdRangeError('INVALID_OPTIONS', `ViewHook: maxFrames must be an integer ≥ 0, got ${showText(maxFrames)}`, { field: 'maxFrames', value: maxFrames });
    this.frequency = checkFrequency('ViewHook', options.frequency ?? 100);
    this.name = options.name ?? 'ViewHook';
    this.port = port;
    this.host = host;
    if (!Number.isInteger(maxStoredAtoms) || maxStoredAtoms < 0) throw new HookmdRangeError('INVALID_OPTIONS', `ViewHook: maxStoredAtoms must be an integer ≥ 0, got ${showText(maxStoredAtoms)}`, { field: 'maxStoredAtoms', value: maxStoredAtoms });
    this.maxFrames = maxFrames;
    this.maxStoredAtoms = maxStoredAtoms;
    this.#data = { title: String(title), live: true, seq: 0, maxFrames, systems: [], training: null, plots: [], files: [] };
  }

  /** The page's address while the server runs, else null. */
  get url(): string | null {
    return this.#server?.url ?? null;
  }

  /** Pages connected now. */
  get clients(): number {
    return this.#server?.clients ?? 0;
  }

  /** Starts the server if it is not running; resolves to the page's address. */
  async start(): Promise<string> {
    this.#starting ??= ViewServer.start(() => this.#data, { host: this.host, port: this.port });
    this.#server = await this.#starting;
    return this.#server.url;
  }

  /** Fires after each step of an engine and after each epoch of a trainer. */
  runsOnStage(stage: unknown): boolean {
    return stage === DynamicsStage.AFTER_STEP || stage === TrainingStage.AFTER_EPOCH;
  }

  /** Starts the server (a no-op when `start()` already did). */
  open(): Promise<void> | undefined {
    return this.#server === null ? this.start().then(() => undefined) : undefined;
  }

  call(ctx: DynamicsHookContext | TrainingHookContext, stage: DynamicsStage | TrainingStage): void {
    if (stage === TrainingStage.AFTER_EPOCH) this.#epoch(ctx as TrainingHookContext);
    else this.#step(ctx as DynamicsHookContext);
  }

  /**
   * Tells open pages that the run ended and stops the server, which lets go once they have read that.
   * Synchronous, so that `runSync()` can close it too.
   */
  close(): void {
    const server = this.#server;
    if (server === null) return;
    this.#server = null;
    this.#starting = null;
    this.#data.seq += 1;
    server.publish({ seq: this.#data.seq, kind: 'end' });
    void server.close();
  }

  #epoch(ctx: TrainingHookContext): void {
    const row: Record<string, number | null> = {
      epoch: ctx.epoch, step: ctx.stepCount, lr: ctx.optimizer.lr, loss: ctx.loss,
      energy: ctx.losses.energy ?? null, forces: ctx.losses.forces ?? null, stress: ctx.losses.stress ?? null,
    };
    for (const key of Object.keys(ctx.metrics).sort()) if (!(key in row)) row[key] = ctx.metrics[key];
    appendRow((this.#data.training ??= namedRecord()), row);
    this.#data.seq += 1;
    this.#server?.publish({ seq: this.#data.seq, kind: 'training', row });
  }

  #step(ctx: DynamicsHookContext): void {
    const { batch } = ctx;
    const scalars = ctx.scalars ?? new SystemScalars(batch);
    const [energy, temperature, fmax, kinetic] = [scalars.energy, scalars.temperature, scalars.fmax, scalars.kineticEnergy];
    const ids = batch.read('systemId');
    const ptr = batch.read('ptr');
    const positions = this.maxFrames > 0 ? batch.read('positions') : null;
    const cell = this.maxFrames > 0 ? batch.read('cell') : null;
    const updates: SystemUpdate[] = [];
    for (let s = 0; s < batch.numSystems; s++) {
      const id = ids[s];
      const key = `id:${id}`;
      const symbols = this.#symbolsOf(batch, id, ptr[s], ptr[s + 1]);
      let frame: ViewFrame | null = null;
      if (positions !== null && cell !== null) {
        const box = Array.from(cell.subarray(9 * s, 9 * s + 9));
        frame = { step: ctx.stepCount, positions: Array.from(positions.subarray(3 * ptr[s], 3 * ptr[s + 1])), cell: box.every((v) => v === 0) ? null : box };
      }
      const row = { step: ctx.stepCount, energy: energy[s], totalEnergy: energy[s] + kinetic[s], temperature: temperature[s], fmax: fmax[s] };
      updates.push({ key, label: `system ${id}`, symbols, frame, row, converged: null });
      this.#record(updates[updates.length - 1]);
    }
    this.#data.seq += 1;
    this.#server?.publish({ seq: this.#data.seq, kind: 'md', step: ctx.stepCount, systems: updates });
  }

  // Keeps the update for pages that open later: the same data a page builds from the events.
  #record(update: SystemUpdate): void {
    let system = this.#systems.get(update.key);
    if (system === undefined) {
      system = emptySystem(update.key, update.label, update.symbols, null);
      this.#systems.set(update.key, system);
      this.#data.systems.push(system);
      if (this.#systems.size > this.maxSystems) this.#forgetOldest();
    }
    if (update.frame !== null) this.#keep(system, update.frame);
    appendRow(system.scalars, update.row);
    system.energy = update.row.energy;
    system.fmax = update.row.fmax;
  }

  /** Drops the system seen first: its frames, scalars and symbols (kept frames of it are skipped later). */
  #forgetOldest(): void {
    const oldest = this.#data.systems.shift() as ViewSystem;
    this.#systems.delete(oldest.key);
    this.#symbols.delete(Number(oldest.key.slice('id:'.length)));
    this.#storedAtoms -= oldest.frames.length * oldest.symbols.length;
    this.#frames -= oldest.frames.length;
    oldest.frames.length = 0;
  }

  /** Systems kept now (at most `maxSystems`). */
  get storedSystems(): number {
    return this.#systems.size;
  }

  #keep(system: ViewSystem, frame: ViewFrame): void {
    const atoms = system.symbols.length;
    system.frames.push(frame);
    this.#kept.push({ system, frame });
    this.#storedAtoms += atoms;
    this.#frames += 1;
    if (system.frames.length > this.maxFrames) {
      system.frames.shift();
      this.#storedAtoms -= atoms;
      this.#frames -= 1;
    }
    while (this.#storedAtoms > this.maxStoredAtoms && this.#oldest < this.#kept.length) {
      const entry = this.#kept[this.#oldest++];
      // A frame that maxFrames already dropped is no longer its system's first.
      if (entry.system.frames[0] === entry.frame) {
        entry.system.frames.shift();
        this.#storedAtoms -= entry.system.symbols.length;
        this.#frames -= 1;
      }
    }
    if (this.#oldest > 1024 && this.#oldest * 2 > this.#kept.length) {
      this.#kept = this.#kept.slice(this.#oldest);
      this.#oldest = 0;
    }
    // Entries of frames that maxFrames or a forgotten system dropped would keep those frames alive: once
    // they outnumber the frames still kept, only the kept ones stay.
    if (this.#kept.length - this.#oldest > 1024 && this.#kept.length - this.#oldest > 2 * this.#frames) {
      this.#kept = this.#kept.slice(this.#oldest).filter((entry) => entry.system.frames.includes(entry.frame));
      this.#oldest = 0;
    }
  }

  #symbolsOf(batch: Batch, id: number, from: number, to: number): string[] {
    let symbols = this.#symbols.get(id);
    if (symbols === undefined) {
      symbols = Array.from(batch.read('atomicNumbers').subarray(from, to), (z) => chemicalSymbol(z));
      this.#symbols.set(id, symbols);
    }
    return symbols;
  }
}
