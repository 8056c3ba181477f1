// The typed surface of the native Batch, its backends and the thread budget (binding.ts adds the addon's
// entry points). A leaf, so that the model bindings (models-binding.ts) can name the batch they compute on.

/** Element type of each native Batch field, as a typed array. */
export interface NativeFieldArrays {
  positions: Float64Array;
  velocities: Float64Array;
  forces: Float64Array;
  masses: Float64Array;
  atomicNumbers: Int32Array;
  systemIndex: Int32Array;
  energy: Float64Array;
  stress: Float64Array;
  cell: Float64Array;
  pbc: Uint8Array;
  status: Int32Array;
  systemId: Int32Array;
  numAtoms: Int32Array;
  ptr: Int32Array;
}

/** Name of a native Batch field. */
export type NativeFieldName = keyof NativeFieldArrays;

/** A per-system reduction over each system's atoms. */
export type ReduceOp = 'sum' | 'mean' | 'min' | 'max' | 'norm';

/**
 * Bytes and copies moved between host arrays and device arrays since the last reset
 * (`batch.transferStats()`). Always zero on the cpu backend, where both are one memory.
 */
export interface TransferStats {
  toHostBytes: number;
  toDeviceBytes: number;
  toHostCopies: number;
  toDeviceCopies: number;
}

/**
 * Device work since the last reset (`batch.deviceStats()`), as the cost table of the native core declares
 * it (docs/cuda.md, "The device ledger"). `mirror` counts what `cuda` would do; on `cuda` the real counts
 * equal these. Always zero on the cpu backend, which has no device.
 */
export interface DeviceStats {
  /** Stream operations: kernel launches, memsets, device-side copies (a library call such as a sort is one). */
  launches: number;
  /** CUDA graphs launched. */
  graphLaunches: number;
  /** CUDA graphs captured: a resident chunk length met for the first time, or its graph's buffers or sizes changed. */
  graphCaptures: number;
  /** Times the host waited for the device: blocking copies in either direction and synchronizes. */
  hostSyncs: number;
  /** Bytes of control data (status blocks, flags, per-system results) copied device → host. */
  controlToHostBytes: number;
  /** Bytes of control data (parameters, index tables, flags) copied host → device. */
  controlToDeviceBytes: number;
  /** Neighbor-list rebuild passes. */
  rebuildPasses: number;
  /** Systems whose neighbor list those passes rebuilt. */
  systemsRebuilt: number;
  /** Resident chunks whose rows overflowed and that ran again on the device with longer rows (docs/cuda.md, "Resident chunks"). */
  rowRegrowths: number;
  /** Device-memory traffic of the launched kernels, by the cost model (bytes; for trends, not a measurement). */
  modeledDeviceBytes: number;
}

/** A backend name, as `backendInfo().backend` and `batch.backend` report it. */
export type BackendName = 'cpu' | 'mirror' | 'cuda';

/** The vector-instruction level of the CPU kernels (`backendInfo().cpuSimd`). */
export type CpuSimd = 'avx512' | 'avx2' | 'baseline';

/**
 * What set the CPU thread-pool size (`backendInfo().threadLimit`): HOOKMD_THREADS, a `setThreads(n)`
 * call, the CPU affinity mask (taskset, cpusets), a cgroup CPU quota (containers, `docker --cpus`), or the
 * cores the machine reports.
 */
export type ThreadLimit = 'HOOKMD_THREADS' | 'setThreads' | 'affinity' | 'cgroup' | 'cores';

/** The thread-pool limit as the addon reports it. */
export interface NativeThreadLimit {
  limit: ThreadLimit;
  /** What the limit said, e.g. "affinity mask of 1 CPUs". */
  detail: string;
  /** CPUs the process may keep busy: the smallest of the cores, the affinity mask and the cgroup quota. */
  cpus: number;
}

/** A default thread budget as the addon decides it (`decideThreadBudget`, the policy's test seam). */
export interface NativeThreadBudget extends NativeThreadLimit {
  threads: number;
}

/** The backend-owned storage of one Batch (native class `NativeBatch`). */
export interface NativeBatch {
  resize(numAtoms: number, numSystems: number): void;
  /** A view of the host array, without any sync (zero-copy where allowed; see `externalViews()`). */
  view<K extends NativeFieldName>(field: K): NativeFieldArrays[K];
  /** Replaces the whole field on the host; the device copy goes stale and syncs when a kernel reads it. */
  write<K extends NativeFieldName>(field: K, source: NativeFieldArrays[K]): void;
  /** Makes the host array of `field` current and, with `write`, marks the device copy stale. */
  acquire(field: NativeFieldName, write: boolean): void;
  /**
   * Keeps the systems at `keep` (in that order) and appends systems of `addedAtoms` atoms, compacting each
   * field on the side where it is current; appended rows are zero until written with writeRows().
   */
  refill(keep: Int32Array, addedAtoms: Int32Array): void;
  /** Writes whole rows of a field starting at row `first`, on every side where the field is current. */
  writeRows<K extends NativeFieldName>(field: K, first: number, source: NativeFieldArrays[K]): void;
  /** The rows of the systems at `systems` (in that order), from the host if current, else from the device. */
  readSystems<K extends Exclude<NativeFieldName, 'ptr'>>(field: K, systems: Int32Array): NativeFieldArrays[K];
  /** acquire(), then view(). */
  hostView<K extends NativeFieldName>(field: K, write: boolean): NativeFieldArrays[K];
  transferStats(): TransferStats;
  resetTransferStats(): void;
  deviceStats(): DeviceStats;
  resetDeviceStats(): void;
  reduce(field: 'positions' | 'velocities' | 'forces' | 'masses', op: ReduceOp): Float64Array;
  kineticEnergy(): Float64Array;
  fmax(): Float64Array;
  setUnits(kB: number, forceToAccel: number): void;
  readonly numAtoms: number;
  readonly numSystems: number;
  readonly generation: number;
  readonly backend: BackendName;
  readonly device: string;
  /** True where host and device are one memory (cpu): host views are never stale. */
  readonly unified: boolean;
}

/** What the addon reports about one compiled-in backend. */
export interface NativeBackendProbe {
  name: string;
  available: boolean;
  reason: string;
  device: string;
}
