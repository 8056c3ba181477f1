// Batch: B systems and N atoms in structure-of-arrays form, owned by the native backend. JS sees the arrays
// as typed-array views of the host side. On cpu they alias the storage itself. On a device backend (cuda,
// mirror) they alias the host arrays, and every access declares itself to the native coherence table:
// a read syncs a stale host array, a write marks the device copy stale. Where the runtime refuses external
// buffers, views are copies, written back when the engine commits them.
import { describeValue, showText, showValue } from '../describe-value.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { activeBackend, loadBinding } from '../native/index.js';
import { checkKeys } from '../option-keys.js';
import type { BackendName, DeviceStats, NativeBatch, NativeFieldArrays, NativeFieldName, TransferStats } from '../native/index.js';
import { chemicalSymbol } from './elements.js';
import { assembleSystems, type PackedSystems } from './pack.js';
import type { ResolvedSystem, System } from './system.js';
import { unitSystem, type UnitSystem } from './units.js';
import { checkBatchOptions, normalizeSystem } from './validate.js';
import { checkBatchArrays, defaultMasses, type BatchArrays, type CheckedArrays } from './validate-arrays.js';

/** Options of `Batch.fromSystems`. */
export interface BatchOptions {
  /** 'metal' (default) or 'lj'. */
  units?: 'metal' | 'lj';
}

/** A user-registered extra field. */
export interface ExtraFieldSpec {
  /** Indexed per atom or per system. */
  per: 'atom' | 'system';
  /** Components per row (default 1). */
  components?: number;
  /** Value of new rows (default 0). */
  fill?: number;
}

interface ExtraField {
  per: 'atom' | 'system';
  components: number;
  fill: number;
  data: Float64Array;
}

const PER_ATOM_FIELDS = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers'] as const;
const PER_SYSTEM_FIELDS = ['energy', 'stress', 'cell', 'pbc', 'status', 'systemId'] as const;
const FIELD_WIDTH: Record<NativeFieldName, number> = {
  positions: 3, velocities: 3, forces: 3, masses: 1, atomicNumbers: 1, systemIndex: 1,
  energy: 1, stress: 9, cell: 9, pbc: 3, status: 1, systemId: 1, numAtoms: 1, ptr: 1,
};

const nativeOf = new WeakMap<Batch, NativeBatch>();

// The fields a new system brings, per atom and per system (the layout fields are derived from numAtoms).
const APPENDED_ATOM_FIELDS = ['positions', 'velocities', 'forces', 'masses', 'atomicNumbers'] as const;
const APPENDED_SYSTEM_FIELDS = ['energy', 'stress', 'cell', 'pbc', 'systemId'] as const;
type AppendedRows = Pick<NativeFieldArrays, (typeof APPENDED_ATOM_FIELDS)[number] | (typeof APPENDED_SYSTEM_FIELDS)[number] | 'numAtoms'>;

/** The results a model computes, whose validity the batch tracks per system. */
export type ResultField = 'energy' | 'forces' | 'stress';
const RESULT_FIELDS: readonly ResultField[] = ['energy', 'forces', 'stress'];
/** The fields results belong to: a change to any of them makes a system's results stale. */
type GeometryField = 'positions' | 'cell' | 'atomicNumbers';

/**
 * B systems and N atoms in structure-of-arrays form (docs/ARCHITECTURE.md).
 *
 * @example
 * const batch = Batch.fromSystems([{ symbols: ['Ar', 'Ar'], positions: [[0, 0, 0], [0, 0, 3.8]] }]);
 * batch.positions[5] += 0.1;        // writes native memory (CPU)
 * const [dimer] = batch.toSystems();
 */
export class Batch {
  /** Units of every number in this batch. */
  readonly units: UnitSystem;
  readonly #native: NativeBatch;
  /** Views alias memory that native code keeps current itself (cpu): no per-access call is needed. */
  readonly #unified: boolean;
  /** Views are copies (external buffers refused): they are refreshed per dispatch and written back. */
  readonly #copies: boolean;
  // Views are cached in a plain object: the getters are on the hot path of every hook.
  #views: Partial<NativeFieldArrays> = {};
  #layoutCopies: Partial<Record<'ptr' | 'numAtoms' | 'systemIndex', Int32Array>> = {};
  #numAtoms = 0;
  #numSystems = 0;
  #synced = new Set<NativeFieldName>();
  #touched = new Set<NativeFieldName>();
  // undefined: every system's info is an empty object, made at first use (#infos), so fromArrays creates none.
  #info: Record<string, unknown>[] | undefined = [];
  #extra = new Map<string, ExtraField>();
  #nextSystemId = 0;
  // Per result and system: 1 when the stored result belongs to the current positions and cell.
  #valid: Record<ResultField, Uint8Array> = { energy: new Uint8Array(0), forces: new Uint8Array(0), stress: new Uint8Array(0) };
  #anyValid = false;
  // What the valid results belong to, kept at the first writing access to a geometry field (#geometryAccess).
  #geometry: Partial<Record<GeometryField, Float64Array | Int32Array>> = {};

