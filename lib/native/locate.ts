// Where the native binaries live. The CPU addon follows node-gyp-build's layout (prebuilds/<platform>-<arch>,
// then build/Release); the CUDA addon lives in folders of its own so node-gyp-build never picks it up, or in
// the optional platform package that npm installs beside hookmd (the way sharp ships its binaries).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: lib/native/ (sources) and dist/native/ (compiled) both sit two levels below it. */
export const PACKAGE_ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const platformArch = `${process.platform}-${process.arch}`;

/** Folders searched for the CPU addon, in order. */
export function cpuBinaryCandidates(root: string = PACKAGE_ROOT): string[] {
  return [join(root, 'prebuilds', platformArch), join(root, 'build', 'Release'), join(root, 'build', 'Debug')];
}

/** The optional dependency that carries the prebuilt CUDA addon for this platform (docs/cuda.md). */
export const CUDA_PACKAGE: string = `hookmd-cuda-${platformArch}`;

/**
 * The CUDA addon of the platform package, resolved as a dependency of the package at `root`, so that npm's
 * hoisting (it usually sits beside hookmd in node_modules, not inside it) is followed. When it is not
 * installed: the first place Node's resolution looks, so that the "looked in" lists still name it.
 */
export function cudaPackageBinary(root: string = PACKAGE_ROOT): string {
  try {
    return createRequire(join(root, 'package.json')).resolve(CUDA_PACKAGE);
  } catch {
    return join(root, 'node_modules', CUDA_PACKAGE, 'hookmd_cuda.node');
  }
}

/** Files searched for the CUDA addon, in order: the published prebuild first, then local builds. */
export function cudaBinaryCandidates(root: string = PACKAGE_ROOT): string[] {
  return [
    cudaPackageBinary(root),
    join(root, 'prebuilds-cuda', platformArch, 'hookmd_cuda.node'),
    join(root, 'build-cuda', 'Release', 'hookmd_cuda.node'),
  ];
}

/**
 * The CPU addon's path: HOOKMD_BINARY when set (the sanitizer build of `npm run test:asan`), else as
 * node-gyp-build resolves it (prebuild tags checked), or undefined.
 */
export function findCpuBinary(root: string = PACKAGE_ROOT): string | undefined {
  if (process.env.HOOKMD_BINARY) return resolve(process.env.HOOKMD_BINARY);
  const require = createRequire(import.meta.url);
  const nodeGypBuild = require('node-gyp-build') as { resolve?: (dir: string) => string; path?: (dir: string) => string };
  const resolveBinary = nodeGypBuild.resolve ?? nodeGypBuild.path;
  try {
    return resolveBinary?.(root);
  } catch {
    return undefined;
  }
}

/** The first CUDA addon that exists, or undefined. */
export function findCudaBinary(root: string = PACKAGE_ROOT): string | undefined {
  return cudaBinaryCandidates(root).find((file) => existsSync(file));
}
