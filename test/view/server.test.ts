// ViewServer's safety: only loopback by default, only the given files (no path traversal), nothing but
// GET and HEAD, and requests must be addressed to loopback. Raw requests through node:http, which sends
// paths as written (fetch would normalise `../` away before it left the client).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadViewData, ViewServer } from '../../lib/view/index.js';
import { mdFiles, type MdFiles } from './fixtures.js';

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function get(port: number, path: string, options: { method?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An IPv4 address of this machine other than loopback, if it has one. */
const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

describe('ViewServer safety', () => {
  let md: MdFiles;
  let server: ViewServer;
  let secret: string;

  beforeAll(async () => {
    md = await mdFiles(40, 20, 10);
    secret = join(md.dir, 'secret.txt');
    writeFileSync(secret, 'not given to the server\n');
    const files = [md.traj, md.log];
    const data = await loadViewData(files);
    server = await ViewServer.start(() => data, { files });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens on 127.0.0.1 only by default', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect((await get(server.port, '/')).status).toBe(200);
    if (external === undefined) return;
    // The same port on another interface of this machine refuses the connection.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: external, port: server.port });
      socket.on('connect', () => { socket.destroy(); resolve('connected'); });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('serves the given files by index and name, byte for byte', async () => {
    const answer = await get(server.port, '/files/1/md.csv');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(readFileSync(md.log, 'utf8'));
    expect(answer.headers['content-disposition']).toBe('attachment; filename="md.csv"');
  });

  it.each([
    '/../secret.txt',
    '/files/0/../secret.txt',
    '/files/0/..%2fsecret.txt',
    '/files/0/%2e%2e%2fsecret.txt',
    '/files/1/secret.txt',
    '/files/2/secret.txt',
    '/files/0/md.csv',
    '/files/-1/md.csv',
    `/files/0/${encodeURIComponent('/etc/passwd')}`,
    '/assets/../../package.json',
    '/assets/client.js',
    '/etc/passwd',
    '//etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/files/0/%E0%A4%A',
  ])('404 for %s', async (path) => {
    const answer = await get(server.port, path);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('not given');
  });

  it('a file that grows during a download is served as it was: exactly Content-Length bytes (issue 39, item 22)', async () => {
    const growing = join(md.dir, 'growing.xyz');
    writeFileSync(growing, 'x'.repeat(8 * 1024 * 1024));
    // Only the file is asked for: the page's data is never built.
    const grower = await ViewServer.start(() => ({}) as never, { files: [growing] });
    try {
      // A raw socket that stops reading: the server's stream stalls mid-file while the file grows by 4 MB.
      const socket = connect({ host: '127.0.0.1', port: grower.port });
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      socket.write(`GET /files/0/growing.xyz HTTP/1.1\r\nHost: 127.0.0.1:${grower.port}\r\nConnection: close\r\n\r\n`);
      socket.pause();
      await new Promise((resolve) => setTimeout(resolve, 200));
      appendFileSync(growing, 'y'.repeat(4 * 1024 * 1024));
      const chunks: Buffer[] = [];
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await closed;
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(raw.subarray(0, split).toString())?.[1]);
      expect(length).toBe(8 * 1024 * 1024);
      expect(raw.length - split - 4).toBe(length);
    } finally {
      await grower.close();
    }
  });

  it('answers only GET and HEAD, and only requests addressed to loopback', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) expect((await get(server.port, '/data.json', { method })).status).toBe(405);
    expect((await get(server.port, '/data.json', { method: 'HEAD' })).status).toBe(200);
    expect((await get(server.port, '/', { host: 'attacker.example:80' })).status).toBe(403);
    expect((await get(server.port, '/', { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('serves the page, its assets and the data', async () => {
    const page = await get(server.port, '/');
    for (const asset of ['3Dmol-min.js', 'uPlot.iife.min.js', 'uPlot.min.css', 'view.js']) {
      expect(page.body).toContain(`assets/${asset}`);
      expect((await get(server.port, `/assets/${asset}`)).status).toBe(200);
    }
    const data = JSON.parse((await get(server.port, '/data.json')).body);
    expect(data.files).toEqual([{ name: 'traj.extxyz', href: 'files/0/traj.extxyz' }, { name: 'md.csv', href: 'files/1/md.csv' }]);
  });

  it('refuses a bad port with a typed error', async () => {
    await expect(ViewServer.start(() => ({ title: '', live: false, seq: 0, maxFrames: null, systems: [], training: null, plots: [], files: [] }), { port: 70000 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
