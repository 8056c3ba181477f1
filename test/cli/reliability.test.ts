// Issue 19, items 9, 10 and 11 as spawned processes: a failing run leaves an existing --out untouched,
// a second Ctrl-C leaves no temporary file behind, and absurd thread counts, YAML alias bombs and config
// keys named after Object.prototype members are usage errors (exit 2) with a message, not crashes.
// Issue 39, item 18: config, model-config, EAM and ONNX paths that are /dev/zero or a FIFO exit 2 at once.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LJ_MODEL, writeClusters } from './fixtures.js';
import { collect, ensureBuilt, ROOT, runCli, workDir } from './run-cli.js';

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = workDir();
  await writeClusters(dir, 3);
  // Two good frames, then a malformed one: the run fails after the sinks have been opened and written.
  const good = readFileSync(join(dir, 'clusters.xyz'), 'utf8');
  writeFileSync(join(dir, 'fails-late.xyz'), `${good}2\nProperties=species:S:1:pos:R:3\nAr 0 0 0\nAr 1.1 zero 0\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const temporaries = (): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
const OLD = 'the previous, complete output\n';

describe('a failing run does not replace an existing output (issue 19, item 9)', () => {
  it('relax --out keeps the old file when the input turns out malformed', async () => {
    writeFileSync(join(dir, 'kept.xyz'), OLD);
    const result = await runCli(['relax', 'fails-late.xyz', '--units', 'lj', '--model', LJ_MODEL, '--refill-every', '1', '--max-atoms', '20', '--out', 'kept.xyz', '--quiet'], { cwd: dir });
    expect(result.stderr).toMatch(/fails-late\.xyz:\d+: /);
    expect(result.code).toBe(2);
    expect(readFileSync(join(dir, 'kept.xyz'), 'utf8')).toBe(OLD);
    expect(temporaries()).toEqual([]);
  });

  it('run: an extxyz sink keeps the old file when the run fails, and is replaced when it succeeds', async () => {
    const config = (input: string): string => `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: ${input}
stages: [{ type: fire, fmax: 0.01 }]
stream: { maxAtoms: 20, refillEvery: 1 }
sinks: [{ path: sunk.xyz }]
`;
    writeFileSync(join(dir, 'sunk.xyz'), OLD);
    writeFileSync(join(dir, 'fails.yaml'), config('fails-late.xyz'));
    const failed = await runCli(['run', 'fails.yaml', '--quiet'], { cwd: dir });
    expect(failed.code).toBe(2);
    expect(readFileSync(join(dir, 'sunk.xyz'), 'utf8')).toBe(OLD);
    writeFileSync(join(dir, 'works.yaml'), config('clusters.xyz'));
    const worked = await runCli(['run', 'works.yaml', '--quiet'], { cwd: dir });
    expect(worked.code).toBe(0);
    expect(readFileSync(join(dir, 'sunk.xyz'), 'utf8')).toMatch(/^\d+\n/);
    expect(temporaries()).toEqual([]);
  });
});

describe('a second Ctrl-C leaves no temporary file (issue 19, item 10)', () => {
  it('the atomic write under way is removed when the process exits on the second signal', async () => {
    writeFileSync(join(dir, 'final.xyz'), OLD);
    // The command's own pieces: the interrupt handler, and an atomic write that is still producing when the
    // two signals arrive (as `md --out` is while it writes the final frames).
    const dist = (path: string): string => pathToFileURL(join(ROOT, 'dist', path)).href;
    const script = `
      import { Interrupt } from ${JSON.stringify(dist('cli/interrupt.js'))};
      import { writeFileAtomic } from ${JSON.stringify(dist('io/atomic-write.js'))};
      const interrupt = new Interrupt();
      interrupt.signal.addEventListener('abort', () => process.stdout.write('stopping\\n'));
      // A running command keeps the event loop busy; a never-settling promise alone would not.
      setInterval(() => undefined, 1000);
      void writeFileAtomic('final.xyz', async (write) => {
        await write('2\\nhalf a frame');
        process.stdout.write('writing\\n');
        await new Promise(() => undefined);
      }, 'md');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = collect(child);
    const printed = (text: string): Promise<void> => new Promise((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => { if (chunk.toString().includes(text)) resolve(); });
    });
    const writing = printed('writing');
    const stopping = printed('stopping');
    await writing;
    expect(temporaries()).toHaveLength(1);
    child.kill('SIGINT');
    // The second signal only after the first was handled, as a user's second Ctrl-C comes.
    await stopping;
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('SIGINT again: exiting now');
    expect(temporaries()).toEqual([]);
    expect(readFileSync(join(dir, 'final.xyz'), 'utf8')).toBe(OLD);
  });
});

