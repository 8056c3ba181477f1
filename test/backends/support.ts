// Shared by the backend suites: where the two native builds live, seeded random batches, and a JS
// reference of the per-system reductions with the semantics documented in native/cpp/core/Backend.h.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll } from 'vitest';

import type { NativeBatch, NativeBinding, ReduceOp } from '../../lib/native/binding.js';

const ROOT: string = fileURLToPath(new URL('../../', import.meta.url));
const requireNative = createRequire(import.meta.url);

/** Where `npm run native:cmake` puts the CPU+CUDA addon. */
export const CUDA_BINARY: string = join(ROOT, 'build-cuda', 'Release', 'hookmd_cuda.node');

/** Set on GPU CI: a missing or unusable CUDA device fails the parity suite instead of skipping it. */
export const REQUIRE_CUDA: boolean = process.env.HOOKMD_REQUIRE_CUDA === '1';

/** Whether nvcc is where CMake's check_language(CUDA) finds it: $CUDACXX, or nvcc on the PATH. */
export function nvccInstalled(): boolean {
  const candidates = [process.env.CUDACXX, ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'nvcc'))];
  return candidates.some((file) => file !== undefined && file !== '' && existsSync(file));
}

/** The CUDA build, or undefined when it has not been built. */
export function loadCudaBinding(): NativeBinding | undefined {
  return existsSync(CUDA_BINARY) ? (requireNative(CUDA_BINARY) as NativeBinding) : undefined;
}

/** The node-gyp CPU build (prebuild or build/Release), or undefined when there is none. */
export function loadCpuBinding(): NativeBinding | undefined {
  const nodeGypBuild = requireNative('node-gyp-build') as { resolve: (dir: string) => string };
  try {
    return requireNative(nodeGypBuild.resolve(ROOT)) as NativeBinding;
  } catch {
    return undefined;
  }
}

/**
 * Turns the dark kernel families on (HOOKMD_CUDA_UNVERIFIED=1) for the calling test file, and puts the
 * setting back after it: a file that verifies a family tests the path users will get once it is verified.
 */
export function unverifiedKernelsOn(): void {
  const previous = process.env.HOOKMD_CUDA_UNVERIFIED;
  beforeAll(() => {
    process.env.HOOKMD_CUDA_UNVERIFIED = '1';
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.HOOKMD_CUDA_UNVERIFIED;
    else process.env.HOOKMD_CUDA_UNVERIFIED = previous;
  });
}

/** The largest absolute difference between two arrays of the same length. */
export function largestDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let k = 0; k < a.length; ++k) {
    // A run that blew up leaves Infinity or NaN on both sides: the same non-finite value matches, a finite
    // value never matches a non-finite one.
    if (Object.is(a[k], b[k])) continue;
    worst = Math.max(worst, Number.isFinite(a[k]) && Number.isFinite(b[k]) ? Math.abs(a[k] - b[k]) : Infinity);
  }
  return worst;
}

/** Seeded uniform numbers in [0, 1) (mulberry32), so a failing case can be replayed. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The host contents of one batch: per-atom data plus its CSR layout. */
export interface BatchData {
  sizes: readonly number[];
  positions: Float64Array;
  velocities: Float64Array;
  forces: Float64Array;
  masses: Float64Array;
  atomicNumbers: Int32Array;
  systemIndex: Int32Array;
  numAtoms: Int32Array;
  ptr: Int32Array;
}

/** A batch of systems with `sizes[s]` atoms each, filled with signed random values. */
export function randomBatchData(seed: number, sizes: readonly number[]): BatchData {
  const random = randomSource(seed);
  const atoms = sizes.reduce((total, size) => total + size, 0);
  const uniform = (length: number, lo: number, hi: number): Float64Array =>
    Float64Array.from({ length }, () => lo + (hi - lo) * random());
  const ptr = new Int32Array(sizes.length + 1);
  const systemIndex = new Int32Array(atoms);
  sizes.forEach((size, s) => {
    ptr[s + 1] = ptr[s] + size;
    systemIndex.fill(s, ptr[s], ptr[s + 1]);
  });
  return {
    sizes,
    positions: uniform(3 * atoms, -10, 10),
    velocities: uniform(3 * atoms, -0.1, 0.1),
    forces: uniform(3 * atoms, -5, 5),
    masses: uniform(atoms, 0.5, 200),
    atomicNumbers: Int32Array.from({ length: atoms }, () => 1 + Math.floor(random() * 118)),
    systemIndex,
    numAtoms: Int32Array.from(sizes),
    ptr,
  };
}

