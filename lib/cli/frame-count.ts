// Counts the frames of an extxyz file without parsing them (read the atom count, skip that many lines
// plus the comment line), so a streamed run can show a progress total. The real parser reports errors.
import { open } from 'node:fs/promises';

import { DEFAULT_MAX_LINE_BYTES } from '../io/extxyz/limits.js';
import { readLines } from '../io/line-reader.js';

// A line over the reader's limit ends the count; the parser then reports it as EXTXYZ_LIMIT.
class TooLong extends Error {}

/**
 * The number of frames in `path`, or undefined when the file does not look like extxyz (or has a line
 * longer than `maxLineBytes`).
 *
 * @example
 * await countFrames('inputs.xyz'); // 256
 */
export async function countFrames(path: string, maxLineBytes: number = DEFAULT_MAX_LINE_BYTES): Promise<number | undefined> {
  const handle = await open(path, 'r');
  let frames = 0;
  let skip = 0;
  try {
    for await (const line of readLines(handle, maxLineBytes, () => new TooLong())) {
      if (skip > 0) {
        skip--;
        continue;
      }
      const text = line.trim();
      if (text === '') continue;
      if (!/^\+?\d+$/.test(text)) return undefined;
      frames++;
      skip = Number(text) + 1;
    }
  } catch (error) {
    if (error instanceof TooLong) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
  return frames;
}
