// Counts the frames of an extxyz file without parsing them (read the atom count, skip that many lines
// plus the comment line), so a streamed run can show a progress total. The real parser reports errors.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * The number of frames in `path`, or undefined when the file does not look like extxyz.
 *
 * @example
 * await countFrames('inputs.xyz'); // 256
 */
export async function countFrames(path: string): Promise<number | undefined> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let frames = 0;
  let skip = 0;
  try {
    for await (const line of lines) {
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
  } finally {
    lines.close();
  }
  return frames;
}
