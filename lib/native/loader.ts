// Loads exactly one native addon per process and picks the backend. Objects from two different .node
// files cannot be mixed, so the choice is made once, at first use, from `configureNative()` or
// HOOKMD_BACKEND ('auto' | 'cpu' | 'mirror' | 'cuda').
import { createRequire } from 'node:module';

import { HookmdError, HookmdRangeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import type { BackendName, CpuSimd, NativeBinding, ThreadLimit } from './binding.js';
import { CUDA_PACKAGE, cpuBinaryCandidates, cudaBinaryCandidates, findCpuBinary, findCudaBinary, PACKAGE_ROOT } from './locate.js';
import { showText, showValue } from '../describe-value.js';

/**
 * Backend request. `auto` takes cuda where the CUDA binary finds a usable GPU, else cpu (with the reason in
 * `backendInfo().fallbackReason`); `mirror` is the emulated device that runs the CPU code on arrays kept
 * apart from their host arrays, for testing every host/device path without a GPU.
 */
export type BackendRequest = 'auto' | 'cpu' | 'mirror' | 'cuda';

/** What `backendInfo()` reports. */
export interface BackendInfo {
  /** The backend in use. */
  backend: BackendName;
  /** What was asked for (option or HOOKMD_BACKEND). */
  requested: BackendRequest;
  /** Device description, e.g. "2 threads" or the GPU name. */
  device: string;
  /** Why `auto` did not pick CUDA (undefined when it did, or when CPU was asked for). */
  fallbackReason: string | undefined;
  /** The .node file loaded ('injected' for a test binding). */
  binary: string;
  /** Whether the loaded binary contains the CUDA backend. */
  cudaBuild: boolean;
  /** CPU worker threads. */
  threads: number;
  /**
   * What set `threads`: 'HOOKMD_THREADS', 'setThreads', or by default the tightest of 'affinity' (the CPU
   * affinity mask: taskset, cpusets), 'cgroup' (a CPU quota: containers, `docker --cpus`, rounded up to
   * whole CPUs) and 'cores' (docs/performance.md, "Threads").
   */
  threadLimit: ThreadLimit;
  /** What that limit said, e.g. "cgroup quota of 1.5 CPUs (/sys/fs/cgroup/cpu.max 150000 100000)". */
  threadLimitDetail: string;
  /** CPUs this process may keep busy: the smallest of the cores, the affinity mask and the cgroup quota. */
  cpus: number;
  /** Whether typed-array views alias native memory (false: copies synced explicitly). */
  externalViews: boolean;
  /**
   * Vector instructions the CPU kernels use: 'avx512' or 'avx2' where the CPU has them (the neighbor-list
   * build then tests eight or four candidates at once), else 'baseline'. HOOKMD_SIMD=off forces 'baseline',
   * HOOKMD_SIMD=avx2 caps it at 'avx2'. Results are the same bits either way (docs/performance.md, "SIMD").
   */
  cpuSimd: CpuSimd;
  napiVersion: number;
  /**
   * The device kernel families by verification (docs/cuda.md, "Dark kernels"): `verified` passed the parity
   * suite on a GPU; `dark` did not yet, and `cuda` uses them (and `mirror` emulates them) only with
   * HOOKMD_CUDA_UNVERIFIED=1, running the last verified path otherwise.
   */
  kernels: { verified: string[]; dark: string[] };
  /**
   * What else runs where, added by the components that chose: e.g. an OnnxModel that runs on onnxruntime's
   * CPU provider while hookmd's backend is cuda, and why (docs/models.md).
   */
  notes: string[];
}

interface LoadedNative {
  binding: NativeBinding;
  backend: BackendName;
  requested: BackendRequest;
  fallbackReason: string | undefined;
  binary: string;
}

const BACKEND_REQUESTS: readonly BackendRequest[] = ['auto', 'cpu', 'mirror', 'cuda'];
let loaded: LoadedNative | undefined;
let configuredRequest: BackendRequest | undefined;
const requireNative = createRequire(import.meta.url);

/** Validates a backend request; the error names the source of the bad value. */
export function parseBackendRequest(value: unknown, source: string): BackendRequest {
  if (typeof value === 'string' && (BACKEND_REQUESTS as readonly string[]).includes(value)) {
    return value as BackendRequest;
  }
  throw new HookmdError(
    'INVALID_BACKEND',
    `${source}: backend must be one of ${BACKEND_REQUESTS.join(', ')}, got ${showValue(value)}`,
    { field: 'backend', value },
  );
}

/**
 * Chooses the backend before the addon is first loaded. Calling it after the first load with a different
 * choice is an error, since two addons cannot share objects.
 */
export function configureNative(options: { backend?: BackendRequest }): void {
  checkKeys('configureNative', options, ['backend'], '', { platform: 'backend', device: 'backend' });
  const request = parseBackendRequest(options.backend ?? 'auto', 'configureNative');
  if (loaded !== undefined && loaded.requested !== request) {
    throw new HookmdError(
      'BACKEND_ALREADY_LOADED',
      `configureNative: the '${loaded.backend}' backend is already loaded; choose the backend before first use`,
      { field: 'backend', value: request },
    );
  }
  configuredRequest = request;
}

function attachErrors(binding: NativeBinding): NativeBinding {
  binding.setErrorFactory((code, message) => new HookmdError(code, message));
  return binding;
}

/** Where hookmd installs without a compiler (docs/install.md); the install script says the same. */
const PREBUILT_PLATFORMS = 'hookmd ships a prebuilt binary for linux-x64 (glibc 2.28 or newer); elsewhere npm install compiles one.';

function missingBinaryError(request: BackendRequest): HookmdError {
  const tried = request === 'cuda' ? cudaBinaryCandidates() : cpuBinaryCandidates();
  const fix =
    request === 'cuda'
      ? `Install the optional package ${CUDA_PACKAGE} (published for linux-x64; npm adds it unless optional dependencies are omitted), or use backend "cpu". In a clone of the hookmd repository, \`npm run native:cmake\` builds it (needs nvcc and cmake).`
      : `${PREBUILT_PLATFORMS} A source build needs python3, make and a C++17 compiler (g++ or clang++): install them, then run \`npm rebuild hookmd\` in your project.`;
  return new HookmdError(
    'NATIVE_BINARY_NOT_FOUND',
    `no native ${request === 'cuda' ? 'CUDA ' : ''}binary for ${process.platform}-${process.arch} ` +
      `(node ${process.versions.node}). Looked in:\n  ${tried.join('\n  ')}\n${fix}`,
    { tried },
  );
}

function loadFile(file: string): NativeBinding {
  return attachErrors(requireNative(file) as NativeBinding);
}

function cudaProbe(binding: NativeBinding): { available: boolean; reason: string } {
  const probe = binding.backends().find((entry) => entry.name === 'cuda');
  return probe ?? { available: false, reason: 'the CUDA binary has no cuda backend compiled in' };
}

/** Loads the CPU addon for the host-memory backends (cpu, or mirror). */
function loadCpu(request: BackendRequest, fallbackReason: string | undefined, backend: 'cpu' | 'mirror' = 'cpu'): LoadedNative {
  const cpuFile = findCpuBinary();
  if (cpuFile !== undefined) return { binding: loadFile(cpuFile), backend, requested: request, fallbackReason, binary: cpuFile };
  // The CUDA build also contains the CPU backends, so it serves when it is the only binary present.
  const cudaFile = findCudaBinary();
  if (cudaFile !== undefined) return { binding: loadFile(cudaFile), backend, requested: request, fallbackReason, binary: cudaFile };
  throw missingBinaryError('cpu');
}

function load(request: BackendRequest): LoadedNative {
  if (request === 'cpu') return loadCpu(request, undefined);
  if (request === 'mirror') return loadCpu(request, undefined, 'mirror');
  const cudaFile = findCudaBinary();
  if (cudaFile === undefined) {
    if (request === 'cuda') throw missingBinaryError('cuda');
    return loadCpu(request, `no CUDA build found (looked in ${cudaBinaryCandidates().join(', ')})`);
  }
  const binding = loadFile(cudaFile);
  const probe = cudaProbe(binding);
  // 'auto' takes the GPU only since the cuda backend passed the CPU/GPU parity suite on one (docs/cuda.md).
  if (probe.available) return { binding, backend: 'cuda', requested: request, fallbackReason: undefined, binary: cudaFile };
  if (request === 'cuda') {
    // The binary is named because several places can supply it (the platform package, local builds).
    throw new HookmdError('BACKEND_UNAVAILABLE', `backend 'cuda' cannot run here: ${probe.reason} (probed ${cudaFile})`, {
      field: 'backend',
      value: 'cuda',
      binary: cudaFile,
      reason: probe.reason,
    });
  }
  // The CPU addon serves 'auto' (the CUDA binary's own CPU backend only when it is the sole build).
  return loadCpu(request, probe.reason);
}

const SIMD_SETTINGS = ['auto', 'avx512', 'avx2', 'off'];

/**
 * HOOKMD_SIMD caps the vector instructions of the CPU kernels (docs/performance.md, "SIMD"); the addon
 * reads it itself, so a misspelt value would otherwise be ignored without a word.
 */
function checkSimdSetting(value: string | undefined): void {
  if (value === undefined || value === '' || SIMD_SETTINGS.includes(value)) return;
  throw new HookmdError('INVALID_SIMD', `HOOKMD_SIMD: must be one of ${SIMD_SETTINGS.join(', ')}, got ${showValue(value)}`, {
    field: 'HOOKMD_SIMD',
    value,
  });
}

/**
 * The largest thread pool HOOKMD_THREADS, `--threads` or a config's `threads` may ask for: far more threads
 * than cores only costs memory and scheduling, and a pool of a million fails inside the addon.
 */
export const MAX_THREADS = 1024;

/** HOOKMD_THREADS sizes the pool when the addon loads; a value it would ignore is refused here instead. */
function checkThreadsSetting(value: string | undefined): void {
  if (value === undefined || value === '') return;
  const n = Number(value);
  if (/^[0-9]+$/.test(value) && n >= 1 && n <= MAX_THREADS) return;
  throw new HookmdRangeError('INVALID_THREADS', `HOOKMD_THREADS: must be an integer from 1 to ${MAX_THREADS}, got ${showValue(value)}`, {
    field: 'HOOKMD_THREADS',
    value,
  });
}

function current(): LoadedNative {
  if (loaded === undefined) {
    checkSimdSetting(process.env.HOOKMD_SIMD);
    checkThreadsSetting(process.env.HOOKMD_THREADS);
    const request = configuredRequest ?? parseBackendRequest(process.env.HOOKMD_BACKEND ?? 'auto', 'HOOKMD_BACKEND');
    loaded = load(request);
  }
  return loaded;
}

/** The loaded addon (loading it on first call). */
export function loadBinding(): NativeBinding {
  return current().binding;
}

/** The backend every new Batch uses. */
export function activeBackend(): BackendName {
  return current().backend;
}

/**
 * Replaces the addon with a test double (or a binary at another path). Resets the backend choice.
 * Intended for tests of code above lib/native.
 */
export function injectBinding(binding: NativeBinding, backend: BackendName = 'cpu'): void {
  loaded = { binding: attachErrors(binding), backend, requested: backend, fallbackReason: undefined, binary: 'injected' };
}

/** Which backend runs, on what device, and why `auto` fell back to CPU when it did. */
export function backendInfo(): BackendInfo {
  const { binding, backend, requested, fallbackReason, binary } = current();
  const probe = binding.backends().find((entry) => entry.name === backend);
  const limit = binding.threadLimit();
  return {
    backend,
    requested,
    device: probe?.device ?? '',
    fallbackReason,
    binary,
    cudaBuild: binding.cudaBuild,
    threads: binding.getThreads(),
    threadLimit: limit.limit,
    threadLimitDetail: limit.detail,
    cpus: limit.cpus,
    externalViews: binding.externalViews(),
    cpuSimd: binding.cpuSimd(),
    napiVersion: binding.napiVersion,
    notes: [...notes],
    kernels: kernelFamilies(binding),
  };
}

function kernelFamilies(binding: NativeBinding): { verified: string[]; dark: string[] } {
  const families = binding.deviceKernels?.() ?? [];
  return { verified: families.filter((f) => f.verified !== '').map((f) => f.name), dark: families.filter((f) => f.verified === '').map((f) => f.name) };
}

const notes = new Set<string>();

/** @internal Adds a line to `backendInfo().notes` (once: the same note twice is kept once). */
export function addBackendNote(note: string): void {
  notes.add(note);
}

/**
 * Sets the CPU thread-pool size; n = 0 or undefined restores the default (HOOKMD_THREADS, else the CPUs this
 * process may use: its affinity mask and cgroup quota, at most every core). Returns the new size.
 */
export function setThreads(n?: number): number {
  if (n !== undefined && (!Number.isInteger(n) || n < 0)) {
    throw new HookmdRangeError('INVALID_THREADS', `setThreads: n must be a non-negative integer, got ${showText(n)}`, {
      field: 'threads',
      value: n,
    });
  }
  return loadBinding().setThreads(n ?? 0);
}

/** The CPU thread-pool size. */
export function getThreads(): number {
  return loadBinding().getThreads();
}

export { PACKAGE_ROOT };