/** A NativeBatch of `backend` holding `data` (written host-side, then synced to the device). */
export function makeBatch(binding: NativeBinding, backend: string, data: BatchData): NativeBatch {
  const batch = new binding.NativeBatch(backend);
  batch.resize(data.systemIndex.length, data.sizes.length);
  batch.write('positions', data.positions);
  batch.write('velocities', data.velocities);
  batch.write('forces', data.forces);
  batch.write('masses', data.masses);
  batch.write('atomicNumbers', data.atomicNumbers);
  batch.write('systemIndex', data.systemIndex);
  batch.write('numAtoms', data.numAtoms);
  batch.write('ptr', data.ptr);
  return batch;
}

export const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'mean', 'min', 'max', 'norm'];
export const REDUCIBLE_FIELDS = ['positions', 'velocities', 'forces', 'masses'] as const;
export type ReducibleField = (typeof REDUCIBLE_FIELDS)[number];

/** One atom's contribution: squared norm for `norm`, else the scalar or the vector's norm. */
function atomValue(op: ReduceOp, values: Float64Array, atom: number, components: number): number {
  let squares = 0;
  for (let c = 0; c < components; c++) squares += values[atom * components + c] ** 2;
  if (op === 'norm') return squares;
  return components === 1 ? values[atom] : Math.sqrt(squares);
}

/**
 * JS reference of Backend::reduce, plus the scale each result is compared at: the same reduction of the
 * absolute atom values, so sums that cancel are judged against the size of their terms.
 */
export function referenceReduce(
  data: BatchData,
  field: ReducibleField,
  op: ReduceOp,
): { values: Float64Array; scales: Float64Array } {
  const values = new Float64Array(data.sizes.length);
  const scales = new Float64Array(data.sizes.length);
  const components = field === 'masses' ? 1 : 3;
  data.sizes.forEach((size, s) => {
    if (size === 0) return;
    const terms: number[] = [];
    for (let atom = data.ptr[s]; atom < data.ptr[s + 1]; atom++) terms.push(atomValue(op, data[field], atom, components));
    const sum = terms.reduce((a, b) => a + b, 0);
    const sumAbs = terms.reduce((a, b) => a + Math.abs(b), 0);
    const min = terms.reduce((a, b) => Math.min(a, b), Infinity);
    const max = terms.reduce((a, b) => Math.max(a, b), -Infinity);
    const result = { sum, mean: sum / size, min, max, norm: Math.sqrt(sum) }[op];
    values[s] = result;
    scales[s] = op === 'sum' ? sumAbs : op === 'mean' ? sumAbs / size : Math.abs(result);
  });
  return { values, scales };
}

/** JS reference of Backend::kineticEnergy. */
export function referenceKineticEnergy(data: BatchData, forceToAccel: number): Float64Array {
  const out = new Float64Array(data.sizes.length);
  data.sizes.forEach((_, s) => {
    for (let atom = data.ptr[s]; atom < data.ptr[s + 1]; atom++) {
      const v = data.velocities.subarray(3 * atom, 3 * atom + 3);
      out[s] += (0.5 * data.masses[atom] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])) / forceToAccel;
    }
  });
  return out;
}

/** Index of the first entry where |actual − expected| > rtol · max(|expected|, scale), or -1. */
export function firstMismatch(
  actual: Float64Array,
  expected: Float64Array,
  rtol: number,
  scales: Float64Array = expected.map(Math.abs),
): number {
  if (actual.length !== expected.length) return Math.min(actual.length, expected.length);
  return expected.findIndex(
    (value, i) => !(Math.abs(actual[i] - value) <= rtol * Math.max(Math.abs(value), scales[i])) && actual[i] !== value,
  );
}
