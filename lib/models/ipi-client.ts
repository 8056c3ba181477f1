// One client connected to an IpiModel's server: its socket, a reader that waits for exactly n bytes with a
// deadline, and the exchange that evaluates one system (STATUS, INIT when asked, POSDATA, STATUS, GETFORCE,
// FORCEREADY). Every way a client can fail becomes an IpiClientError naming the client and the system.
import type { Socket } from 'node:net';

import { HookmdError } from '../errors.js';
import { energyOf, forcesOf, header, HEADER_BYTES, headerWord, initMessage, posdataMessage, virialOf, type ForceData } from './ipi-protocol.js';

/** The longest extra string a client may send with its forces (i-PI clients send JSON of a few kB). */
const MAX_EXTRA_BYTES = 16 * 1024 * 1024;

/** Why a client failed: it disconnected, did not answer within the timeout, or sent data that breaks the protocol. */
export type IpiClientErrorCode = 'IPI_CLIENT_DISCONNECTED' | 'IPI_CLIENT_TIMEOUT' | 'IPI_MALFORMED_DATA';

/**
 * A client that failed while it evaluated a system. `details.client` names the client (its number and
 * address), `details.system` the batch index of the system it had (and `details.systemId` its stable id).
 * The server drops the client and hands the system to another one when one is left.
 *
 * @example
 * try { await model.compute(batch); }
 * catch (e) { if (e instanceof IpiClientError) console.log(e.code, e.details.client, e.details.system); }
 */
export class IpiClientError extends HookmdError {
  constructor(code: IpiClientErrorCode, message: string, details: { client: string; system: number; systemId: number; [key: string]: unknown }) {
    super(code, message, details);
    this.name = 'IpiClientError';
  }
}

