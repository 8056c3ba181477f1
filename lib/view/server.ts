// ViewServer: the local HTTP server behind `hookmd view` and ViewHook (Node's http, no framework). It
// answers GET and HEAD for a fixed set of addresses: the page, its assets, data.json, the event stream
// and the files it was given; anything else is 404. Nothing it serves writes or runs anything.
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { basename } from 'node:path';

import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import { checkKeys } from '../option-keys.js';
import { servedPage, viewAssets } from './page.js';
import type { ViewData } from './view-model.js';
import { showText } from '../describe-value.js';

/** Options of `ViewServer.start`. */
export interface ViewServerOptions {
  /** Interface to bind (default 127.0.0.1: this machine only). */
  host?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** Files whose download links the page shows (`files/<index>/<name>`), in the order of `data.files`. */
  files?: readonly string[];
}

/** Slow readers are skipped rather than buffered without bound: a run never waits for a browser. */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(head ? undefined : body);
}

/**
 * Serves the view page for `data` (a snapshot, taken again at each request of data.json) and streams
 * `publish`ed updates to connected pages as Server-Sent Events.
 *
 * @example
 * const server = await ViewServer.start(() => data, { port: 0 });
 * console.log(server.url);
 * await server.close();
 */
export class ViewServer {
  readonly #server: Server;
  readonly #data: () => ViewData;
  readonly #files: readonly string[];
  readonly #clients = new Set<ServerResponse>();
  readonly #host: string;
  #port = 0;
  #page: string | null = null;

  private constructor(data: () => ViewData, host: string, files: readonly string[]) {
    this.#data = data;
    this.#host = host;
    this.#files = files;
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  /** Starts listening; resolves once the port is bound (VIEW_LISTEN_FAILED when it cannot be). */
  static async start(data: () => ViewData, options: ViewServerOptions = {}): Promise<ViewServer> {
    const { host = '127.0.0.1', port = 0, files = [] } = checkKeys('ViewServer.start', options, ['host', 'port', 'files']) as ViewServerOptions;
    if (typeof host !== 'string' || host === '') throw new HookmdTypeError('INVALID_OPTIONS', 'view: host must be a non-empty string', { field: 'host', value: host });
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HookmdRangeError('INVALID_OPTIONS', `view: port must be an integer from 0 to 65535, got ${showText(port)}`, { field: 'port', value: port });
    const server = new ViewServer(data, host, files);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', (error) => reject(new HookmdError('VIEW_LISTEN_FAILED', `view: cannot listen on ${host}:${port}: ${error.message}`, { host, port }, { cause: error })));
      server.#server.listen(port, host, () => resolve());
    });
    const address = server.#server.address();
    server.#port = typeof address === 'object' && address !== null ? address.port : port;
    return server;
  }

  /** The bound port. */
  get port(): number {
    return this.#port;
  }

  /** The page's address. */
  get url(): string {
    const host = this.#host.includes(':') ? `[${this.#host}]` : this.#host;
    return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${this.#port}/`;
  }

  /** Pages connected to the event stream. */
  get clients(): number {
    return this.#clients.size;
  }

  /** Sends `message` to every connected page; costs nothing when none is. */
  publish(message: unknown): void {
    if (this.#clients.size === 0) return;
    const frame = `data: ${JSON.stringify(message)}\n\n`;
    for (const res of this.#clients) if (res.writableLength < MAX_PENDING_BYTES) res.write(frame);
  }

  /** Ends the event streams (after what was published) and stops listening. */
  async close(): Promise<void> {
    for (const res of this.#clients) res.end();
    this.#clients.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    // A download still in progress gets a moment to finish, then is cut.
    const force = setTimeout(() => this.#server.closeAllConnections(), 2000);
    force.unref();
    await closed;
    clearTimeout(force);
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    // Bound to loopback, answer only requests addressed to loopback: a web page elsewhere cannot reach the
    // server through a DNS name rebound to 127.0.0.1.
    const hostName = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (LOOPBACK.has(this.#host) && !LOOPBACK.has(hostName)) {
      send(res, 403, 'text/plain', 'forbidden host\n', head);
      return;
    }
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://view.invalid').pathname;
    } catch {
      send(res, 404, 'text/plain', 'not found\n', head);
      return;
    }
    if (path === '/' || path === '/index.html') {
      send(res, 200, 'text/html; charset=utf-8', (this.#page ??= servedPage()), head);
    } else if (path === '/data.json') {
      send(res, 200, 'application/json', JSON.stringify(this.#data()), head);
    } else if (path === '/events' && !head) {
      this.#subscribe(req, res);
    } else if (path.startsWith('/assets/') && Object.hasOwn(viewAssets(), path.slice(8))) {
      const asset = viewAssets()[path.slice(8)];
      send(res, 200, asset.type, readFileSync(asset.path), head);
    } else {
      this.#sendFile(path, res, head);
    }
  }

  // files/<index>/<name>: exactly a given file, by its index and its own name; no other path reaches disk.
  #sendFile(path: string, res: ServerResponse, head: boolean): void {
    const match = /^\/files\/(\d+)\/([^/]+)$/.exec(path);
    const file = match === null ? undefined : this.#files[Number(match[1])];
    let name: string | null = null;
    try {
      name = match === null ? null : decodeURIComponent(match[2]);
    } catch {
      name = null;
    }
    if (file === undefined || name !== basename(file) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      send(res, 404, 'text/plain', 'not found\n', head);
      return;
    }
    // A snapshot of a file a run may still be writing (or replacing): the inode opened now, and exactly the
    // bytes it had then, so the body matches its Content-Length however much is appended meanwhile.
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      send(res, 404, 'text/plain', 'not found\n', head);
      return;
    }
    const size = fstatSync(fd).size;
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': size,
      'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`,
      'X-Content-Type-Options': 'nosniff',
    });
    if (head || size === 0) {
      closeSync(fd);
      res.end();
      return;
    }
    createReadStream('', { fd, start: 0, end: size - 1 }).on('error', () => res.destroy()).pipe(res);
  }

  #subscribe(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    this.#clients.add(res);
    req.on('close', () => this.#clients.delete(res));
  }
}
