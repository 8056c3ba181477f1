// Files the library reads whole by path (structures, configs, potentials, models): only regular files of a
// bounded size. A device or a FIFO (/dev/zero, a named pipe) has no size, may never end, and a synchronous
// read of it (or an open() that waits for a writer) holds the event loop, so Ctrl-C and SIGTERM go unheard.
import { readFileSync, statSync, type Stats } from 'node:fs';

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a socket';
}

/**
 * Throws an Error that says why unless `path` is a regular file of at most `maxBytes` bytes (`what` names
 * such a file in the message: 'a config file'); the caller wraps it in its own typed error.
 *
 * @example
 * checkRegularFile('/dev/zero', 1024, 'a config file'); // throws: it is a device, not a regular file
 */
export function checkRegularFile(path: string, maxBytes: number, what: string): void {
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`it is ${kindOf(stat)}, not a regular file`);
  if (stat.size > maxBytes) throw new Error(`it has ${stat.size} bytes, more than the ${maxBytes} ${what} may have`);
}

/** The bytes of `path`, once `checkRegularFile` accepts it. */
export function readRegularFile(path: string, maxBytes: number, what: string): Buffer {
  checkRegularFile(path, maxBytes, what);
  return readFileSync(path);
}
