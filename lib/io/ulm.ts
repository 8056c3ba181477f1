// ULM, the binary container of ASE's .traj files: a 48-byte header (magic, tag, version, item count, the
// position of the offset table), 8-byte-aligned raw arrays, and per item a JSON document naming them. Read
// as untrusted (every size and offset is checked against the file before anything is allocated); appended
// so that the item count, written last, only ever counts complete items.
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';

import { HookmdError } from '../errors.js';
import { showValue } from '../describe-value.js';

/** ASE grows the offset table by this factor (1, 42, 1764, ... slots). */
const TABLE_GROWTH = 42;
const HEADER_BYTES = 48;
/** Largest JSON document of one item read (bytes). */
export const MAX_ULM_JSON_BYTES: number = 64 * 1024 * 1024;

/** The element types of ULM arrays hookmd reads. */
const ITEM_BYTES: Readonly<Record<string, number>> = { float64: 8, float32: 4, int64: 8, int32: 4, int16: 2, int8: 1, uint8: 1, bool: 1 };

/** A raw array of an item: its shape and values (row-major). */
export class UlmArray {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: 'float64' | 'int64',
    readonly values: ArrayLike<number>,
  ) {}
}

/** A nested item (ASE's child writer, e.g. `calculator`): its keys are stored under `name.`. */
export class UlmChild {
  constructor(readonly data: Readonly<Record<string, unknown>>) {}
}

/** An error of a ULM file at byte `offset`. */
export function ulmError(operation: string, file: string, offset: number, message: string, cause?: unknown): HookmdError {
  return new HookmdError('TRAJ_PARSE', `${operation}: ${file}: byte ${offset}: ${message}`, { file, offset }, cause === undefined ? undefined : { cause });
}

/** A ULM file open for reading: its tag, version, item count, and each item's data with arrays read. */
export interface UlmFile {
  readonly tag: string;
  readonly version: number;
  readonly count: number;
  /** Where the offset table starts. */
  readonly pos0: number;
  /** Item `index`: JSON values as parsed, `name.` ndarray entries read into `name` as number[] (nested by shape). */
  item(index: number): Record<string, unknown>;
  /** The byte where item `index`'s JSON length is. */
  offsetOf(index: number): number;
  close(): void;
}

