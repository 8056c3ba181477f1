// Runs the real `hookmd` command (bin/hookmd.js → dist/) as a child process. dist/ is rebuilt first when
// any lib/ source is newer than it; a lock directory keeps parallel test files from building at once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleepAsync } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The command's entry point. */
export const BIN: string = join(ROOT, 'bin', 'hookmd.js');
const BUILT = join(ROOT, 'dist', 'cli', 'main.js');
const LOCK = join(ROOT, 'node_modules', '.cache', 'hookmd-cli-build.lock');

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  return existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(join(ROOT, 'lib'));
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Makes sure dist/ is built from the current lib/ (`npm run build`), once across parallel test files. */
export function ensureBuilt(): void {
  if (fresh()) return;
  mkdirSync(dirname(LOCK), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock that outlives the deadline was left by a killed run.
      if (Date.now() > deadline) rmSync(LOCK, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    if (fresh()) return;
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
    // tsc emits even when some other file has a type error; the typecheck step reports those.
    if (!fresh()) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** What a finished command left. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Spawns `node bin/hookmd.js ...args` (stdin closed, stdout and stderr piped). */
export function spawnCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a spawned command's output until it exits. */
export function collect(child: ChildProcess, timeoutMs = 30_000): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookmd did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Runs `hookmd ...args` to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return collect(spawnCli(args, options), options.timeoutMs);
}

/**
 * A fresh working directory for a test, where `import 'hookmd'` resolves to this checkout (as it does in
 * a project that installed hookmd), for plugin modules.
 */
export function workDir(prefix = 'hookmd-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'hookmd'), 'dir');
  return dir;
}

/**
 * Waits until `file` holds more than `lines` lines, for a running command's log; fails early if the
 * command exits first, and after `timeoutMs`.
 */
export async function waitForLines(file: string, lines: number, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file) || readFileSync(file, 'utf8').split('\n').length <= lines) {
    if (child.exitCode !== null) throw new Error(`hookmd exited (code ${child.exitCode}) before ${file} had ${lines} lines`);
    if (Date.now() > deadline) throw new Error(`${file} did not reach ${lines} lines in ${timeoutMs} ms`);
    await sleepAsync(50);
  }
}
