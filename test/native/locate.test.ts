// Where the loader looks for the CUDA addon: the optional platform package first (resolved the way Node
// resolves a dependency, so npm's hoisting is followed), then prebuilds-cuda/, then build-cuda/Release/.
// Built on temp folders laid out as an install would be; nothing is published.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { CUDA_PACKAGE, cudaBinaryCandidates, cudaPackageBinary, findCudaBinary, PACKAGE_ROOT } from '../../lib/native/locate.js';

const platformArch = `${process.platform}-${process.arch}`;
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function touch(file: string, text = ''): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** A platform package as npm unpacks it: its manifest names the .node file as the entry point. */
function installPackage(nodeModules: string): string {
  const dir = join(nodeModules, CUDA_PACKAGE);
  touch(join(dir, 'package.json'), JSON.stringify({ name: CUDA_PACKAGE, version: '0.1.0', main: './hookmd_cuda.node' }));
  return touch(join(dir, 'hookmd_cuda.node'));
}

describe('CUDA binary location', () => {
  it('prefers the platform package, then prebuilds-cuda/, then build-cuda/Release/', () => {
    const root = tempDir('hookmd-locate-');
    touch(join(root, 'package.json'), '{ "name": "hookmd" }');
    const local = touch(join(root, 'build-cuda', 'Release', 'hookmd_cuda.node'));
    const prebuild = touch(join(root, 'prebuilds-cuda', platformArch, 'hookmd_cuda.node'));
    const packaged = installPackage(join(root, 'node_modules'));

    expect(cudaBinaryCandidates(root)).toEqual([packaged, prebuild, local]);
    expect(findCudaBinary(root)).toBe(packaged);
    rmSync(join(root, 'node_modules'), { recursive: true });
    expect(findCudaBinary(root)).toBe(prebuild);
    rmSync(join(root, 'prebuilds-cuda'), { recursive: true });
    expect(findCudaBinary(root)).toBe(local);
    rmSync(join(root, 'build-cuda'), { recursive: true });
    expect(findCudaBinary(root)).toBeUndefined();
  });

  it('finds the package hoisted beside hookmd, as npm installs it', () => {
    const app = tempDir('hookmd-app-');
    const root = join(app, 'node_modules', 'hookmd');
    touch(join(root, 'package.json'), '{ "name": "hookmd" }');
    touch(join(root, 'build-cuda', 'Release', 'hookmd_cuda.node'));
    const packaged = installPackage(join(app, 'node_modules'));

    expect(cudaPackageBinary(root)).toBe(packaged);
    expect(findCudaBinary(root)).toBe(packaged);
  });

  it('names the package in the folders searched when it is not installed', () => {
    const root = tempDir('hookmd-bare-');
    expect(findCudaBinary(root)).toBeUndefined();
    expect(cudaBinaryCandidates(root)).toEqual([
      join(root, 'node_modules', CUDA_PACKAGE, 'hookmd_cuda.node'),
      join(root, 'prebuilds-cuda', platformArch, 'hookmd_cuda.node'),
      join(root, 'build-cuda', 'Release', 'hookmd_cuda.node'),
    ]);
  });

  it('pins the platform package in the repository to the same version as hookmd', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(PACKAGE_ROOT, file), 'utf8'));
    const root = read('package.json');
    const platform = read('packages/hookmd-cuda-linux-x64/package.json');
    expect(platform).toMatchObject({ name: 'hookmd-cuda-linux-x64', version: root.version, os: ['linux'], cpu: ['x64'] });
    expect(root.optionalDependencies).toEqual({ 'hookmd-cuda-linux-x64': root.version });
  });
});
