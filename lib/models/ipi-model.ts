// IpiModel: forces from external codes that speak the i-PI socket protocol (ASE's SocketClient with any ASE
// calculator, CP2K, Quantum ESPRESSO, FHI-aims, DFTB+, LAMMPS fix ipi). hookmd is the server; clients connect
// to it, and compute() hands the batch's systems to them in parallel, one system per client at a time
// (docs/models.md, "Forces from another code: i-PI").
import { existsSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';

import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';
import type { Batch } from '../data/index.js';
import { checkKeys } from '../option-keys.js';
import { computeRequest } from './compute-options.js';
import { IpiClient, IpiClientError, type IpiTask } from './ipi-client.js';
import type { ForceData } from './ipi-protocol.js';
import type { ComputeOptions, Model, ModelDescription } from './model.js';
import { SerialQueue } from './serial-queue.js';
import { showText, showValue } from '../describe-value.js';

/**
 * Options of `IpiModel.listen(options)`.
 *
 * @example
 * await IpiModel.listen({ address: 'unix:hookmd', clients: 4, timeout: 3600 });
 */
export interface IpiModelOptions {
  /**
   * 'unix:NAME' listens on the Unix socket /tmp/ipi_NAME, where i-PI clients look for NAME (ASE's
   * `SocketClient(unixsocket=NAME)`); 'HOST:PORT' or 'PORT' on TCP, on 127.0.0.1 unless HOST is given
   * (PORT 0: a free port, which `model.address` then names).
   */
  address: string;
  /** How many clients may be connected at once (default 1); more are sent EXIT. */
  clients?: number;
  /**
   * Seconds the server waits for any one reply of a client (a force evaluation included) and, when no
   * client is connected, for the first to connect (default 600; Infinity waits for ever).
   */
  timeout?: number;
  /** Called for each client that failed when the system it had went to another client. */
  onClientError?: (error: IpiClientError) => void;
  /** Name in logs and errors (default 'IpiModel'). */
  name?: string;
}

interface Endpoint {
  /** The address as `model.address` reports it. */
  address: string;
  listen: (server: Server, done: () => void) => void;
  /** The socket file of a unix address. */
  path?: string;
}

function parseAddress(address: unknown): Endpoint {
  if (typeof address !== 'string' || address.length === 0) {
    throw new HookmdTypeError('INVALID_ADDRESS', `IpiModel.listen: address must be 'unix:NAME' or 'HOST:PORT', got ${showValue(address)}`, { field: 'address', value: address });
  }
  if (address.startsWith('unix:')) {
    const name = address.slice(5);
    if (name.length === 0 || name.includes('/') || name.includes('\0')) {
      throw new HookmdTypeError('INVALID_ADDRESS', `IpiModel.listen: '${address}': NAME must be a non-empty file name (the socket is /tmp/ipi_NAME)`, { field: 'address', value: address });
    }
    const path = `/tmp/ipi_${name}`;
    return { address, path, listen: (server, done) => server.listen(path, done) };
  }
  const colon = address.lastIndexOf(':');
  const host = colon < 0 ? '127.0.0.1' : address.slice(0, colon).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const portText = colon < 0 ? address : address.slice(colon + 1);
  const port = Number(portText);
  if (portText.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new HookmdTypeError('INVALID_ADDRESS', `IpiModel.listen: '${address}': the port must be an integer from 0 to 65535`, { field: 'address', value: address });
  }
  return { address: `${host}:${port}`, listen: (server, done) => server.listen(port, host, done) };
}

/** Whether something answers on the unix socket at `path` (a live server, not a file left behind). */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe: Socket = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Forces from codes that speak the i-PI protocol. `await IpiModel.listen({ address, clients, timeout })`
 * opens the server; clients connect to it; `compute(batch)` hands each system (cell and positions, in
 * atomic units) to a free client and converts the energy, forces and virial back to eV, eV/Å and the stress
 * σ = −W/V. `close()` sends EXIT to every client. Only metal units; every client must hold systems of the
 * batch's composition, since the protocol carries no species.
 *
 * @example
 * const model = await IpiModel.listen({ address: 'unix:hookmd', clients: 2 });
 * // python3 -c "... SocketClient(unixsocket='hookmd').run(atoms)" twice
 * await new FIRE({ model, convergence: ConvergenceHook.fromFmax(0.05) }).run(batch, { steps: 200 });
 * await model.close();
 */
export class IpiModel implements Model {
  readonly name: string;
  /** Infinity: the clients decide what interacts. */
  readonly cutoff: number = Infinity;
  /** Where the server listens: 'unix:NAME', or 'HOST:PORT' with the port it got. */
  readonly address: string;
  /** How many clients may be connected at once. */
  readonly maxClients: number;
  /** Seconds to wait for a reply (and for a first client). */
  readonly timeout: number;
  /** Always true: compute returns a promise. */
  readonly asyncCompute: true = true;
  /** Clients that failed while the system they had went to another client, oldest first. */
  readonly clientErrors: IpiClientError[] = [];
  /** Systems sent to clients so far (each a calculation: one DFT run with a DFT client). */
  evaluations = 0;
  readonly #server: Server;
  readonly #clients = new Set<IpiClient>();
  readonly #onClientError: ((error: IpiClientError) => void) | undefined;
  readonly #queue = new SerialQueue();
  #accepted = 0;
  // Per systemId, the geometry of its last evaluation and the result: a system whose atoms, species and cell
  // have not changed since (one the engine no longer moves: converged, or finished) is not sent again.
  #last = new Map<number, { positions: Float64Array; cell: Float64Array; numbers: Int32Array; result: ForceData }>();
  /** Called when a client connects, frees up or leaves, while a compute is handing out systems. */
  #changed: (() => void) | undefined;
  #closed = false;

  private constructor(server: Server, address: string, maxClients: number, timeout: number, name: string, onClientError: ((error: IpiClientError) => void) | undefined) {
    this.#server = server;
    this.address = address;
    this.maxClients = maxClients;
    this.timeout = timeout;
    this.name = name;
    this.#onClientError = onClientError;
    server.on('connection', (socket) => this.#accept(socket));
    // A failed accept (too many open files, say) loses that connection only; the client may try again.
    server.on('error', () => undefined);
  }

  /** Opens the server and resolves once it listens. IPI_ADDRESS_IN_USE when another server holds the address. */
  static async listen(options: IpiModelOptions): Promise<IpiModel> {
    if (options === null || typeof options !== 'object') throw new HookmdTypeError('INVALID_OPTIONS', 'IpiModel.listen: options { address, ... } are required', { field: 'options', value: options });
    checkKeys('IpiModel', options, ['address', 'clients', 'timeout', 'onClientError', 'name']);
    const endpoint = parseAddress(options.address);
    const clients = options.clients ?? 1;
    if (!Number.isSafeInteger(clients) || clients < 1) {
      throw new HookmdRangeError('INVALID_PARAMETER', `IpiModel.listen: clients must be an integer ≥ 1, got ${showText(clients)}`, { field: 'clients', value: clients });
    }
    const timeout = options.timeout ?? 600;
    if (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout <= 0) {
      throw new HookmdRangeError('INVALID_PARAMETER', `IpiModel.listen: timeout must be a number of seconds > 0, got ${showText(timeout)}`, { field: 'timeout', value: timeout });
    }
    if (options.onClientError !== undefined && typeof options.onClientError !== 'function') {
      throw new HookmdTypeError('INVALID_PARAMETER', 'IpiModel.listen: onClientError must be a function', { field: 'onClientError' });
    }
    // A socket file left by a server that died is removed; one that a live server answers on is not.
    if (endpoint.path !== undefined && existsSync(endpoint.path) && !(await socketAnswers(endpoint.path))) unlinkSync(endpoint.path);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const code = error.code === 'EADDRINUSE' ? 'IPI_ADDRESS_IN_USE' : 'IPI_LISTEN_FAILED';
        reject(new HookmdError(code, `IpiModel.listen: cannot listen on ${endpoint.address}: ${error.message}`, { field: 'address', value: endpoint.address }, { cause: error }));
      });
      endpoint.listen(server, resolve);
    });
    const bound = server.address();
    const address = bound !== null && typeof bound === 'object' ? `${endpoint.address.slice(0, endpoint.address.lastIndexOf(':'))}:${bound.port}` : endpoint.address;
    return new IpiModel(server, address, clients, timeout, options.name ?? 'IpiModel', options.onClientError);
  }

  #accept(socket: Socket): void {
    this.#accepted += 1;
    const client = new IpiClient(socket, this.#accepted, (gone) => {
      this.#clients.delete(gone);
      this.#changed?.();
    });
    if (this.#closed || this.#clients.size >= this.maxClients) {
      client.exit();
      return;
    }
    this.#clients.add(client);
    this.#changed?.();
  }

  /** Always undefined: engines call compute() from JS for this model. */
  get native(): undefined {
    return undefined;
  }

  /** Clients connected now. */
  get connectedClients(): number {
    return this.#clients.size;
  }

  /** Resolves once `count` clients (default: `clients`) are connected; IPI_NO_CLIENT after `timeout`. */
  waitForClients(count: number = this.maxClients): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = Number.isFinite(this.timeout) ? setTimeout(() => {
        clearInterval(poll);
        reject(new HookmdError('IPI_NO_CLIENT', `${this.name}: ${this.#clients.size} of ${count} clients connected to ${this.address} within ${this.timeout} s`, { field: 'clients', value: this.#clients.size }));
      }, this.timeout * 1000) : undefined;
      const poll = setInterval(() => {
        if (this.#clients.size < count) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 10);
    });
  }

  /**
   * Evaluates every system on the connected clients and writes `batch.energy`, `batch.forces` and, when
   * asked, `batch.stress` (σ = −W/V from the clients' virials; zero without a cell volume). A client that
   * fails gives an IpiClientError: the system goes to another client when one is connected (the error goes
   * to `clientErrors` and `onClientError`), else compute rejects with it. Computes one at a time. A system
   * whose positions, species and cell are exactly those of its last evaluation (a system the engine no
   * longer moves: converged, or past its sub-stages) takes that result again without a client call.
   */
  compute(batch: Batch, options: ComputeOptions = {}): Promise<void> {
    return this.#queue.run(() => this.#compute(batch, options));
  }

  async #compute(batch: Batch, options: ComputeOptions): Promise<void> {
    const owner = `${this.name}.compute`;
    if (this.#closed) throw new HookmdError('MODEL_CLOSED', `${owner}: the server was closed`, { field: 'model' });
    if (batch.units.name !== 'metal') {
      throw new HookmdTypeError('UNITS_MISMATCH', `${owner}: i-PI clients work in atomic units, which hookmd converts from metal units only; the batch is in ${batch.units.name} units`, { field: 'units', value: batch.units.name });
    }
    const { forces, stress } = computeRequest(this.name, options);
    const tasks = this.#tasks(batch);
    const numbers = batch.read('atomicNumbers');
    const ptr0 = batch.ptr;
    const species = tasks.map((task) => numbers.slice(ptr0[task.system], ptr0[task.system + 1]));
    const reused = tasks.map((task, s) => {
      const last = this.#last.get(task.systemId);
      return last !== undefined && equal(last.positions, task.positions) && equal(last.cell, task.cell) && equal(last.numbers, species[s]) ? last.result : undefined;
    });
    const sent = tasks.filter((_, s) => reused[s] === undefined);
    const fresh = sent.length === 0 ? [] : await this.#evaluate(sent, owner);
    this.evaluations += sent.length;
    let next = 0;
    const results = reused.map((result) => result ?? fresh[next++]);
    this.#last = new Map(tasks.map((task, s) => [task.systemId, { positions: task.positions, cell: task.cell, numbers: species[s], result: results[s] }]));
    const ptr = batch.ptr;
    const energy = batch.energy;
    const forceOut = forces ? batch.forces : undefined;
    const stressOut = stress ? batch.stress : undefined;
    results.forEach((result, s) => {
      energy[s] = result.energy;
      forceOut?.set(result.forces, 3 * ptr[s]);
      if (stressOut !== undefined) stressOut.set(stressOf(result.virial, tasks[s].cell), 9 * s);
    });
    batch.markResults({ energy: true, ...(forces ? { forces: true } : {}), ...(stress ? { stress: true } : {}) });
  }

  #tasks(batch: Batch): IpiTask[] {
    const positions = batch.read('positions');
    const cell = batch.read('cell');
    const ids = batch.read('systemId');
    const ptr = batch.ptr;
    return Array.from({ length: batch.numSystems }, (_, s) => ({
      system: s,
      systemId: ids[s],
      cell: cell.slice(9 * s, 9 * s + 9),
      positions: positions.slice(3 * ptr[s], 3 * ptr[s + 1]),
    }));
  }

  /** Hands the tasks to free clients until each has a result; rejects when a task's client fails and none is left. */
  #evaluate(tasks: readonly IpiTask[], owner: string): Promise<ForceData[]> {
    const results: ForceData[] = new Array<ForceData>(tasks.length);
    const waiting = tasks.map((_, s) => s);
    let done = 0;
    return new Promise<ForceData[]>((resolve, reject) => {
      let noClientTimer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (error?: unknown): void => {
        if (settled) return;
        settled = true;
        this.#changed = undefined;
        clearTimeout(noClientTimer);
        if (error === undefined) resolve(results);
        else reject(error);
      };
      const handOut = (): void => {
        if (settled) return;
        if (this.#closed) return settle(new HookmdError('MODEL_CLOSED', `${owner}: the server was closed during the compute`, { field: 'model' }));
        for (const client of this.#clients) {
          if (waiting.length === 0) break;
          if (client.busy || !client.connected) continue;
          const s = waiting.shift() as number;
          client.busy = true;
          client.evaluate(tasks[s], this.timeout * 1000).then((result) => {
            client.busy = false;
            results[s] = result;
            done += 1;
            if (done === tasks.length) settle();
            else handOut();
          }, (error: unknown) => {
            client.busy = false;
            if (settled) return;
            if (!(error instanceof IpiClientError) || this.#clients.size === 0) return settle(error);
            this.clientErrors.push(error);
            this.#onClientError?.(error);
            waiting.unshift(s);
            handOut();
          });
        }
        // Nobody to hand the rest to: wait for a client to connect, up to the timeout.
        if (waiting.length > 0 && this.#clients.size === 0 && noClientTimer === undefined && Number.isFinite(this.timeout)) {
          noClientTimer = setTimeout(() => {
            if (this.#clients.size === 0) settle(new HookmdError('IPI_NO_CLIENT', `${owner}: no client connected to ${this.address} within ${this.timeout} s`, { field: 'clients', value: 0 }));
          }, this.timeout * 1000);
        } else if (this.#clients.size > 0 && noClientTimer !== undefined) {
          clearTimeout(noClientTimer);
          noClientTimer = undefined;
        }
      };
      this.#changed = handOut;
      handOut();
    });
  }

  describe(): ModelDescription {
    return { name: this.name, cutoff: this.cutoff, kind: 'IpiModel', address: this.address, clients: this.maxClients, timeout: this.timeout };
  }

  /** Sends EXIT to every client and closes the server (a unix socket file goes with it). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#changed?.();
    for (const client of this.#clients) client.exit();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Whether two arrays hold the same values, element for element. */
function equal(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** σ = −W/V for a cell with volume, zeros otherwise (ASE's SocketIOCalculator does the same). */
function stressOf(virial: Float64Array, cell: Float64Array): Float64Array {
  const c = cell;
  const volume = Math.abs(c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) + c[2] * (c[3] * c[7] - c[4] * c[6]));
  return volume > 1e-12 ? virial.map((w) => (0 - w) / volume) : new Float64Array(9);
}
