// `hookmd merge <outputs…> --out FILE`: the outputs of shards (--shard), resumed runs and queue chunks put
// back together in input order, by the input index each frame carries (info.systemId). Frames are copied
// byte for byte, so the merged file holds exactly the numbers each run wrote. A system found twice, or one
// missing, is an error: a merged file is either the whole input or, with --allow-partial, says what it lacks.
import { closeSync, openSync, readSync } from 'node:fs';

import type { Command } from 'commander';

import { HookmdError } from '../../errors.js';
import { writeFileAtomic } from '../../io/atomic-write.js';
import { indexExtxyz, type FrameExtent } from '../../io/extxyz/frame-index.js';
import { checkInputFile, checkOutputPath } from '../paths.js';

/** Flags of `hookmd merge`. */
export interface MergeOptions {
  out: string;
  allowPartial?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** What `hookmd merge` did. */
export interface MergeSummary {
  command: 'merge';
  /** Systems written. */
  systems: number;
  /** Systems in the whole input (from info.inputSystems, else one past the largest systemId). */
  inputSystems: number;
  /** Input indices absent from every output (only with --allow-partial). */
  missing: number[];
  /** Incomplete last frames dropped (only with --allow-partial). */
  tornFrames: number;
  files: string[];
  out: string;
}

interface Located {
  readonly file: number;
  readonly frame: FrameExtent;
}

function mergeError(code: string, message: string, details: Record<string, unknown> = {}): HookmdError {
  return new HookmdError(code, `merge: ${message}`, details);
}

// `[0, 1, 2, 5, 7, 8]` → '0-2, 5, 7-8', at most `limit` ranges.
function ranges(ids: readonly number[], limit = 10): string {
  const parts: string[] = [];
  let k = 0;
  while (k < ids.length && parts.length < limit) {
    let end = k;
    while (end + 1 < ids.length && ids[end + 1] === ids[end] + 1) end++;
    parts.push(end === k ? `${ids[k]}` : `${ids[k]}-${ids[end]}`);
    k = end + 1;
  }
  return k < ids.length ? `${parts.join(', ')}, …` : parts.join(', ');
}

/**
 * Merges `files` into `options.out`, in input order; resolves to the summary. DUPLICATE_SYSTEM when a
 * system is in two frames; MISSING_SYSTEMS when some are in none, TORN_FRAME when a file ends in an
 * incomplete frame (both allowed by `allowPartial`); MISSING_SYSTEM_ID and INPUT_SIZE_MISMATCH for
 * frames that no hookmd scale-out run wrote, or that come from different inputs.
 *
 * @example
 * await merge(['shard-0.xyz', 'shard-1.xyz'], { out: 'all.xyz' });
 */
export async function merge(files: readonly string[], options: MergeOptions): Promise<MergeSummary> {
  files.forEach((file, k) => checkInputFile(file, `merge: <outputs>[${k}]`));
  checkOutputPath(options.out, '--out');
  const bySystem = new Map<number, Located>();
  const sizes = new Map<number, string>();
  let tornFrames = 0;
  for (const [k, file] of files.entries()) {
    const index = indexExtxyz(file, ['systemId', 'inputSystems']);
    if (index.torn > 0) {
      if (options.allowPartial !== true) {
        throw mergeError('TORN_FRAME', `${file} ends in an incomplete frame (${index.torn} bytes, an interrupted write); resume that run with --resume, or merge with --allow-partial to drop it`, { file });
      }
      tornFrames++;
    }
    for (const frame of index.frames) {
      const { systemId, inputSystems } = frame.info;
      if (!Number.isSafeInteger(systemId) || (systemId as number) < 0) {
        throw mergeError('MISSING_SYSTEM_ID', `${file}:${frame.line}: the frame has no systemId (its index in the input); merge reads the outputs of relax, md and run with --shard or --resume, and of queue workers`, { file, line: frame.line });
      }
      const id = systemId as number;
      const earlier = bySystem.get(id);
      if (earlier !== undefined) {
        throw mergeError('DUPLICATE_SYSTEM', `system ${id} is in ${files[earlier.file]}:${earlier.frame.line} and in ${file}:${frame.line}; each system must come from one output`, { systemId: id });
      }
      bySystem.set(id, { file: k, frame });
      if (inputSystems !== undefined) sizes.set(inputSystems as number, `${file}:${frame.line}`);
    }
  }
  if (sizes.size > 1) {
    const seen = [...sizes.entries()].map(([size, where]) => `${size} (${where})`).join(', ');
    throw mergeError('INPUT_SIZE_MISMATCH', `the outputs come from inputs of different sizes: ${seen}`, { sizes: [...sizes.keys()] });
  }
  const ids = [...bySystem.keys()].sort((a, b) => a - b);
  const inputSystems = sizes.size === 1 ? [...sizes.keys()][0] : (ids.at(-1) ?? -1) + 1;
  const beyond = ids.filter((id) => id >= inputSystems);
  if (beyond.length > 0) throw mergeError('INPUT_SIZE_MISMATCH', `systems ${ranges(beyond)} are beyond the input's ${inputSystems} systems`, { systems: beyond });
  const missing: number[] = [];
  for (let id = 0; id < inputSystems; id++) if (!bySystem.has(id)) missing.push(id);
  if (missing.length > 0 && options.allowPartial !== true) {
    throw mergeError('MISSING_SYSTEMS', `${missing.length} of ${inputSystems} systems are in no output: ${ranges(missing)}; run what is missing (--resume), or merge with --allow-partial`, { missing: missing.length });
  }
  await copyFrames(files, ids.map((id) => bySystem.get(id) as Located), options.out);
  return { command: 'merge', systems: ids.length, inputSystems, missing, tornFrames, files: [...files], out: options.out };
}

// Copies the frames, in the order given, into `out` (atomically), a megabyte at a time.
async function copyFrames(files: readonly string[], frames: readonly Located[], out: string): Promise<void> {
  const descriptors = files.map((file) => openSync(file, 'r'));
  try {
    await writeFileAtomic(out, async (write) => {
      const pending: Buffer[] = [];
      let bytes = 0;
      for (const { file, frame } of frames) {
        const buffer = Buffer.allocUnsafe(frame.end - frame.start);
        readSync(descriptors[file], buffer, 0, buffer.length, frame.start);
        pending.push(buffer);
        bytes += buffer.length;
        if (bytes >= 1 << 20) {
          await write(Buffer.concat(pending));
          pending.length = 0;
          bytes = 0;
        }
      }
      if (pending.length > 0) await write(Buffer.concat(pending));
    }, 'merge');
  } finally {
    for (const fd of descriptors) closeSync(fd);
  }
}

function describe(summary: MergeSummary): string {
  const partial = summary.missing.length === 0 ? '' : `, ${summary.missing.length} missing (${ranges(summary.missing)})`;
  const torn = summary.tornFrames === 0 ? '' : `, ${summary.tornFrames} incomplete frames dropped`;
  return `merge: ${summary.systems}/${summary.inputSystems} systems from ${summary.files.length} files${partial}${torn} → ${summary.out}`;
}

/** Adds `merge` to the program; the exit code goes to `done`. */
export function registerMerge(program: Command, done: (code: number) => void): void {
  program
    .command('merge')
    .description('merge the outputs of shards, resumed runs or queue chunks into one extxyz file, in input order')
    .argument('<outputs...>', 'extxyz outputs whose frames carry info.systemId (their index in the input)')
    .requiredOption('-o, --out <file>', 'merged extxyz file (written atomically)')
    .option('--allow-partial', 'write what there is when systems are missing, or a file ends in an incomplete frame (dropped)')
    .option('-q, --quiet', 'no summary line')
    .option('--json', 'print a JSON summary on stdout')
    .action(async (files: string[], options: MergeOptions) => {
      const summary = await merge(files, options);
      if (options.json === true) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      else if (options.quiet !== true) process.stdout.write(`${describe(summary)}\n`);
      done(0);
    });
}
