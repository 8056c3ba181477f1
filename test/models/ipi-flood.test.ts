// Issue 39, item 20: the i-PI server reads only what the protocol asks for. A client that sends hundreds of
// megabytes nobody requested costs the server about one socket chunk (TCP holds the client back), and the
// garbage it sent makes its next exchange malformed, which drops it.
import { spawn, type ChildProcess } from 'node:child_process';

import { afterAll, describe, expect, it } from 'vitest';

import { Batch } from '../../lib/data/index.js';
import { IpiModel } from '../../lib/models/index.js';

const children: ChildProcess[] = [];
const models: IpiModel[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const model of models) await model.close();
});

// Connects to /tmp/ipi_NAME and writes `megabytes` MB of zeros as fast as the socket takes them, printing
// how many it has handed to the kernel every 16 MB.
const FLOODER = `
const net = require('node:net');
const [name, megabytes] = process.argv.slice(1);
const socket = net.connect('/tmp/ipi_' + name, () => {
  const chunk = Buffer.alloc(1 << 20);
  let sent = 0;
  const pump = () => {
    while (sent < Number(megabytes)) {
      sent++;
      if (sent % 16 === 0) process.stdout.write(sent + '\\n');
      if (!socket.write(chunk)) return socket.once('drain', pump);
    }
  };
  pump();
});
socket.on('error', () => process.exit(0));
`;

describe('IpiModel and a client that floods it', () => {
  it('holds about one chunk of what it did not ask for, and drops the client at its next exchange', async () => {
    const name = `hookmd-flood-${process.pid}`;
    const model = await IpiModel.listen({ address: `unix:${name}`, clients: 1, timeout: 3 });
    models.push(model);
    const before = process.memoryUsage().arrayBuffers;
    const flooder = spawn(process.execPath, ['-e', FLOODER, name, '400'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(flooder);
    // Wait until the flooder has written what the kernel's socket buffers take, and then some time more.
    await new Promise<void>((resolve) => {
      flooder.stdout?.on('data', () => resolve());
      setTimeout(resolve, 3000);
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    const batch = Batch.fromSystems([{ symbols: ['Cu'], positions: [[0, 0, 0]], cell: [[3, 0, 0], [0, 3, 0], [0, 0, 3]], pbc: true }]);
    await expect(model.compute(batch)).rejects.toMatchObject({ code: expect.stringMatching(/^IPI_/) });
  }, 30_000);
});