  private constructor(units: UnitSystem) {
    this.units = units;
    const binding = loadBinding();
    this.#native = new binding.NativeBatch(activeBackend());
    this.#native.setUnits(units.kB, units.forceToAccel);
    this.#copies = !binding.externalViews();
    this.#unified = this.#native.unified && !this.#copies;
    nativeOf.set(this, this.#native);
  }

  /** Validates `systems` and builds a batch; every system gets a fresh `systemId` (0, 1, ...). */
  static fromSystems(systems: Iterable<System>, options: BatchOptions = {}): Batch {
    const units = unitSystem(checkBatchOptions(options, 'Batch.fromSystems').units ?? 'metal');
    const batch = new Batch(units);
    batch.#fill(batch.#validate(systems, 'Batch.fromSystems'), []);
    return batch;
  }

  /**
   * Builds a batch straight from flat typed arrays, as a GPU pipeline or a file reader holds them: about 20×
   * faster than `fromSystems` for many small systems, with the same checks and typed errors (INVALID_ARRAY,
   * LENGTH_MISMATCH, INVALID_POSITIONS, UNKNOWN_ELEMENT, SINGULAR_CELL, ...). Systems get systemIds 0, 1, ...
   *
   * @example
   * const batch = Batch.fromArrays({
   *   positions: Float64Array.of(0, 0, 0, 0, 0, 1.1, 5, 5, 5),   // N×3
   *   atomicNumbers: Int32Array.of(18, 18, 18),                   // N
   *   numAtomsPerSystem: Int32Array.of(2, 1),                     // B
   *   cell: new Float64Array(18),                                 // B×9 (optional)
   *   pbc: new Uint8Array(6),                                     // B×3 (optional)
   * }, { units: 'lj' });
   */
  static fromArrays(arrays: BatchArrays, options: BatchOptions = {}): Batch {
    const units = unitSystem(checkBatchOptions(options, 'Batch.fromArrays').units ?? 'metal');
    const checked = checkBatchArrays(arrays, units, 'Batch.fromArrays');
    const batch = new Batch(units);
    batch.#fillChecked(checked, units);
    return batch;
  }

  /** Number of systems B. */
  get numSystems(): number {
    return this.#numSystems;
  }

  /** Number of atoms N. */
  get numAtoms(): number {
    return this.#numAtoms;
  }

  /** The backend that owns the arrays. */
  get backend(): BackendName {
    return this.#native.backend;
  }

  /**
   * Bytes and copies moved between the host arrays and the device arrays since the last reset; always
   * zero on cpu, where both are one memory.
   *
   * @example
   * batch.resetTransferStats();
   * await md.run(batch, { steps: 100 });
   * const { toHostBytes, toDeviceBytes } = batch.transferStats();
   */
  transferStats(): TransferStats {
    return this.#native.transferStats();
  }

  /** Zeroes the counters of `transferStats()`. */
  resetTransferStats(): void {
    this.#native.resetTransferStats();
  }

  /**
   * The device work since the last reset: launches, host syncs, control bytes, neighbor rebuilds and
   * modeled device-memory traffic (docs/cuda.md, "The device ledger"). `mirror` counts what `cuda` would
   * do, so CI can hold a run to a GPU budget; always zero on cpu.
   *
   * @example
   * batch.resetDeviceStats();
   * await md.run(batch, { steps: 100 });
   * const { launches, hostSyncs } = batch.deviceStats();
   */
  deviceStats(): DeviceStats {
    return this.#native.deviceStats();
  }

  /** Zeroes the counters of `deviceStats()`. */
  resetDeviceStats(): void {
    this.#native.resetDeviceStats();
  }

  /**
   * N×3 positions (Å in metal), for reading and writing. A write that changes a system's positions makes its
   * energy, forces and stress stale; reading them changes nothing (`resultValid`).
   */
  get positions(): Float64Array {
    return this.#geometryAccess('positions');
  }
  /** N×3 velocities (Å/fs in metal). */
  get velocities(): Float64Array { return this.#access('velocities', true); }
  /** N×3 forces (eV/Å in metal). */
  get forces(): Float64Array { return this.#access('forces', true); }
  /** N masses (amu in metal). */
  get masses(): Float64Array { return this.#access('masses', true); }
  /** N atomic numbers. */
  get atomicNumbers(): Int32Array {
    const view = this.#geometryAccess('atomicNumbers');
    // Models cache species types per version of this field; on one memory the access alone would not
    // move it, so declare the write (on cpu this only moves the version).
    if (this.#unified) this.#native.acquire('atomicNumbers', true);
    return view;
  }
  /** N system indices, sorted (a copy: the layout is changed only through select/append). */
  get systemIndex(): Int32Array { return this.#layout('systemIndex').slice(); }
  /** B potential energies (eV in metal). */
  get energy(): Float64Array { return this.#access('energy', true); }
  /** B×9 stress, row-major 3×3 (eV/Å³ in metal, ASE's sign convention). */
  get stress(): Float64Array { return this.#access('stress', true); }
  /** B×9 cells; rows are lattice vectors. A write that changes a system's cell makes its results stale, as for `positions`. */
  get cell(): Float64Array {
    return this.#geometryAccess('cell');
  }

  /**
   * Per system, 1 when the stored `field` (energy, forces or stress) was computed for the current positions,
   * cell and species (a copy). `toSystems()`, sinks and writers carry only valid results (docs/dynamics.md,
   * "Results"). A write through `batch.positions`, `batch.cell` or `batch.atomicNumbers` makes stale the
   * results of the systems whose values it changed; reading through them keeps every result.
   *
   * @example
   * model.compute(batch, { stress: true });
   * batch.resultValid('stress');   // Uint8Array [1, 1, ...]
   * batch.positions[0] += 0.1;
   * batch.resultValid('stress');   // Uint8Array [0, 1, ...]: system 0 moved
   */
  resultValid(field: ResultField): Uint8Array {
    if (!RESULT_FIELDS.includes(field)) {
      throw new HookmdTypeError('UNKNOWN_FIELD', `Batch.resultValid: field must be energy, forces or stress, got ${showValue(field)}`, { field: 'field', value: field });
    }
    this.#reconcile();
    return this.#valid[field].slice();
  }

  /**
   * @internal Records that results were computed (true) or went stale (false) for every system, or for the
   * systems flagged in `systems`. Models and engines call it; fields left out keep their state.
   */
  markResults(fields: Partial<Record<ResultField, boolean>>, systems?: ArrayLike<number>): void {
    if (fields === null || typeof fields !== 'object') {
      throw new HookmdTypeError('INVALID_OPTIONS', `Batch.markResults: fields must be an object such as { energy: true, forces: true }, got ${describeValue(fields)}`, { field: 'fields' });
    }
    this.#reconcile();
    for (const field of RESULT_FIELDS) {
      const value = fields[field];
      if (value === undefined) continue;
      const valid = this.#valid[field];
      if (systems === undefined) valid.fill(value ? 1 : 0);
      else for (let s = 0; s < valid.length; s++) if (systems[s]) valid[s] = value ? 1 : 0;
    }
    this.#anyValid = RESULT_FIELDS.some((field) => this.#valid[field].includes(1));
  }

  /**
   * A writing access to positions, cell or atomicNumbers. While results are valid, the values they belong to
   * are kept at the first such access; the next use of the results (#reconcile) compares against them.
   */
  #geometryAccess<K extends GeometryField>(field: K): NativeFieldArrays[K] {
    const view = this.#access(field, true);
    if (this.#anyValid && this.#geometry[field] === undefined) this.#geometry[field] = view.slice();
    return view;
  }

  /**
   * Makes stale the results of the systems whose geometry changed since #geometryAccess kept it. It reads the
   * views handed out, which are current until native code runs again: it runs before the results are used,
   * and before every write-back (commitHostViews), which precedes any native code in an engine.
   */
  #reconcile(): void {
    const kept = Object.entries(this.#geometry) as Array<[GeometryField, Float64Array | Int32Array]>;
    if (kept.length === 0) return;
    this.#geometry = {};
    const ptr = this.#layout('ptr');
    const changed = new Uint8Array(this.numSystems);
    for (const [field, before] of kept) {
      const now = this.#views[field] as Float64Array | Int32Array;
      const width = FIELD_WIDTH[field];
      for (let s = 0; s < this.numSystems; s++) {
        const [lo, hi] = field === 'cell' ? [9 * s, 9 * s + 9] : [width * ptr[s], width * ptr[s + 1]];
        for (let k = lo; k < hi && changed[s] === 0; k++) if (now[k] !== before[k]) changed[s] = 1;
      }
    }
    if (changed.includes(1)) this.markResults({ energy: false, forces: false, stress: false }, changed);
  }
  /** B×3 periodicity flags. */
  get pbc(): Uint8Array { return this.#access('pbc', true); }
  /** B status codes (engines use them for convergence and FusedStage sub-stages). */
  get status(): Int32Array { return this.#access('status', true); }
  /** B stable system ids. */
  get systemId(): Int32Array { return this.#access('systemId', false); }
  /** B atom counts (a copy). */
  get numAtomsPerSystem(): Int32Array { return this.#layout('numAtoms').slice(); }
  /** B+1 CSR offsets: system s owns atoms ptr[s] .. ptr[s+1]−1 (a copy). */
  get ptr(): Int32Array { return this.#layout('ptr').slice(); }

  /** Read-only access to a field: syncs a host array without scheduling a write-back. */
  read<K extends NativeFieldName>(field: K): NativeFieldArrays[K] {
    if (!(field in FIELD_WIDTH)) {
      throw new HookmdTypeError('UNKNOWN_FIELD', `Batch.read: unknown field ${showValue(field)}`, { field, value: field });
    }
    if (field === 'ptr' || field === 'numAtoms' || field === 'systemIndex') return this.#layout(field).slice() as NativeFieldArrays[K];
    return this.#access(field, false);
  }

  /** Free-form per-system data (the `info` of each System); index by system. */
  get info(): ReadonlyArray<Record<string, unknown>> {
    return this.#infos();
  }

  #infos(): Record<string, unknown>[] {
    return (this.#info ??= Array.from({ length: this.#numSystems }, () => ({})));
  }

  /** Registers an extra per-atom or per-system field, carried through select/append/toSystems. */
  registerField(name: string, spec: ExtraFieldSpec): Float64Array {
    if (name in FIELD_WIDTH || this.#extra.has(name)) {
      throw new HookmdError('DUPLICATE_FIELD', `Batch.registerField: field ${showValue(name)} already exists`, { field: name });
    }
    checkKeys('Batch.registerField', spec, ['per', 'components', 'fill']);
    const components = spec.components ?? 1;
    if (!Number.isInteger(components) || components < 1) {
      throw new HookmdRangeError('INVALID_COMPONENTS', `Batch.registerField: components must be an integer ≥ 1, got ${showText(components)}`, {
        field: 'components',
        value: components,
      });
    }
    if (spec.per !== 'atom' && spec.per !== 'system') {
      throw new HookmdTypeError('INVALID_FIELD_SPEC', `Batch.registerField: per must be 'atom' or 'system'`, { field: 'per', value: spec.per });
    }
    const rows = spec.per === 'atom' ? this.numAtoms : this.numSystems;
    const field: ExtraField = { per: spec.per, components, fill: spec.fill ?? 0, data: new Float64Array(rows * components).fill(spec.fill ?? 0) };
    this.#extra.set(name, field);
    return field.data;
  }

  /** An extra field registered with `registerField`. */
  field(name: string): Float64Array {
    const field = this.#extra.get(name);
    if (field === undefined) {
      throw new HookmdError('UNKNOWN_FIELD', `Batch.field: no field ${showValue(name)} is registered`, { field: name });
    }
    return field.data;
  }

  /** The layout of an extra field registered with `registerField` (UNKNOWN_FIELD if none). */
  extraFieldSpec(name: string): { per: 'atom' | 'system'; components: number } {
    const field = this.#extra.get(name);
    if (field === undefined) {
      throw new HookmdError('UNKNOWN_FIELD', `Batch.extraFieldSpec: no field ${showValue(name)} is registered`, { field: name });
    }
    return { per: field.per, components: field.components };
  }

  /** Names of the registered extra fields. */
  get extraFields(): string[] {
    return [...this.#extra.keys()];
  }

  /**
   * Takes the batch apart into plain Systems (results included, `info.systemId` set): every system, or
   * those at `indices`, in that order.
   */
  toSystems(indices?: ArrayLike<number>): ResolvedSystem[] {
    const order = indices === undefined ? undefined : this.#checkIndices(indices, 'Batch.toSystems');
    const packed = this.#pack(order);
    return assembleSystems(packed, packed.info, chemicalSymbol, this.#extraRows());
  }

  /**
   * @internal Gives the systems the ids `ids` (those a checkpoint saved), in order; systems added later take
   * ids after the largest. Ids are integers in [0, 2³¹) and unique.
   */
  restoreSystemIds(ids: ArrayLike<number>): void {
    const owner = 'Batch.restoreSystemIds';
    if (ids.length !== this.numSystems) {
      throw new HookmdError('LENGTH_MISMATCH', `${owner}: ${ids.length} ids for ${this.numSystems} systems`, { field: 'systemId', value: ids.length });
    }
    const seen = new Set<number>();
    for (let s = 0; s < ids.length; s++) {
      const id = ids[s];
      if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff || seen.has(id)) {
        throw new HookmdError('INVALID_SYSTEM_ID', `${owner}: ids must be unique integers in [0, 2^31), got ${showText(id)} at ${s}`, { field: `systemId[${s}]`, value: id });
      }
      seen.add(id);
    }
    this.#access('systemId', true).set(ids);
    for (const id of seen) this.#nextSystemId = Math.max(this.#nextSystemId, id + 1);
  }

  /** A new batch holding the systems at `indices` (in that order), with their fields and systemIds. */
  select(indices: ArrayLike<number>): Batch {
    const order = this.#checkIndices(indices, 'Batch.select');
    const out = new Batch(this.units);
    out.#nextSystemId = this.#nextSystemId;
    out.#copyFrom(this, order);
    return out;
  }

  #checkIndices(indices: ArrayLike<number>, operation: string): number[] {
    if (indices === null || typeof indices !== 'object' || typeof indices.length !== 'number') {
      throw new HookmdTypeError('INVALID_INDEX', `${operation}: indices must be an array of system indices, such as [0, 2], got ${describeValue(indices)}`, { field: 'indices' });
    }
    const b = this.numSystems;
    const seen = new Set<number>();
    for (let k = 0; k < indices.length; k++) {
      const s = indices[k];
      if (!Number.isInteger(s) || s < 0 || s >= b) {
        throw new HookmdRangeError('INVALID_INDEX', `${operation}: indices[${k}] = ${s} is not a system index in [0, ${b})`, {
          field: 'indices',
          index: k,
          value: s,
        });
      }
      if (seen.has(s)) {
        throw new HookmdError('DUPLICATE_INDEX', `${operation}: system ${s} is selected twice; systemIds must stay unique`, {
          field: 'indices',
          value: s,
        });
      }
      seen.add(s);
    }
    return Array.from(indices);
  }

  /** Appends systems in place (new systemIds follow the largest one issued); returns this batch. */
  append(systems: Iterable<System>): this {
    const validated = this.#validate(systems, 'Batch.append');
    this.#refillInPlace(Array.from({ length: this.numSystems }, (_, s) => s), validated);
    return this;
  }

  /**
   * @internal Keeps the systems at `keep` (in that order) and appends `added`, in place: the native storage
   * is resized, so engines bound to this batch keep their handle and remap their per-system state.
   * Validates `added` first, so a bad system leaves the batch unchanged.
   */
  refill(keep: readonly number[], added: Iterable<System>): void {
    const validated = this.#validate(added, 'Batch.refill');
    this.#refillInPlace([...keep], validated);
  }

  /**
   * The native storage compacts the kept systems on whichever side holds them (the device, during a run),
   * so only the appended systems' rows are written, and nothing kept crosses between host and device.
   */
  #refillInPlace(keep: number[], added: ReturnType<typeof normalizeSystem>[]): void {
    this.#checkIndices(keep, 'Batch.refill');
    this.commitHostViews();
    const counts = this.#layout('numAtoms');
    const keptAtoms = keep.reduce((sum, s) => sum + counts[s], 0);
    const kept = { valid: RESULT_FIELDS.map((field) => Uint8Array.from(keep, (s) => this.#valid[field][s])), info: keep.map((s) => this.#infos()[s]), extra: this.#extraOf(keep) };
    const generation = this.#native.generation;
    try {
      this.#native.refill(Int32Array.from(keep), Int32Array.from(added, (system) => system.numAtoms));
    } catch (error) {
      // Native code either left the batch as it was (a failed check or host allocation) or, when the device
      // side failed after the host was rebuilt, emptied it rather than leave it half-built: follow it.
      if (this.#native.generation !== generation) {
        this.#adopt(0, 0, { valid: RESULT_FIELDS.map(() => new Uint8Array(0)), info: [], extra: new Map() }, []);
      }
      throw error;
    }
    this.#writeAppended(keptAtoms, keep.length, added);
    this.#adopt(keptAtoms + added.reduce((sum, s) => sum + s.numAtoms, 0), keep.length + added.length, kept, added);
  }

  /** Writes the rows of appended systems, which start at atom `firstAtom` and system `firstSystem`. */
  #writeAppended(firstAtom: number, firstSystem: number, added: ReturnType<typeof normalizeSystem>[]): void {
    if (added.length === 0) return;
    const rows = this.#rowsOf(added);
    for (const name of APPENDED_ATOM_FIELDS) this.#native.writeRows(name, firstAtom, rows[name]);
    for (const name of APPENDED_SYSTEM_FIELDS) this.#native.writeRows(name, firstSystem, rows[name]);
  }

  /** The field rows of `added`, packed in order; each system takes the next systemId. */
  #rowsOf(added: ReturnType<typeof normalizeSystem>[]): AppendedRows {
    const atoms = added.reduce((sum, s) => sum + s.numAtoms, 0);
    const rows: AppendedRows = {
      positions: new Float64Array(3 * atoms), velocities: new Float64Array(3 * atoms), forces: new Float64Array(3 * atoms),
      masses: new Float64Array(atoms), atomicNumbers: new Int32Array(atoms),
      energy: new Float64Array(added.length), stress: new Float64Array(9 * added.length), cell: new Float64Array(9 * added.length),
      pbc: new Uint8Array(3 * added.length), systemId: new Int32Array(added.length), numAtoms: new Int32Array(added.length),
    };
    let atom = 0;
    added.forEach((system, k) => {
      rows.positions.set(system.positions, 3 * atom);
      rows.velocities.set(system.velocities, 3 * atom);
      if (system.forces !== undefined) rows.forces.set(system.forces, 3 * atom);
      rows.masses.set(system.masses, atom);
      rows.atomicNumbers.set(system.atomicNumbers, atom);
      rows.energy[k] = system.energy ?? 0;
      if (system.stress !== undefined) rows.stress.set(system.stress, 9 * k);
      rows.cell.set(system.cell, 9 * k);
      rows.pbc.set(system.pbc, 3 * k);
      rows.systemId[k] = this.#nextSystemId++;
      rows.numAtoms[k] = system.numAtoms;
      atom += system.numAtoms;
    });
    return rows;
  }

  /** Takes on a new native layout: sizes, views, and the JS-side state of the kept then the appended systems. */
  #adopt(numAtoms: number, numSystems: number, kept: { valid: Uint8Array[]; info: Record<string, unknown>[]; extra: Map<string, Float64Array> }, added: ReturnType<typeof normalizeSystem>[]): void {
    this.#numAtoms = numAtoms;
    this.#numSystems = numSystems;
    this.#resetViews();
    RESULT_FIELDS.forEach((field, k) => {
      const valid = new Uint8Array(numSystems);
      valid.set(kept.valid[k]);
      added.forEach((system, j) => { valid[kept.info.length + j] = system[field] === undefined ? 0 : 1; });
      this.#valid[field] = valid;
    });
    this.#anyValid = RESULT_FIELDS.some((field) => this.#valid[field].includes(1));
    this.#info = [...kept.info, ...added.map((system) => system.info)];
    this.#growExtraFields(kept.extra, numAtoms, numSystems);
  }

  #validate(systems: Iterable<System>, operation: string): ReturnType<typeof normalizeSystem>[] {
    if (systems === null || typeof systems !== 'object' || typeof (systems as Iterable<System>)[Symbol.iterator] !== 'function') {
      throw new HookmdTypeError('INVALID_SYSTEMS', `${operation}: systems must be an iterable of System objects`, { field: 'systems' });
    }
    return Array.from(systems, (system, index) => normalizeSystem(system, index, this.units, operation));
  }

  /** Resizes the storage for `added` systems after `kept` rows already staged, and writes everything. */
  #fill(added: ReturnType<typeof normalizeSystem>[], kept: PackedSystems[]): void {
    const prior = kept[0];
    const priorAtoms = prior?.numAtoms ?? 0;
    const priorSystems = prior?.numSystems ?? 0;
    const numSystems = priorSystems + added.length;
    const numAtoms = priorAtoms + added.reduce((sum, s) => sum + s.numAtoms, 0);
    const arrays = {
      positions: new Float64Array(3 * numAtoms), velocities: new Float64Array(3 * numAtoms), forces: new Float64Array(3 * numAtoms),
      masses: new Float64Array(numAtoms), atomicNumbers: new Int32Array(numAtoms), systemIndex: new Int32Array(numAtoms),
      energy: new Float64Array(numSystems), stress: new Float64Array(9 * numSystems), cell: new Float64Array(9 * numSystems),
      pbc: new Uint8Array(3 * numSystems), status: new Int32Array(numSystems), systemId: new Int32Array(numSystems),
      numAtoms: new Int32Array(numSystems), ptr: new Int32Array(numSystems + 1),
    } satisfies NativeFieldArrays;
    if (prior !== undefined) {
      for (const name of [...PER_ATOM_FIELDS, ...PER_SYSTEM_FIELDS]) (arrays[name] as Float64Array).set(prior.arrays[name] as Float64Array);
      arrays.numAtoms.set(prior.arrays.numAtoms);
    }
    const rows = this.#rowsOf(added);
    for (const name of APPENDED_ATOM_FIELDS) arrays[name].set(rows[name], FIELD_WIDTH[name] * priorAtoms);
    for (const name of [...APPENDED_SYSTEM_FIELDS, 'numAtoms'] as const) arrays[name].set(rows[name], FIELD_WIDTH[name] * priorSystems);
    for (let s = 0; s < numSystems; s++) {
      arrays.ptr[s + 1] = arrays.ptr[s] + arrays.numAtoms[s];
      arrays.systemIndex.fill(s, arrays.ptr[s], arrays.ptr[s + 1]);
    }
    this.#native.resize(numAtoms, numSystems);
    this.#numAtoms = numAtoms;
    this.#numSystems = numSystems;
    for (const name of Object.keys(arrays) as NativeFieldName[]) this.#native.write(name, arrays[name] as never);
    const valid = RESULT_FIELDS.map((field) => prior?.valid[field] ?? new Uint8Array(0));
    this.#adopt(numAtoms, numSystems, { valid, info: prior?.info ?? [], extra: prior?.extra ?? new Map() }, added);
  }

  /**
   * Sizes the storage for checked flat arrays and writes them; every system gets the next systemId. resize()
   * zeroes every field, so forces, energies, stress, status and the arrays left out need no write; the derived
   * and default fields are filled where they are stored, without an N-sized array in between.
   */
  #fillChecked(arrays: CheckedArrays, units: UnitSystem): void {
    const { numAtoms, numSystems, ptr } = arrays;
    this.#native.resize(numAtoms, numSystems);
    this.#numAtoms = numAtoms;
    this.#numSystems = numSystems;
    const given = {
      positions: arrays.positions, velocities: arrays.velocities, masses: arrays.masses, atomicNumbers: arrays.atomicNumbers,
      cell: arrays.cell, pbc: arrays.pbc, numAtoms: arrays.numAtomsPerSystem, ptr,
    } satisfies Partial<NativeFieldArrays>;
    for (const name of Object.keys(given) as (keyof typeof given)[]) {
      if (given[name] !== undefined) this.#native.write(name, given[name] as never);
    }
    this.#fillField('systemId', (systemId) => {
      for (let s = 0; s < numSystems; s++) systemId[s] = this.#nextSystemId++;
    });
    this.#fillField('systemIndex', (systemIndex) => {
      for (let s = 0; s < numSystems; s++) {
        for (let i = ptr[s]; i < ptr[s + 1]; i++) systemIndex[i] = s;
      }
    });
    if (arrays.masses === undefined) this.#fillField('masses', (masses) => defaultMasses(masses, arrays.atomicNumbers, units));
    this.#adopt(numAtoms, numSystems, { valid: RESULT_FIELDS.map(() => new Uint8Array(0)), info: [], extra: new Map() }, []);
    this.#info = undefined;
  }

  /** Writes `field` through `fill`: in place where views alias native memory, else through a copy. */
  #fillField<K extends 'systemId' | 'systemIndex' | 'masses'>(field: K, fill: (values: NativeFieldArrays[K]) => void): void {
    if (this.#copies) {
      const values = this.#native.view(field);
      fill(values);
      this.#native.write(field, values as never);
    } else {
      fill(this.#native.hostView(field, true));
    }
  }

  #growExtraFields(prior: Map<string, Float64Array> | undefined, numAtoms: number, numSystems: number): void {
    for (const [name, field] of this.#extra) {
      const rows = field.per === 'atom' ? numAtoms : numSystems;
      const data = new Float64Array(rows * field.components).fill(field.fill);
      const old = prior?.get(name);
      if (old !== undefined) data.set(old.subarray(0, Math.min(old.length, data.length)));
      field.data = data;
    }
  }

  /** Replaces this batch's contents with `source`'s systems at `indices`. */
  #copyFrom(source: Batch, indices: number[]): void {
    for (const [name, field] of source.#extra) this.#extra.set(name, { ...field, data: new Float64Array(0) });
    this.#fill([], [source.#pack(indices)]);
  }

  /** The arrays, info and extra fields of the systems at `indices` (all by default), compacted. */
  #pack(indices?: number[]): PackedSystems {
    const ptr = this.#layout('ptr');
    const order = indices ?? Array.from({ length: this.numSystems }, (_, s) => s);
    const numAtoms = order.reduce((sum, s) => sum + ptr[s + 1] - ptr[s], 0);
    // Only the rows of these systems are read, from the device if that is where they are current.
    this.commitHostViews();
    const systems = Int32Array.from(order);
    const arrays: Partial<Record<NativeFieldName, Float64Array | Int32Array | Uint8Array>> = {};
    for (const name of [...PER_ATOM_FIELDS, ...PER_SYSTEM_FIELDS] as const) arrays[name] = this.#native.readSystems(name, systems);
    const counts = this.#layout('numAtoms');
    arrays.numAtoms = Int32Array.from(order, (s) => counts[s]);
    return {
      numAtoms,
      numSystems: order.length,
      valid: Object.fromEntries(RESULT_FIELDS.map((field) => [field, Uint8Array.from(order, (s) => this.#valid[field][s])])) as PackedSystems['valid'],
      arrays: arrays as PackedSystems['arrays'],
      info: order.map((s) => ({ ...this.#infos()[s] })),
      extra: this.#extraOf(order),
    };
  }

  /** The extra fields' rows of the systems at `order`, compacted. */
  #extraOf(order: readonly number[]): Map<string, Float64Array> {
    const ptr = this.#layout('ptr');
    const extra = new Map<string, Float64Array>();
    for (const [name, field] of this.#extra) {
      const chunks = order.map((s) => {
        const [lo, hi] = field.per === 'atom' ? [ptr[s], ptr[s + 1]] : [s, s + 1];
        return field.data.subarray(lo * field.components, hi * field.components);
      });
      const data = new Float64Array(chunks.reduce((sum, c) => sum + c.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        data.set(chunk, offset);
        offset += chunk.length;
      }
      extra.set(name, data);
    }
    return extra;
  }

  #extraRows(): Map<string, { per: 'atom' | 'system'; components: number }> {
    return new Map([...this.#extra].map(([name, field]) => [name, { per: field.per, components: field.components }]));
  }

  // Only #fill reallocates native storage, so it is the one place that drops cached views.
  #resetViews(): void {
    this.#geometry = {};
    this.#views = {};
    this.#layoutCopies = {};
    this.#synced.clear();
    this.#touched.clear();
  }

  // Native loops index atoms through the layout fields, so JS only ever sees copies of them: a stray
  // write cannot make native code read out of bounds.
  #layout(field: 'ptr' | 'numAtoms' | 'systemIndex'): Int32Array {
    return (this.#layoutCopies[field] ??= this.#access(field, false).slice());
  }

  #access<K extends NativeFieldName>(field: K, forWrite: boolean): NativeFieldArrays[K] {
    if (this.#copies) return this.#copyAccess(field, forWrite);
    const view = (this.#views[field] ??= this.#native.view(field));
    // One memory needs no bookkeeping; a host array is synced when stale, and a write marks the device stale.
    if (!this.#unified) this.#native.acquire(field, forWrite);
    return view;
  }

  #copyAccess<K extends NativeFieldName>(field: K, forWrite: boolean): NativeFieldArrays[K] {
    if (!this.#synced.has(field)) {
      this.#views[field] = this.#native.hostView(field, false);
      this.#synced.add(field);
    }
    if (forWrite) this.#touched.add(field);
    return this.#views[field] as NativeFieldArrays[K];
  }

  /** @internal Writes back copied views touched through the field getters (after a hook dispatch). */
  commitHostViews(): void {
    this.#reconcile();
    if (!this.#copies) return;
    for (const field of this.#touched) this.#native.write(field, this.#views[field] as never);
    this.#touched.clear();
  }

  /** @internal Drops copied views after native code may have changed the data behind them. */
  invalidateHostViews(): void {
    if (!this.#copies) return;
    this.commitHostViews();
    this.#synced.clear();
  }
}

/**
 * @internal The one boundary between the host views of `batch` and native code (docs/ARCHITECTURE.md,
 * "The native boundary"): the views touched through the field getters are written back before `work` runs,
 * and the copied views are dropped after it, when it returns, throws or its promise settles, since native
 * code may have changed the data behind them. The stepper (lib/dynamics/native-stepper.ts) and the engine's
 * model computes cross it; only the hook side writes back by hand, at once after a dispatch, so that the
 * results a JS model then computes are not marked stale behind it.
 */
export function acrossNative<T>(batch: Batch, work: () => T): T {
  batch.commitHostViews();
  let result: T;
  try {
    result = work();
  } catch (error) {
    batch.invalidateHostViews();
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        batch.invalidateHostViews();
        return value;
      },
      (error: unknown) => {
        batch.invalidateHostViews();
        throw error;
      },
    ) as T;
  }
  batch.invalidateHostViews();
  return result;
}

/** @internal The backend storage of `batch`, for models and engines. */
export function nativeBatchOf(batch: Batch): NativeBatch {
  const native = nativeOf.get(batch);
  if (native === undefined) {
    throw new HookmdTypeError('INVALID_BATCH', 'expected a Batch created by Batch.fromSystems', { field: 'batch' });
  }
  return native;
}