/** Opens a ULM file for reading; TRAJ_PARSE for anything that is not a well-formed ULM header. */
export function openUlm(path: string, operation: string, maxBytes: number): UlmFile {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new HookmdError('READ_FAILED', `${operation}: cannot read ${path}: ${(error as Error).message}`, { path, cause: error }, { cause: error });
  }
  try {
    return new UlmReader(fd, path, operation, maxBytes);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

class UlmReader implements UlmFile {
  readonly tag: string;
  readonly version: number;
  readonly count: number;
  readonly pos0: number;
  readonly #fd: number;
  readonly #file: string;
  readonly #operation: string;
  readonly #size: number;
  readonly #offsets: number[];

  constructor(fd: number, file: string, operation: string, maxBytes: number) {
    this.#fd = fd;
    this.#file = file;
    this.#operation = operation;
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new HookmdError('READ_FAILED', `${operation}: cannot read ${file}: not a regular file`, { path: file });
    if (stat.size > maxBytes) throw new HookmdError('READ_FAILED', `${operation}: cannot read ${file}: it has ${stat.size} bytes, more than the ${maxBytes} allowed`, { path: file });
    this.#size = stat.size;
    if (this.#size < HEADER_BYTES) throw this.#fail(this.#size, `the file has ${this.#size} bytes, fewer than a ULM header's ${HEADER_BYTES}`);
    const header = this.#read(0, HEADER_BYTES);
    const magic = header.subarray(0, 8).toString('latin1');
    if (magic !== '- of Ulm' && magic !== 'AFFormat') throw this.#fail(0, 'not a ULM file (ASE .traj files start with "- of Ulm")');
    this.tag = header.subarray(8, 24).toString('latin1').trimEnd();
    this.version = this.#int(header, 24, 'the version', 1, 3);
    this.count = this.#int(header, 32, 'the item count', 0, Math.floor((this.#size - HEADER_BYTES) / 16));
    const pos0 = this.#int(header, 40, 'the offset table position', HEADER_BYTES, this.#size - 8 * this.count);
    this.pos0 = pos0;
    const table = this.#read(pos0, 8 * this.count);
    this.#offsets = [];
    for (let i = 0; i < this.count; i++) this.#offsets.push(this.#int(table, 8 * i, `item ${i}'s offset`, HEADER_BYTES, this.#size - 8, pos0 + 8 * i));
  }

  item(index: number): Record<string, unknown> {
    const at = this.#offsets[index] as number;
    const length = this.#int(this.#read(at, 8), 0, `item ${index}'s JSON length`, 2, Math.min(this.#size - at - 8, MAX_ULM_JSON_BYTES), at);
    let data: unknown;
    try {
      data = JSON.parse(this.#read(at + 8, length).toString('utf8'));
    } catch (error) {
      throw this.#fail(at + 8, `item ${index}'s JSON does not parse: ${(error as Error).message}`, error);
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw this.#fail(at + 8, `item ${index}'s JSON is not an object`);
    const little = (data as Record<string, unknown>)._little_endian !== false;
    return this.#arrays(data as Record<string, unknown>, little, index, at + 8);
  }

  offsetOf(index: number): number {
    return this.#offsets[index] as number;
  }

  close(): void {
    closeSync(this.#fd);
  }

  /** Replaces `name.` ndarray references (and nests `name.` children) by their values. */
  #arrays(data: Record<string, unknown>, little: boolean, index: number, at: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (key === '_little_endian') continue;
      if (!key.endsWith('.')) {
        out[key] = value;
        continue;
      }
      const name = key.slice(0, -1);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw this.#fail(at, `item ${index}: '${key}' is not an object`);
      const ref = (value as { ndarray?: unknown }).ndarray;
      out[name] = ref === undefined ? this.#arrays(value as Record<string, unknown>, little, index, at) : this.#ndarray(ref, little, `item ${index}'s ${name}`, at);
    }
    return out;
  }

  #ndarray(ref: unknown, little: boolean, what: string, at: number): unknown {
    if (!Array.isArray(ref) || ref.length !== 3) throw this.#fail(at, `${what}: an ndarray reference is [shape, dtype, offset]`);
    const [shape, dtype, offset] = ref as [unknown, unknown, unknown];
    const bytes = typeof dtype === 'string' ? ITEM_BYTES[dtype] : undefined;
    if (bytes === undefined || !Object.hasOwn(ITEM_BYTES, dtype as string)) throw this.#fail(at, `${what}: dtype ${showValue(dtype)} is not one hookmd reads (${Object.keys(ITEM_BYTES).join(', ')})`);
    if (!Array.isArray(shape) || shape.length > 8 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw this.#fail(at, `${what}: the shape must be a list of sizes ≥ 0`);
    if (!Number.isSafeInteger(offset) || (offset as number) < 0) throw this.#fail(at, `${what}: the array's offset ${showValue(offset)} is not a position in the file`);
    let count = 1;
    for (const d of shape as number[]) count *= d;
    const start = offset as number;
    if (!(count * bytes <= this.#size - start)) {
      throw this.#fail(start, `${what}: an array of shape [${(shape as number[]).join(', ')}] (${count * bytes} bytes) at byte ${start} runs past the end of the file (${this.#size} bytes)`);
    }
    const raw = this.#read(start, count * bytes);
    const flat: number[] = new Array(count);
    for (let k = 0; k < count; k++) flat[k] = element(raw, k * bytes, dtype as string, little);
    return nest(flat, shape as number[]);
  }

  #read(position: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.#fd, buffer, done, length - done, position + done);
      if (n === 0) throw this.#fail(position + done, `the file ends ${length - done} bytes early`);
      done += n;
    }
    return buffer;
  }

  #int(buffer: Buffer, at: number, what: string, min: number, max: number, position: number = at): number {
    const value = buffer.readBigInt64LE(at);
    if (value < BigInt(min) || value > BigInt(max)) throw this.#fail(position, `${what} is ${value}, outside ${min}..${max} for a file of ${this.#size} bytes`);
    return Number(value);
  }

  #fail(offset: number, message: string, cause?: unknown): HookmdError {
    return ulmError(this.#operation, this.#file, offset, message, cause);
  }
}

function element(raw: Buffer, at: number, dtype: string, little: boolean): number {
  switch (dtype) {
    case 'float64': return little ? raw.readDoubleLE(at) : raw.readDoubleBE(at);
    case 'float32': return little ? raw.readFloatLE(at) : raw.readFloatBE(at);
    case 'int64': return Number(little ? raw.readBigInt64LE(at) : raw.readBigInt64BE(at));
    case 'int32': return little ? raw.readInt32LE(at) : raw.readInt32BE(at);
    case 'int16': return little ? raw.readInt16LE(at) : raw.readInt16BE(at);
    case 'int8': return raw.readInt8(at);
    default: return raw.readUInt8(at);
  }
}

/** A flat row-major list as nested lists of `shape` (a scalar for shape []). */
function nest(flat: number[], shape: readonly number[]): unknown {
  if (shape.length === 0) return flat[0];
  if (shape.length === 1) return flat;
  const inner = shape.slice(1);
  const stride = inner.reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[0] as number }, (_, i) => nest(flat.slice(i * stride, (i + 1) * stride), inner));
}

/** The smallest table size ASE would use for `count` items (1, 42, 1764, ...). */
function tableSlots(count: number): number {
  let slots = 1;
  while (slots < count) slots *= TABLE_GROWTH;
  return slots;
}

/**
 * Appends items to a ULM file in ASE's layout. Each append writes the new arrays, JSON documents and (when
 * it must grow) a new offset table after the file's end, then the offsets, the table position and, last,
 * the item count: a reader sees the old items or all the new ones. A failed append cuts the file back.
 */
export class UlmAppender {
  readonly #path: string;
  readonly #tag: string;
  #count = 0;
  #pos0 = HEADER_BYTES;
  #slots = 1;
  #started: boolean;

