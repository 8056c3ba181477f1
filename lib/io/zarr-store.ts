// zarrita's Node filesystem store, with each key written atomically: a chunk or metadata file is
// either the old one or the new one, never half of each, whatever happens during a write.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { FileSystemStore } from '@zarrita/storage';

import { writeFileAtomic } from './atomic-write.js';

/** A FileSystemStore whose `set` writes a temporary file and renames it over the key. */
export class AtomicFileSystemStore extends FileSystemStore {
  override async set(key: string, value: Uint8Array): Promise<void> {
    const path = join(this.root, key.replace(/^\/+/, ''));
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, (write) => write(value), 'ZarrSink');
  }
}