describe('exit code 2 with a message, not 1 with a crash (issue 19, item 11)', () => {
  it('--threads 1000000 is a usage error', async () => {
    const result = await runCli(['relax', 'clusters.xyz', '--units', 'lj', '--model', LJ_MODEL, '--threads', '1000000', '--quiet'], { cwd: dir });
    expect(result.stderr).toContain("option '--threads <n>' argument '1000000' is invalid. must be an integer from 0 to 1024.");
    expect(result.code).toBe(2);
  });

  it('threads: 1000000 in a config is a usage error pointing at the line', async () => {
    writeFileSync(join(dir, 'threads.yaml'), `units: lj
threads: 1000000
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
stages: [{ type: fire, fmax: 0.01 }]
`);
    const result = await runCli(['run', 'threads.yaml', '--quiet'], { cwd: dir });
    expect(result.stderr).toContain('hookmd: threads.yaml:2: threads: must be an integer ≥ 0 and ≤ 1024, got 1000000');
    expect(result.code).toBe(2);
  });

  it('a YAML alias bomb is INVALID_CONFIG without a stack trace', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let k = 1; k < 9; k++) {
      const prev = String.fromCharCode(96 + k);
      levels.push(`${String.fromCharCode(97 + k)}: &${String.fromCharCode(97 + k)} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    writeFileSync(join(dir, 'bomb.yaml'), `${levels.join('\n')}\n`);
    const result = await runCli(['run', 'bomb.yaml', '--quiet'], { cwd: dir });
    expect(result.stderr).toMatch(/^hookmd: bomb\.yaml: .*alias/im);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(2);
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('a config key named %s does not pass validation', async (key) => {
    const file = `proto-${key}.yaml`;
    writeFileSync(join(dir, file), `units: lj
model: { type: lj, epsilon: 1, sigma: 1, cutoff: 2.5 }
input: clusters.xyz
stages: [{ type: fire, fmax: 0.01 }]
stream: { maxAtoms: 100, ${key}: 1 }
${key}: 2
`);
    const result = await runCli(['run', file, '--quiet'], { cwd: dir });
    expect(result.stderr).toContain(`hookmd: ${file}:5: stream.${key}: is a reserved name and cannot be a key`);
    expect(result.stderr).toContain(`hookmd: ${file}:6: ${key}: is a reserved name and cannot be a key`);
    expect(result.code).toBe(2);
  });
});

describe('files that never end are refused before they are opened (issue 39, item 18)', () => {
  const fifo = (): string => {
    const path = join(dir, `pipe-${Math.random().toString(36).slice(2)}`);
    execFileSync('mkfifo', [path]);
    return path;
  };
  // Each would read forever (/dev/zero) or wait in open() for a writer (a FIFO) in a synchronous read.
  const cases = (): Array<[string, string[], RegExp]> => [
    ['a run config that is /dev/zero', ['run', '/dev/zero'], /\/dev\/zero: cannot read it: it is a device, not a regular file/],
    ['a run config that is a FIFO', ['run', fifo()], /cannot read it: it is a named pipe \(FIFO\), not a regular file/],
    ['a model config that is /dev/zero', ['relax', 'clusters.xyz', '--units', 'lj', '--model-config', '/dev/zero', '--out', 'x.xyz'], /it is a device, not a regular file/],
    ['an EAM file that is a FIFO', ['relax', 'clusters.xyz', '--model', `eam:${fifo()}`, '--out', 'x.xyz'], /EAM: cannot read .*it is a named pipe/],
    ['an ONNX model that is /dev/zero', ['relax', 'clusters.xyz', '--model', 'onnx:/dev/zero,cutoff=3', '--out', 'x.xyz'], /cannot read \/dev\/zero: it is a device, not a regular file/],
    ['a fit config that is a FIFO', ['fit', fifo(), '--out', 'fitted.json'], /is not a file/],
  ];

  it.runIf(existsSync('/dev/zero'))('each exits 2 at once, naming the file and why', async () => {
    for (const [name, args, message] of cases()) {
      const result = await runCli([...args, '--quiet'], { cwd: dir, timeoutMs: 20_000 });
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr, name).toMatch(message);
    }
  });
});

describe('a low open-file limit (issue 39, item 23)', () => {
  it.runIf(existsSync('/proc/self/limits'))('ulimit -n 96 names the limit and the way on, not a package that cannot be found', () => {
    const run = spawnSync('bash', ['-c', `ulimit -n 96; exec "${process.execPath}" "${join(ROOT, 'bin', 'hookmd.js')}" info`], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('hookmd: the open-file limit (ulimit -n) is 96; hookmd needs about 256 to load its modules: raise it (ulimit -n 4096) and run it again\n');
  });
});