/** A failure of the connection itself, before it is tied to a system. */
class ConnectionFailure extends Error {
  readonly code: IpiClientErrorCode;
  constructor(code: IpiClientErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** One system to evaluate: its stable id (for errors), cell (row-major, Å) and positions (N×3, Å). */
export interface IpiTask {
  system: number;
  systemId: number;
  cell: Float64Array;
  positions: Float64Array;
}

/**
 * One connected client of an IpiModel (internal): `evaluate(task, timeoutMs)` runs one exchange; a failure
 * drops the connection and throws IpiClientError.
 *
 * @example
 * const client = new IpiClient(socket, 1, (gone) => clients.delete(gone));
 * const { energy, forces, virial } = await client.evaluate(task, 600_000);
 */
export class IpiClient {
  /** "client 2 (127.0.0.1:51234)". */
  readonly label: string;
  readonly #socket: Socket;
  #chunks: Buffer[] = [];
  #buffered = 0;
  // The bytes the pending read waits for (0 between reads): the socket flows only while it is short of them.
  #wanted = 0;
  #closed: string | undefined;
  #waiter: (() => void) | undefined;
  /** Evaluating a system now. */
  busy = false;

  readonly #onClose: (client: IpiClient) => void;

  constructor(socket: Socket, index: number, onClose: (client: IpiClient) => void) {
    this.#socket = socket;
    this.#onClose = onClose;
    const where = socket.remoteAddress === undefined ? 'unix socket' : `${socket.remoteAddress}:${socket.remotePort}`;
    this.label = `client ${index} (${where})`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      // Only what the protocol asks for is read: past it the socket pauses, so unrequested bytes stay in the
      // kernel and TCP holds the client back (a flood costs the server one chunk, not its size).
      if (this.#buffered >= this.#wanted) socket.pause();
      this.#waiter?.();
    });
    socket.on('error', (error: Error) => this.#markClosed(`its connection failed (${error.message})`));
    socket.on('close', () => this.#markClosed('it disconnected'));
  }

  #markClosed(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    this.#waiter?.();
    this.#onClose(this);
  }

  /** Whether the connection is still open. */
  get connected(): boolean {
    return this.#closed === undefined;
  }

  /** Evaluates `task`; every reply must come within `timeoutMs`. Throws IpiClientError. */
  async evaluate(task: IpiTask, timeoutMs: number): Promise<ForceData> {
    try {
      return await this.#exchange(task, timeoutMs);
    } catch (error) {
      if (!(error instanceof ConnectionFailure)) throw error;
      this.drop();
      throw new IpiClientError(error.code, `IpiModel: ${this.label} failed on system ${task.system} (id ${task.systemId}): ${error.message}`, {
        client: this.label,
        system: task.system,
        systemId: task.systemId,
      });
    }
  }

  async #exchange(task: IpiTask, timeoutMs: number): Promise<ForceData> {
    const atoms = task.positions.length / 3;
    let status = await this.#status(timeoutMs);
    if (status === 'NEEDINIT') {
      this.#write(initMessage(0));
      status = await this.#status(timeoutMs);
    }
    if (status !== 'READY') throw new ConnectionFailure('IPI_MALFORMED_DATA', `it answered STATUS with ${status} instead of READY`);
    this.#write(posdataMessage(task.cell, task.positions));
    status = await this.#status(timeoutMs);
    if (status !== 'HAVEDATA') throw new ConnectionFailure('IPI_MALFORMED_DATA', `it answered STATUS after POSDATA with ${status} instead of HAVEDATA`);
    this.#write(header('GETFORCE'));
    const reply = await this.#word(timeoutMs);
    if (reply !== 'FORCEREADY') throw new ConnectionFailure('IPI_MALFORMED_DATA', `it answered GETFORCE with ${reply} instead of FORCEREADY`);
    const energy = energyOf(await this.#read(8, timeoutMs));
    const count = (await this.#read(4, timeoutMs)).readInt32LE(0);
    if (count !== atoms) throw new ConnectionFailure('IPI_MALFORMED_DATA', `it sent forces for ${count} atoms, but the system has ${atoms} (the i-PI protocol carries no species: every client must hold systems of the batch's composition)`);
    const forces = forcesOf(await this.#read(24 * atoms, timeoutMs));
    const virial = virialOf(await this.#read(72, timeoutMs));
    const extraBytes = (await this.#read(4, timeoutMs)).readInt32LE(0);
    if (extraBytes < 0 || extraBytes > MAX_EXTRA_BYTES) throw new ConnectionFailure('IPI_MALFORMED_DATA', `it announced an extra string of ${extraBytes} bytes`);
    const extra = await this.#read(extraBytes, timeoutMs);
    if (!Number.isFinite(energy) || !forces.every(Number.isFinite) || !virial.every(Number.isFinite)) {
      throw new ConnectionFailure('IPI_MALFORMED_DATA', 'it sent an energy, force or virial that is NaN or infinite');
    }
    return { energy, forces, virial, extra };
  }

  async #status(timeoutMs: number): Promise<string> {
    this.#write(header('STATUS'));
    const word = await this.#word(timeoutMs);
    if (word !== 'READY' && word !== 'NEEDINIT' && word !== 'HAVEDATA') throw new ConnectionFailure('IPI_MALFORMED_DATA', `it answered STATUS with '${word}'`);
    return word;
  }

  async #word(timeoutMs: number): Promise<string> {
    const word = headerWord(await this.#read(HEADER_BYTES, timeoutMs));
    if (word === undefined) throw new ConnectionFailure('IPI_MALFORMED_DATA', 'it sent a header that is not ASCII text');
    return word;
  }

  #write(message: Buffer): void {
    if (this.#closed !== undefined) throw new ConnectionFailure('IPI_CLIENT_DISCONNECTED', this.#closed);
    this.#socket.write(message);
  }

  /** Exactly `bytes` bytes, once they have arrived; fails when the connection closes or the deadline passes. */
  #read(bytes: number, timeoutMs: number): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
          this.#waiter = undefined;
          reject(new ConnectionFailure('IPI_CLIENT_TIMEOUT', `it did not answer within ${timeoutMs / 1000} s`));
        }, timeoutMs)
        : undefined;
      const check = (): void => {
        if (this.#buffered >= bytes) {
          clearTimeout(timer);
          this.#waiter = undefined;
          this.#wanted = 0;
          resolve(this.#take(bytes));
        } else if (this.#closed !== undefined) {
          clearTimeout(timer);
          this.#waiter = undefined;
          reject(new ConnectionFailure('IPI_CLIENT_DISCONNECTED', this.#closed));
        }
      };
      this.#waiter = check;
      this.#wanted = bytes;
      check();
      if (this.#waiter === check) this.#socket.resume();
    });
  }

  #take(bytes: number): Buffer {
    const all = this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
    const out = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
    return out;
  }

  /**
   * Sends EXIT and closes the connection (a client being turned away, or the server closing); a client that
   * has not closed its end within a second is cut off, so closing the server never waits on it.
   */
  exit(): void {
    if (this.#closed !== undefined) return;
    this.#socket.end(header('EXIT'));
    setTimeout(() => this.#socket.destroy(), 1000).unref();
  }

  /** Closes the connection at once (a client that failed); it counts as gone from now on. */
  drop(): void {
    this.#socket.destroy();
    this.#markClosed('it was dropped');
  }
}
