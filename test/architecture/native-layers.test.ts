// The native folders include each other in one direction only (issue 40, item 5; docs/ARCHITECTURE.md,
// "Native layers"): each folder of native/cpp and each subfolder of native/cuda (as `cuda/<folder>`) has a
// layer, and no `#include "folder/..."` names a folder of a higher layer. Folders of one layer may include
// each other. This table is the one place the order is written.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

/** Lowest first: a folder may include its own layer and the ones before it. */
export const NATIVE_LAYERS: readonly (readonly string[])[] = [
  ['core'], // storage: fields, coherence, deferral, the ledger; errors, threads, units
  ['math'], // the host/device math headers
  ['neighbor'], // neighbor lists
  ['platform'], // the registry of device operations: kernels per backend, the dark/verified table
  ['kernels'], // the kernel interfaces and the tables they read
  ['cpu'], // the CPU reference kernels and the cpu backend
  ['mirror'], // the emulated device
  ['models'], // potentials
  ['dynamics'], // integrators, hooks, the stepper
  ['training'], // losses and training sets
  // The CUDA backend, in folders named as native/cpp's, above all of them.
  ['cuda/core'], // CudaBackend, its checks, buffers, uploads and launches, its reductions and row gathers
  ['cuda/neighbor'], // the device bin grid and neighbor lists
  ['cuda/dynamics'], // the integrators, the native hooks and the small-system path
  ['cuda/kernels'], // the force kernels, whose resident chunks take the integrators' steps
  ['cuda/training'], // the pair-loss kernel
  ['cuda/platform'], // the registration of every cuda kernel into the platform registry
  ['binding'], // the N-API glue
];

const NATIVE = resolve(__dirname, '../../native');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(h|cpp|cu|cuh|inc)$/.test(name) ? [path] : [];
  });
}

/** The folder a native file belongs to: <folder> for native/cpp/<folder>/..., cuda/<folder> for native/cuda/<folder>/.... */
function folderOf(path: string): string {
  const parts = relative(NATIVE, path).split(/[\\/]/);
  return parts[0] === 'cpp' ? (parts[1] ?? '') : `${parts[0]}/${parts[1] ?? ''}`;
}

export interface UpwardInclude {
  file: string;
  line: number;
  include: string;
}

/** Every include in `files` (path → text) that names a folder of a higher layer than its own file's. */
export function upwardIncludes(files: Map<string, string>, layers: readonly (readonly string[])[]): UpwardInclude[] {
  const layerOf = new Map<string, number>();
  layers.forEach((folders, layer) => folders.forEach((folder) => layerOf.set(folder, layer)));
  const found: UpwardInclude[] = [];
  for (const [file, text] of files) {
    const own = layerOf.get(folderOf(file));
    if (own === undefined) throw new Error(`${relative(NATIVE, file)}: its folder has no layer in NATIVE_LAYERS`);
    text.split('\n').forEach((source, index) => {
      const match = /^\s*#\s*include\s+"((?:cuda\/)?[A-Za-z0-9_]+)\//.exec(source);
      const target = match === null ? undefined : layerOf.get(match[1]!);
      if (target !== undefined && target > own) found.push({ file: relative(NATIVE, file), line: index + 1, include: source.trim() });
    });
  }
  return found;
}

describe('native layers', () => {
  it('no native include runs upward', () => {
    const files = new Map(sourceFiles(NATIVE).map((path) => [path, readFileSync(path, 'utf8')] as const));
    expect(files.size).toBeGreaterThan(100);
    expect(upwardIncludes(files, NATIVE_LAYERS)).toEqual([]);
  });

  it('finds an upward include, and a folder with no layer', () => {
    const core = join(NATIVE, 'cpp/core/Example.cpp');
    const upward = new Map([[core, '#include "core/Error.h"\n#include "dynamics/Stepper.h"\n']]);
    expect(upwardIncludes(upward, NATIVE_LAYERS)).toEqual([
      { file: 'cpp/core/Example.cpp', line: 2, include: '#include "dynamics/Stepper.h"' },
    ]);
    const cuda = join(NATIVE, 'cuda/core/Example.cpp');
    const upwardInCuda = new Map([[cuda, '#include "dynamics/Stepper.h"\n#include "cuda/dynamics/CudaSmallStep.h"\n']]);
    expect(upwardIncludes(upwardInCuda, NATIVE_LAYERS)).toEqual([
      { file: 'cuda/core/Example.cpp', line: 2, include: '#include "cuda/dynamics/CudaSmallStep.h"' },
    ]);
    const unknown = new Map([[join(NATIVE, 'cpp/elsewhere/Example.cpp'), '']]);
    expect(() => upwardIncludes(unknown, NATIVE_LAYERS)).toThrow(/no layer/);
    const flatCuda = new Map([[join(NATIVE, 'cuda/Example.cpp'), '']]);
    expect(() => upwardIncludes(flatCuda, NATIVE_LAYERS)).toThrow(/no layer/);
  });
});
