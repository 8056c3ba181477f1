// The LAMMPS builds a bench compares against, and the machinery around them: Debian's `lmp` as it is, the
// same with its OPT package (`-sf opt`: lj/cut/opt, eam/opt), and, when `node bench/lammps-native.mjs --build`
// has compiled one here, a LAMMPS built from source with -O3 -march=native and the OPT package. Also a busy
// process to run beside hookmd for the contention rows.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { runExternal, tempFile } from './harness.mjs';
import { parseLammpsLog } from './systems.mjs';

/** Where lammps-native.mjs keeps its builds: $HOOKMD_BENCH_CACHE, else ~/.cache/hookmd/lammps-native. */
export function nativeCacheRoot() {
  return process.env.HOOKMD_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hookmd', 'lammps-native');
}

/** The newest finished native build in the cache ({ binary, info }), or undefined. */
export function cachedNativeBuild() {
  const root = nativeCacheRoot();
  if (!existsSync(root)) return undefined;
  const builds = readdirSync(root)
    .map((name) => join(root, name, 'build-info.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .filter((info) => existsSync(info.binary))
    .sort((a, b) => b.builtAt.localeCompare(a.builtAt));
  return builds[0];
}

/**
 * The LAMMPS variants present here: Debian's `lmp` plain and with `-sf opt`, and the cached native build
 * with `-sf opt`. Each is { key, label, command, args }.
 */
export function lammpsVariants() {
  const variants = [];
  if (spawnSync('lmp', ['-h'], { stdio: 'ignore' }).status === 0) {
    variants.push({ key: 'plain', label: 'LAMMPS (Debian lmp)', command: 'lmp', args: [] });
    variants.push({ key: 'opt', label: 'LAMMPS (Debian lmp) -sf opt', command: 'lmp', args: ['-sf', 'opt'] });
  }
  const native = cachedNativeBuild();
  if (native !== undefined) {
    variants.push({ key: 'native', label: `LAMMPS ${native.version} -O3 -march=native -sf opt`, command: native.binary, args: ['-sf', 'opt'] });
  }
  return variants;
}

/** Runs `input` (LAMMPS input text) on one variant, 1 process and 1 OpenMP thread: its log, CPU seconds and peak RSS. */
export async function runLammpsVariant(variant, input) {
  const file = tempFile('in.bench', input);
  try {
    const out = await runExternal(variant.command, [...variant.args, '-in', file.path, '-log', 'none'], { env: { OMP_NUM_THREADS: '1' } });
    return { ...parseLammpsLog(out.stdout), cpuSeconds: out.userSeconds + out.systemSeconds, peakRssMiB: out.peakRssMiB };
  } finally {
    file.cleanup();
  }
}

/** Runs `fn()` while one other process spins on a CPU (the "busy machine" of the contention rows). */
export async function withBusyProcess(fn) {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    return await fn();
  } finally {
    busy.kill('SIGKILL');
  }
}
