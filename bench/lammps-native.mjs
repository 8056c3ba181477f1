#!/usr/bin/env node
// A LAMMPS that users compile themselves, as the CPU anchor: Debian's `lmp` is a generic x86-64 build, so a
// lead over it alone could rest on a weak binary. `--build` compiles a LAMMPS stable release from a source
// tarball the user supplies (LAMMPS's own release, e.g. lammps-stable.tar.gz), with the cmake and g++ found
// here, -O3 -march=native, and the OPT and MANYBODY packages (lj/cut/opt, eam/opt), serial (no MPI, no
// OpenMP). The build is cached under $HOOKMD_BENCH_CACHE or ~/.cache/hookmd/lammps-native, keyed by the
// tarball's hash, the compiler and the CPU model, so it is compiled once. bench/lj-melt.mjs and
// bench/eam.mjs then add a row for it (with -sf opt) and print hookmd's ratio against it.
//
// Usage: node bench/lammps-native.mjs --build --tarball PATH [--jobs N]   (or LAMMPS_TARBALL=PATH)
//        node bench/lammps-native.mjs                                      (what is cached)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';

import { parseArgs } from './lib/harness.mjs';
import { cachedNativeBuild, nativeCacheRoot } from './lib/lammps.mjs';

const FLAGS = '-O3 -march=native';
const PACKAGES = ['OPT', 'MANYBODY'];

function fail(message) {
  process.stderr.write(`[lammps-native] ${message}\n`);
  process.exit(2);
}

function run(command, args, options = {}) {
  process.stderr.write(`[lammps-native] ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.error !== undefined) fail(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} exited with ${result.status}`);
}

function toolVersion(command) {
  const result = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.split('\n')[0].trim() : undefined;
}

async function sha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/** The folder holding the extracted release's top level (it has cmake/CMakeLists.txt). */
function sourceRoot(dir) {
  const top = readdirSync(dir).map((name) => join(dir, name)).find((path) => existsSync(join(path, 'cmake', 'CMakeLists.txt')));
  if (top === undefined) fail(`${dir} holds no LAMMPS source tree (no */cmake/CMakeLists.txt): is the tarball a LAMMPS release?`);
  return top;
}

/** "2 Aug 2023" from src/version.h's LAMMPS_VERSION. */
function releaseOf(source) {
  const text = spawnSync('grep', ['-h', 'LAMMPS_VERSION', join(source, 'src', 'version.h')], { encoding: 'utf8' }).stdout ?? '';
  return /"([^"]+)"/.exec(text)?.[1] ?? 'unknown version';
}

async function build({ tarball, jobs }) {
  if (tarball === undefined) {
    fail('--build needs the LAMMPS source tarball: --tarball PATH or LAMMPS_TARBALL=PATH (a stable release, e.g. lammps-stable.tar.gz from the LAMMPS project; it is not downloaded for you)');
  }
  const path = resolve(String(tarball));
  if (!existsSync(path)) fail(`no such tarball: ${path}`);
  const cmake = toolVersion('cmake');
  const compiler = toolVersion('g++');
  if (cmake === undefined) fail('cmake is not on PATH (apt-get install cmake)');
  if (compiler === undefined) fail('g++ is not on PATH (apt-get install g++)');
  const key = createHash('sha256').update(`${await sha256(path)} ${compiler} ${cpus()[0]?.model ?? ''} ${FLAGS} ${PACKAGES.join(',')}`).digest('hex').slice(0, 16);
  const dir = join(nativeCacheRoot(), key);
  const binary = join(dir, 'build', 'lmp');
  if (existsSync(join(dir, 'build-info.json')) && existsSync(binary)) {
    process.stdout.write(`cached: ${binary} (${key}); nothing to build\n`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  run('tar', ['-xf', path, '-C', join(dir, 'src')]);
  const source = sourceRoot(join(dir, 'src'));
  run('cmake', [
    '-S', join(source, 'cmake'), '-B', join(dir, 'build'),
    '-D', 'CMAKE_BUILD_TYPE=Release', '-D', 'CMAKE_CXX_COMPILER=g++', '-D', `CMAKE_CXX_FLAGS_RELEASE=${FLAGS} -DNDEBUG`,
    '-D', 'BUILD_MPI=off', '-D', 'BUILD_OMP=off', ...PACKAGES.flatMap((p) => ['-D', `PKG_${p}=on`]),
  ]);
  run('cmake', ['--build', join(dir, 'build'), '--parallel', String(jobs)]);
  if (!existsSync(binary)) fail(`the build finished without ${binary}`);
  const info = { version: releaseOf(source), binary, flags: FLAGS, packages: PACKAGES, compiler, cmake, cpu: cpus()[0]?.model, tarball: path, key, builtAt: new Date().toISOString() };
  writeFileSync(join(dir, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  process.stdout.write(`built ${binary}: LAMMPS ${info.version}, ${compiler}, ${FLAGS}, packages ${PACKAGES.join(' ')}\n`);
}

const options = parseArgs({ jobs: availableParallelism(), tarball: process.env.LAMMPS_TARBALL });
if (options.build === true) await build(options);
const cached = cachedNativeBuild();
if (cached === undefined) {
  process.stdout.write(`no native LAMMPS build in ${nativeCacheRoot()}; make one with: node bench/lammps-native.mjs --build --tarball PATH\n`);
} else {
  process.stdout.write(`native LAMMPS ${cached.version} (${cached.flags}, ${cached.compiler}) at ${cached.binary}; ` +
    'node bench/lj-melt.mjs and node bench/eam.mjs include it as a row, with hookmd\'s ratio against it.\n');
}
