// `hookmd view` and `--view` as spawned processes: serve until Ctrl-C, export one file, attach a live view.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LJ_MODEL, writeClusters } from '../cli/fixtures.js';
import { collect, ensureBuilt, runCli, spawnCli, workDir } from '../cli/run-cli.js';
import { mdFiles, type MdFiles } from './fixtures.js';

let md: MdFiles;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  md = await mdFiles(60, 20, 10);
  dir = workDir('hookmd-view-cli-');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(md.dir, { recursive: true, force: true });
});

describe('hookmd view', () => {
  it('serves the files on 127.0.0.1, prints the address, and stops on Ctrl-C with exit code 0', async () => {
    const child = spawnCli(['view', md.traj, md.log]);
    const done = collect(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
        if (match !== null) resolve(match[1]);
      });
      child.on('close', (code) => reject(new Error(`hookmd view exited (${code}) before printing its address`)));
    });
    const data = (await (await fetch(new URL('data.json', url))).json()) as { systems: Array<{ frames: unknown[] }> };
    expect(data.systems[0].frames).toHaveLength(md.frames);
    expect((await fetch(new URL('files/1/md.csv', url))).status).toBe(200);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(0);
  });

  it('--open hands the address to the default browser (xdg-open)', async () => {
    const bin = join(dir, 'fake-bin');
    const opened = join(dir, 'opened.txt');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const child = spawnCli(['view', md.traj, '--open'], { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    const done = collect(child);
    for (let i = 0; i < 200 && !existsSync(opened); i++) await sleep(50);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(0);
    expect(readFileSync(opened, 'utf8')).toBe(result.stdout.trim());
    expect(result.stdout.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('--export writes one self-contained HTML file', async () => {
    const out = join(dir, 'report.html');
    const result = await runCli(['view', md.traj, md.log, '--export', out]);
    expect(result.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('window.HOOKMD_DATA');
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
  });

  it('refuses a file that does not exist (exit code 2)', async () => {
    const result = await runCli(['view', join(dir, 'nothing.xyz')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nothing.xyz does not exist');
  });

  it.each([
    ['md', '--steps', '200', '--out', 'final.xyz'],
    ['relax', '--out', 'relaxed.xyz'],
  ])('%s --view serves a live view during the run and ends with it', async (command, ...flags) => {
    const input = await writeClusters(dir, 2);
    const result = await runCli([command, input, '--units', 'lj', '--model', LJ_MODEL, '--quiet', ...flags, '--view'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^hookmd: live view at http:\/\/127\.0\.0\.1:\d+\/$/m);
  });

  it.each(['md', 'relax', 'run', 'fit'])('%s --help lists --view', async (command) => {
    expect((await runCli([command, '--help'])).stdout).toContain('--view [port]');
  });
});
