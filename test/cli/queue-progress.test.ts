// What queue commands report: a cli-progress bar of the queue's chunks when stderr is a terminal, plain
// lines otherwise, JSON lines on stdout with --json, nothing with --quiet.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { QueueReporter } from '../../lib/cli/commands/queue/progress.js';

function capture(stream: NodeJS.WriteStream): string[] {
  const written: string[] = [];
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return written;
}

afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(process.stderr, 'isTTY', { value: undefined, configurable: true });
});

describe('QueueReporter', () => {
  it('draws a bar of chunks on a terminal', () => {
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    const stderr = capture(process.stderr);
    const reporter = new QueueReporter('queue work relax-ar', {});
    reporter.update(3, 10, 120, 1);
    reporter.stop();
    const text = stderr.join('');
    expect(text).toContain('queue work relax-ar [');
    expect(text).toContain('3/10 chunks | 120 systems here');
    expect(text).toContain('| 1 failed');
  });

  it('prints plain lines in logs, and JSON events on stdout with --json', () => {
    const stderr = capture(process.stderr);
    const stdout = capture(process.stdout);
    new QueueReporter('queue work q', { progressInterval: 0 }).update(10, 10, 400, 0);
    expect(stderr.join('')).toMatch(/^queue work q: 10\/10 chunks, 400 systems here \([\d.]+\/s\), 0 failed\n$/);
    const json = new QueueReporter('queue work q', { json: true });
    json.event('completed', { chunk: 'chunk-000000-000099', systems: 100 });
    json.update(1, 2, 100, 0);
    expect(JSON.parse(stdout.join(''))).toMatchObject({ event: 'completed', chunk: 'chunk-000000-000099', systems: 100 });
    const quiet = new QueueReporter('queue work q', { quiet: true });
    quiet.update(1, 2, 3, 0);
    quiet.note('not shown');
    expect(stderr).toHaveLength(1);
  });
});
