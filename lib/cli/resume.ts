// --resume: an attempt that was killed (a preempted Slurm task, a node lost) is run again with the same
// command, and takes up where the last one stopped. The output file is the record of what is done: its
// frames carry the input index of their system (info.systemId) and are appended whole, so a frame torn by
// the kill is cut off here, every whole frame counts as done, and the rest is run again. Trajectories and
// logs keep only what belongs to systems that are done, so each system's history appears once.
import { existsSync, readFileSync, statSync, truncateSync } from 'node:fs';

import { HookmdError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { indexExtxyz, type ExtxyzIndex } from '../io/extxyz/frame-index.js';
import { columnName } from '../dynamics/hooks/log-units.js';
import { parseCsv } from '../view/log-read.js';
import { inShard, type Shard } from './shard.js';
import { showText } from '../describe-value.js';

/** What the output being resumed must agree with. */
export interface ResumeExpectation {
  /** Systems in the whole input. */
  readonly inputSystems: number;
  readonly shard?: Shard;
}

function mismatch(label: string, path: string, problem: string): HookmdError {
  return new HookmdError('RESUME_MISMATCH', `${label}: cannot resume from ${path}: ${problem}; move it away to start afresh`, { field: label, value: path });
}

/**
 * The input indices that the output at `path` already holds (none when it does not exist yet). A torn last
 * frame is cut off the file first; `note` says so. A frame without an input index, one outside the shard or
 * the input, one written for an input of another size, or a system held twice is RESUME_MISMATCH: that file
 * is not this run's output.
 *
 * @example
 * const done = resumeOutput('shard-3.xyz', '--out', { inputSystems: 10_000, shard: { index: 3, count: 8 } }, console.error);
 */
export function resumeOutput(path: string, label: string, expected: ResumeExpectation, note: (message: string) => void): Set<number> {
  const done = new Set<number>();
  if (!existsSync(path)) return done;
  if (!statSync(path).isFile()) throw mismatch(label, path, 'it is not a file');
  const index = cutTornFrame(path, label, note);
  for (const frame of index.frames) {
    const { systemId, inputSystems } = frame.info;
    const where = `the frame at line ${frame.line}`;
    if (!Number.isSafeInteger(systemId) || (systemId as number) < 0) throw mismatch(label, path, `${where} has no systemId (an input index)`);
    const id = systemId as number;
    if (inputSystems !== undefined && inputSystems !== expected.inputSystems) {
      throw mismatch(label, path, `${where} was written for an input of ${showText(inputSystems)} systems; this input has ${expected.inputSystems}`);
    }
    if (id >= expected.inputSystems) throw mismatch(label, path, `${where} holds system ${id}; the input has ${expected.inputSystems}`);
    if (!inShard(id, expected.shard)) throw mismatch(label, path, `${where} holds system ${id}, which is not in shard ${expected.shard?.index}/${expected.shard?.count}`);
    if (done.has(id)) throw mismatch(label, path, `system ${id} is in it twice (again at line ${frame.line})`);
    done.add(id);
  }
  return done;
}

/** Indexes `path` and cuts off a torn last frame, if any. */
function cutTornFrame(path: string, label: string, note: (message: string) => void): ExtxyzIndex {
  const index = indexExtxyz(path, ['systemId', 'inputSystems']);
  if (index.torn > 0) {
    truncateSync(path, index.complete);
    note(`${label}: dropped an incomplete last frame (${index.torn} bytes) from ${path}, left by an interrupted write`);
  }
  return index;
}

/**
 * Rewrites the trajectory at `path` (extxyz) with only the frames of systems in `done`, for an MD run that
 * does the others again from their first step.
 */
export async function keepFramesOf(path: string, label: string, done: ReadonlySet<number>, note: (message: string) => void): Promise<void> {
  if (!existsSync(path)) return;
  const index = cutTornFrame(path, label, note);
  const kept = index.frames.filter((frame) => done.has(frame.info.systemId as number));
  if (kept.length === index.frames.length) return;
  const bytes = readFileSync(path);
  await writeFileAtomic(path, async (write) => {
    for (const frame of kept) await write(bytes.subarray(frame.start, frame.end));
  }, label);
}

/**
 * Rewrites the log at `path` (csv with a header, or jsonl) with only the rows of systems in `done`; a torn
 * last row (no newline) goes too.
 */
export async function keepLogRowsOf(path: string, label: string, done: ReadonlySet<number>): Promise<void> {
  if (!existsSync(path)) return;
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  // The last piece is empty when the file ends with a newline, or a row cut short.
  lines.pop();
  const jsonl = path.endsWith('.jsonl');
  const csvCells = (line: string): string[] => parseCsv(line)[0] ?? [];
  const header = jsonl ? undefined : lines.shift();
  const column = header === undefined ? -1 : csvCells(header).map(columnName).indexOf('systemId');
  if (!jsonl && header !== undefined && column < 0) throw mismatch(label, path, 'its header has no systemId column');
  const systemIdOf = (line: string): number => {
    if (!jsonl) return Number(csvCells(line)[column]);
    try {
      return Number((JSON.parse(line) as { systemId?: unknown }).systemId);
    } catch {
      return NaN;
    }
  };
  const kept = lines.filter((line) => done.has(systemIdOf(line)));
  const rebuilt = [...(header === undefined ? [] : [header]), ...kept].map((line) => `${line}\n`).join('');
  if (rebuilt === text) return;
  await writeFileAtomic(path, async (write) => write(rebuilt), label);
}
