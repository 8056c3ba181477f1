// Zarr v3's `gzip` codec with an encoder. zarrita 0.7 decodes gzip but cannot encode it, so this module puts
// a node:zlib one in zarrita's codec registry: ZarrSink compresses its chunks with it (docs/formats.md), and
// every Zarr v3 reader (zarr-python, zarrita itself) reads them back through the standard codec.
import { gunzipSync, gzipSync } from 'node:zlib';

import * as zarr from 'zarrita';

import type { ZarrCompression } from './layout.js';

/** The gzip level ZarrSink writes: zarr-python's default for its GzipCodec. */
export const ZARR_GZIP_LEVEL = 5;

class GzipCodec {
  readonly kind = 'bytes_to_bytes' as const;
  readonly #level: number;

  constructor(level: number) {
    this.#level = level;
  }

  static fromConfig(config: { level?: number } | undefined): GzipCodec {
    return new GzipCodec(config?.level ?? ZARR_GZIP_LEVEL);
  }

  encode(bytes: Uint8Array): Uint8Array {
    return new Uint8Array(gzipSync(bytes, { level: this.#level }));
  }

  decode(bytes: Uint8Array): Uint8Array {
    return new Uint8Array(gunzipSync(bytes));
  }
}

zarr.registry.set('gzip', () => Promise.resolve(GzipCodec as unknown as Awaited<ReturnType<NonNullable<ReturnType<typeof zarr.registry.get>>>>));

/** The codec list of an array: little-endian bytes, then gzip unless `compression` is 'none'. */
export function zarrCodecs(compression: ZarrCompression): Record<string, unknown>[] {
  const bytes = { name: 'bytes', configuration: { endian: 'little' } };
  return compression === 'gzip' ? [bytes, { name: 'gzip', configuration: { level: ZARR_GZIP_LEVEL } }] : [bytes];
}

/**
 * The decompressed size of a gzip chunk, read with at most `limit` + 1 bytes of output (a damaged or hostile
 * chunk cannot make the reader allocate more); READ_FAILED-worthy errors come back as thrown Errors.
 */
export function gunzippedLength(bytes: Uint8Array, limit: number): number {
  return gunzipSync(bytes, { maxOutputLength: limit + 1 }).length;
}
