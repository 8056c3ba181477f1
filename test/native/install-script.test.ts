// scripts/install.cjs, npm install's step (docs/install.md), run on a copy of the package: a prebuild that
// loads is used as it is; otherwise node-gyp builds on every core; and where python3, make or a compiler is
// missing, the install fails with one message that names them, never with node-gyp's first complaint.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { findCpuBinary } from '../../lib/native/index.js';
import { ROOT } from '../cli/run-cli.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const platform = `${process.platform}-${process.arch}`;

/** A package with hookmd's install script and node-gyp-build, no binary, and a PATH holding `tools` only. */
function fixture(tools: readonly string[]): { root: string; env: NodeJS.ProcessEnv; gypArgs: string } {
  const root = mkdtempSync(join(tmpdir(), 'hookmd-install-'));
  made.push(root);
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'install.cjs'), join(root, 'scripts', 'install.cjs'));
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', 'node-gyp-build'), join(root, 'node_modules', 'node-gyp-build'), 'dir');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  for (const tool of tools) {
    writeFileSync(join(bin, tool), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, tool), 0o755);
  }
  // A stand-in for npm's node-gyp that records how it was asked to build.
  const gypArgs = join(root, 'node-gyp-args.json');
  const gyp = join(root, 'fake-node-gyp.js');
  writeFileSync(gyp, `require('node:fs').writeFileSync(${JSON.stringify(gypArgs)}, JSON.stringify(process.argv.slice(2)));\n`);
  const env: NodeJS.ProcessEnv = { PATH: bin, npm_config_node_gyp: gyp };
  return { root, env, gypArgs };
}

function install(root: string, env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'install.cjs')], { cwd: root, env, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('npm install (scripts/install.cjs)', () => {
  it('without a binary or a compiler: fails with one message naming what to install', () => {
    const { root, env } = fixture([]);
    const { status, stderr } = install(root, env);
    expect(status).toBe(1);
    expect(stderr).toContain(`hookmd: cannot install: no prebuilt binary for ${platform}, and compiling one needs python3, make, a C++17 compiler (g++ or clang++)`);
    expect(stderr).toContain('install python3, make and a C++17 compiler');
    expect(stderr).toContain('Prebuilt binaries exist for linux-x64 with glibc 2.28 or newer');
    expect(stderr).not.toMatch(/gyp ERR|Could not find any Python/);
  });

  it('names only what is missing', () => {
    const { root, env } = fixture(['python3', 'g++']);
    expect(install(root, env).stderr).toContain('compiling one needs make, which this machine lacks');
  });

  it('without a binary but with the tools: builds with node-gyp on every core', () => {
    const { root, env, gypArgs } = fixture(['python3', 'make', 'c++']);
    expect(install(root, env).status).toBe(0);
    expect(JSON.parse(readFileSync(gypArgs, 'utf8'))).toEqual(['rebuild', '-j', 'max']);
  });

  it('uses a prebuild that loads, and builds nothing', () => {
    const { root, env, gypArgs } = fixture([]);
    mkdirSync(join(root, 'prebuilds', platform), { recursive: true });
    copyFileSync(findCpuBinary() as string, join(root, 'prebuilds', platform, 'hookmd.node'));
    expect(install(root, env)).toEqual({ status: 0, stderr: '' });
    expect(() => readFileSync(gypArgs)).toThrow();
  });

  it('does not trust a prebuild that does not load here (a newer glibc, a broken file): it says why', () => {
    const { root, env } = fixture([]);
    mkdirSync(join(root, 'prebuilds', platform), { recursive: true });
    writeFileSync(join(root, 'prebuilds', platform, 'hookmd.node'), 'not a shared object');
    const { status, stderr } = install(root, env);
    expect(status).toBe(1);
    expect(stderr).toContain(`hookmd: cannot install: prebuilds/${platform}/hookmd.node does not load here: `);
  });
});
