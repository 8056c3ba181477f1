// Issue 19, item 2: terminating a worker mid-run (or exiting the process while workers run) aborted the
// whole process, because a Napi::Error thrown while the worker's environment shut down could not be
// rethrown into JS. Each scenario runs in a child process, so an abort shows up as a signal exit.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT } from '../cli/run-cli.js';

const SCRIPT = join(ROOT, 'test', 'native', 'termination', 'terminate.mjs');
const LIBRARY = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;

function survive(mode: 'runSync' | 'run' | 'quiet' | 'exit', tries: number): void {
  const child = spawnSync(process.execPath, [SCRIPT, LIBRARY, mode, String(tries)], { encoding: 'utf8', timeout: 60_000 });
  expect({ signal: child.signal, status: child.status, stderr: child.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
  if (mode !== 'exit') expect(child.stdout).toContain('survived');
}

describe('worker termination', () => {
  beforeAll(() => ensureBuilt());

  it('survives worker.terminate() during runSync(), 5 times over', () => survive('runSync', 5));

  it('survives worker.terminate() during run(), 5 times over', () => survive('run', 5));

  // A runSync with no JS hook due re-enters JS between bounded native chunks, so the termination lands
  // within one chunk instead of waiting for ten million steps (the child would hit its 60 s timeout).
  it('terminates a runSync that has no JS hook due, 3 times over', () => survive('quiet', 3));

  it.each([1, 2, 3, 4, 5])('survives process.exit() while workers run (try %d)', () => survive('exit', 1));
});
