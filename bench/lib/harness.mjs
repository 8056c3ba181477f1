// Shared helpers of the benches: arguments, child processes (each hookmd measurement runs in a fresh
// process, so its thread count and peak RSS are its own and a half-rebuilt addon can be retried), external
// programs timed by /usr/bin/time (LAMMPS, ASE's python), and markdown tables.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULT_PREFIX = '@@BENCH_RESULT ';

/** `--name value` and `--flag` pairs after the script name, with defaults; numbers are parsed. */
export function parseArgs(defaults, argv = process.argv.slice(2)) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const key = arg.slice(2).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) {
      out[key] = true;
    } else {
      out[key] = Number.isFinite(Number(next)) && next.trim() !== '' ? Number(next) : next;
      i++;
    }
  }
  return out;
}

/** Turns an options object back into `--key value` arguments. */
export function toArgs(options) {
  const args = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === false) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (value === true) args.push(flag);
    else args.push(flag, String(value));
  }
  return args;
}

/** Peak resident set size of this process so far, MiB. */
export function peakRssMiB() {
  return process.resourceUsage().maxRSS / 1024;
}

/** User + system CPU seconds of this process so far. */
export function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Wall and CPU seconds of `fn()` (awaited). */
export async function timed(fn) {
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const value = await fn();
  return { value, wallSeconds: (performance.now() - t0) / 1000, cpuSeconds: cpuSeconds() - cpu0 };
}

/**
 * The child side of `runChild`: when this process was started with --child, runs `handler(options)` and
 * prints its result (plus peak RSS) as one JSON line. Returns true when it did, so the script stops there.
 */
export async function childMain(handler) {
  const argv = process.argv.slice(2);
  if (argv[0] !== '--child') return false;
  const options = JSON.parse(argv[1]);
  const result = await handler(options);
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify({ ...result, peakRssMiB: peakRssMiB() })}\n`);
  return true;
}

// A concurrent `npm run native:gyp` or `npm run build` leaves a missing or half-written addon/dist for a
// few seconds; these errors are worth a retry, anything else is a real failure.
const TRANSIENT = /Native is not a constructor|NATIVE_BINARY_NOT_FOUND|hookmd\.node|Cannot find module|ERR_MODULE_NOT_FOUND|does not provide an export|is not a constructor|undefined symbol/;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `command args`, collecting stdout and stderr (stderr is also echoed when `echo`). */
function collect(command, args, { env, echo = true, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (echo) process.stderr.write(d);
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/**
 * Runs `script --child <json options>` in a fresh node process (with `env`) and returns the object its
 * handler returned. Retries every 30 s, up to `retries` times, while the addon or dist is being rebuilt.
 */
export async function runChild(script, options, { env = {}, retries = 10 } = {}) {
  const path = script instanceof URL || String(script).startsWith('file:') ? fileURLToPath(script) : String(script);
  for (let attempt = 0; ; attempt++) {
    const { status, signal, stdout, stderr } = await collect(process.execPath, [path, '--child', JSON.stringify(options)], { env });
    const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
    if (status === 0 && line !== undefined) return JSON.parse(line.slice(RESULT_PREFIX.length));
    const output = `${stderr}\n${stdout}`;
    if (attempt < retries && TRANSIENT.test(output)) {
      process.stderr.write(`[bench] hookmd did not load (addon or dist being rebuilt?); retrying in 30 s (${attempt + 1}/${retries})\n`);
      await sleep(30_000);
      continue;
    }
    throw new Error(`${path} child failed (status ${status}, signal ${signal}):\n${output.slice(-4000)}`);
  }
}

/**
 * Runs an external program under /usr/bin/time: its stdout/stderr, wall, user and system seconds and peak
 * RSS (MiB). Throws when it exits non-zero.
 */
export async function runExternal(command, args, { env, input, echo = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-bench-'));
  const timeFile = join(dir, 'time.txt');
  try {
    const t0 = performance.now();
    const result = await collect('/usr/bin/time', ['-o', timeFile, '-f', '%e %U %S %M', command, ...args], { env, input, echo });
    const wall = (performance.now() - t0) / 1000;
    if (result.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stderr.slice(-4000)}\n${result.stdout.slice(-4000)}`);
    }
    const fields = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(/\s+/).map(Number);
    return { ...result, wallSeconds: wall, userSeconds: fields[1], systemSeconds: fields[2], peakRssMiB: fields[3] / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `text` to a fresh temporary file and returns its path and a cleanup function. */
export function tempFile(name, text) {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-bench-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A markdown table; `align` holds 'l' or 'r' per column (default: right for numbers). */
export function markdownTable(headers, rows, align) {
  const a = align ?? headers.map((_, i) => (rows.every((r) => typeof r[i] === 'number') ? 'r' : 'l'));
  const cell = (v) => (typeof v === 'number' ? String(v) : v);
  return [
    `| ${headers.join(' | ')} |`,
    `|${a.map((x) => (x === 'r' ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** Formats a number with thousands separators and `digits` decimals. */
export function fmt(value, digits = 0) {
  return Number(value).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `x` in engineering-friendly exponent form, e.g. 1.51e-3. */
export function sci(value, digits = 2) {
  if (value === 0) return '0';
  const [mantissa, exponent] = Number(value).toExponential(digits).split('e');
  return `${mantissa}e${Number(exponent)}`;
}

/** Index of the best (smallest) value. */
export function argMin(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] < values[best]) best = i;
  return best;
}

/** The median of `values`. */
export function median(values) {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One line describing where and when the bench ran. */
export function machineLine() {
  const [one] = loadavg();
  return `${new Date().toISOString()}, node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average at start ${one.toFixed(2)}`;
}