  /** `append`: continue the file's items (its tag must be `tag`); otherwise the first append starts a new file. */
  constructor(path: string, tag: string, existing?: { count: number; pos0: number }) {
    this.#path = path;
    this.#tag = tag;
    this.#started = existing !== undefined;
    if (existing !== undefined) {
      this.#count = existing.count;
      this.#pos0 = existing.pos0;
      this.#slots = tableSlots(existing.count);
    }
  }

  /** Items written so far (including those the file held). */
  get count(): number {
    return this.#count;
  }

  /** Appends `items`: their data objects, with UlmArray and UlmChild values. */
  async append(items: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
    const handle = await open(this.#path, this.#started ? 'r+' : 'w+');
    try {
      let end = (await handle.stat()).size;
      if (!this.#started) {
        const header = Buffer.alloc(HEADER_BYTES + 8);
        header.write(`- of Ulm${this.#tag.padEnd(16)}`, 0, 'latin1');
        header.writeBigInt64LE(3n, 24);
        header.writeBigInt64LE(0n, 32);
        header.writeBigInt64LE(BigInt(HEADER_BYTES), 40);
        header.writeBigInt64LE(-1n, 48);
        await handle.write(header, 0, header.length, 0);
        end = header.length;
        this.#started = true;
      }
      if (items.length === 0) return;
      const initial = end;
      const pieces: Buffer[] = [];
      const place = (data: Buffer): number => {
        const pad = (8 - (end % 8)) % 8;
        if (pad > 0) pieces.push(Buffer.alloc(pad, '#'));
        const at = end + pad;
        pieces.push(data);
        end = at + data.length;
        return at;
      };
      const offsets: number[] = [];
      for (const item of items) {
        const json = Buffer.from(JSON.stringify(encode(item, place)), 'utf8');
        const length = Buffer.alloc(8);
        length.writeBigInt64LE(BigInt(json.length));
        offsets.push(end);
        pieces.push(length, json);
        end += 8 + json.length;
      }
      const total = this.#count + items.length;
      let pos0 = this.#pos0;
      let slots = this.#slots;
      if (total > slots) {
        slots = tableSlots(total);
        const table = Buffer.alloc(8 * slots);
        const old = Buffer.alloc(8 * this.#count);
        await handle.read(old, 0, old.length, this.#pos0);
        old.copy(table);
        offsets.forEach((o, k) => table.writeBigInt64LE(BigInt(o), 8 * (this.#count + k)));
        pos0 = place(table);
      }
      try {
        const tail = Buffer.concat(pieces);
        await handle.write(tail, 0, tail.length, initial);
        if (pos0 === this.#pos0) {
          const slotsData = Buffer.alloc(8 * offsets.length);
          offsets.forEach((o, k) => slotsData.writeBigInt64LE(BigInt(o), 8 * k));
          await handle.write(slotsData, 0, slotsData.length, pos0 + 8 * this.#count);
        }
        await handle.datasync();
        const word = Buffer.alloc(8);
        word.writeBigInt64LE(BigInt(pos0));
        await handle.write(word, 0, 8, 40);
        word.writeBigInt64LE(BigInt(total));
        await handle.write(word, 0, 8, 32);
        await handle.datasync();
      } catch (error) {
        // Back to the items the file had: the old table and count, nothing after the old end.
        const word = Buffer.alloc(8);
        word.writeBigInt64LE(BigInt(this.#pos0));
        await handle.write(word, 0, 8, 40).catch(() => undefined);
        word.writeBigInt64LE(BigInt(this.#count));
        await handle.write(word, 0, 8, 32).catch(() => undefined);
        await handle.truncate(initial).catch(() => undefined);
        throw error;
      }
      this.#count = total;
      this.#pos0 = pos0;
      this.#slots = slots;
    } finally {
      await handle.close();
    }
  }
}

/** The JSON document of an item: arrays placed by `place` (which returns their offset), children nested. */
function encode(data: Readonly<Record<string, unknown>>, place: (bytes: Buffer) => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    if (value instanceof UlmArray) {
      const bytes = Buffer.alloc(8 * value.values.length);
      for (let k = 0; k < value.values.length; k++) {
        if (value.dtype === 'int64') bytes.writeBigInt64LE(BigInt(value.values[k] as number), 8 * k);
        else bytes.writeDoubleLE(value.values[k] as number, 8 * k);
      }
      out[`${key}.`] = { ndarray: [value.shape, value.dtype, place(bytes)] };
    } else if (value instanceof UlmChild) {
      out[`${key}.`] = encode(value.data, place);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The item count and table position of an existing ULM file with tag `tag` (for appending); undefined when it is absent or empty. */
export function ulmAppendState(path: string, tag: string, operation: string): { count: number; pos0: number } | undefined {
  if (!existsSync(path) || statSync(path).size === 0) return undefined;
  const file = openUlm(path, operation, Number.MAX_SAFE_INTEGER);
  try {
    if (file.tag !== tag) throw ulmError(operation, path, 8, `the file's tag is '${file.tag}', not '${tag}'`);
    return { count: file.count, pos0: file.pos0 };
  } finally {
    file.close();
  }
}
