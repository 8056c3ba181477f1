// zarrita's Node filesystem store, with each key written atomically: a chunk or metadata file is
// either the old one or the new one, never half of each, whatever happens during a write.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { FileSystemStore } from '@zarrita/storage';

import { writeFileAtomic } from '../atomic-write.js';

/**
 * A FileSystemStore whose `set` writes a temporary file and renames it over the key. zarrita writes the
 * chunks of one `zarr.set` concurrently and rejects at the first failure, so `settled()` lets the caller
 * wait for the other writes (and their temporaries' removal) before it reports the failure.
 */
export class AtomicFileSystemStore extends FileSystemStore {
  readonly #inFlight = new Set<Promise<void>>();

  override async set(key: string, value: Uint8Array): Promise<void> {
    const path = join(this.root, key.replace(/^\/+/, ''));
    const write = (async (): Promise<void> => {
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, (chunk) => chunk(value), 'ZarrSink');
    })();
    this.#inFlight.add(write);
    try {
      await write;
    } finally {
      this.#inFlight.delete(write);
    }
  }

  /** Resolves once every `set` under way has finished, whether it succeeded or failed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }
}
