// Files for the view tests, made by real runs: an argon MD trajectory (extxyz, SnapshotHook) with its
// LoggingHook log, and a trajectory whose frames are far apart so that each draws a different picture.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Batch, bulk, repeat } from '../../lib/data/index.js';
import { initializeVelocities, VelocityVerlet } from '../../lib/dynamics/index.js';
import { LoggingHook } from '../../lib/dynamics/hooks/logging-hook.js';
import { SnapshotHook } from '../../lib/dynamics/hooks/snapshot-hook.js';
import { writeExtxyz } from '../../lib/io/index.js';
import { LennardJones } from '../../lib/models/index.js';
import type { ViewData } from '../../lib/view/index.js';

/** Argon LJ (metal units). */
export const argonModel = (): LennardJones => new LennardJones({ epsilon: 0.0104, sigma: 3.4, cutoff: 8.5 });

/** fcc argon, 2×2×2 conventional cells (32 atoms), at 300 K. */
export function argonBatch(): Batch {
  const batch = Batch.fromSystems([repeat(bulk('Ar', 'fcc', { a: 5.26, cubic: true }), [2, 2, 2])]);
  initializeVelocities(batch, { temperature: 300, seed: 1 });
  return batch;
}

export interface MdFiles {
  dir: string;
  traj: string;
  log: string;
  /** Frames in the trajectory and rows in the log. */
  frames: number;
  rows: number;
}

/** Runs `steps` NVE steps, saving a frame every `trajEvery` and a log row every `logEvery` steps. */
export async function mdFiles(steps = 200, trajEvery = 20, logEvery = 10): Promise<MdFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'hookmd-view-'));
  const traj = join(dir, 'traj.extxyz');
  const log = join(dir, 'md.csv');
  const hooks = [new SnapshotHook({ path: traj, frequency: trajEvery }), new LoggingHook({ path: log, frequency: logEvery })];
  await new VelocityVerlet({ model: argonModel(), dt: 2, hooks }).run(argonBatch(), { steps });
  // Step 0 (the input), every multiple of the interval, and the last step when it is not one.
  const states = (every: number): number => Math.floor(steps / every) + 1 + (steps % every === 0 ? 0 : 1);
  return { dir, traj, log, frames: states(trajEvery), rows: states(logEvery) };
}

/** Three frames of 8 atoms: a compact cube, the same cube twice as large, and a line. */
export async function movingFrames(dir: string): Promise<string> {
  const cube = (a: number): number[][] => [0, 1].flatMap((x) => [0, 1].flatMap((y) => [0, 1].map((z) => [x * a, y * a, z * a])));
  const frames = [cube(2), cube(4), cube(2).map((_, i) => [i * 1.5, 0, 0])].map((positions, step) => ({
    symbols: ['Cu', 'Cu', 'Cu', 'Cu', 'O', 'O', 'O', 'O'], positions, info: { step },
  }));
  const path = join(dir, 'moving.extxyz');
  await writeExtxyz(path, frames);
  return path;
}

/** A TrainingLoggingHook-style jsonl log with `epochs` rows, its metadata line first. */
export function trainingLog(dir: string, epochs: number): string {
  const path = join(dir, 'fit.jsonl');
  const lines = [JSON.stringify({ event: 'metadata', runId: 'x' })];
  for (let epoch = 0; epoch < epochs; epoch++) lines.push(JSON.stringify({ epoch, step: 4 * (epoch + 1), lr: 0.01, loss: 1 / (epoch + 1), energy: 0.5 / (epoch + 1), forces: 0.5 / (epoch + 1), stress: 0, val_loss: 1.2 / (epoch + 1) }));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The data an exported report (`hookmd view --export`) inlines, as its page gets it. */
export function reportData(path: string): ViewData {
  const html = readFileSync(path, 'utf8');
  const json = /window\.HOOKMD_DATA = (.*?);<\/script>/s.exec(html)?.[1] as string;
  return JSON.parse(json) as ViewData;
}
