// Run metadata: what identifies a training run and the code and config that made it. The trainer makes it
// at the start of every fit(), hands it to hooks at BEFORE_TRAIN (ctx.metadata) and stores it in every
// checkpoint.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';

import type { HookInfo } from '../hooks/index.js';
import { canonicalJson } from '../hooks/state.js';

/**
 * One hook of the run, as `registry.list()` shows it.
 *
 * @example
 * const entry: RunHookEntry = { name: 'EarlyStoppingHook', stage: 'AFTER_EPOCH', trigger: 'every(1)', enabled: true };
 */
export interface RunHookEntry {
  readonly name: string;
  readonly stage: string;
  readonly trigger: string;
  readonly enabled: boolean;
}

/**
 * What identifies a run.
 *
 * @example
 * const { runId, gitCommit, configHash, hooks } = trainer.metadata!;
 */
export interface RunMetadata {
  /** A fresh UUID per fit(). */
  readonly runId: string;
  /** `git rev-parse HEAD` in the working directory, or 'unknown' outside a repository (or without git). */
  readonly gitCommit: string;
  /** SHA-256 (hex) of the canonical JSON of `trainer.config` (object keys sorted). */
  readonly configHash: string;
  readonly hooks: readonly RunHookEntry[];
  /** ISO 8601 time at which fit() started. */
  readonly startedAt: string;
  /** The runId of the checkpoint this run resumed from, or null. */
  readonly resumedFrom: string | null;
}

/**
 * SHA-256 (hex) of the canonical JSON of `config`: equal configs hash equally whatever their key order.
 *
 * @example
 * configHash({ b: 1, a: 2 }) === configHash({ a: 2, b: 1 }); // true
 */
export function configHash(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}

let cachedCommit: { cwd: string; commit: string } | undefined;

/**
 * The commit checked out in `cwd`, or 'unknown'. Asked once per directory and process.
 *
 * @example
 * gitCommit(); // '4f1c…' inside a repository, 'unknown' elsewhere
 */
export function gitCommit(cwd: string = process.cwd()): string {
  if (cachedCommit?.cwd === cwd) return cachedCommit.commit;
  let commit = 'unknown';
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    if (/^[0-9a-f]{40,64}$/.test(out)) commit = out;
  } catch {
    // Not a repository, or no git: the documented 'unknown'.
  }
  cachedCommit = { cwd, commit };
  return commit;
}

/** @internal The metadata of a run starting now. */
export function makeMetadata(config: unknown, hooks: readonly HookInfo[], resumedFrom: string | null): RunMetadata {
  return Object.freeze({
    runId: randomUUID(),
    gitCommit: gitCommit(),
    configHash: configHash(config),
    hooks: Object.freeze(hooks.map(({ name, stage, trigger, enabled }) => Object.freeze({ name, stage, trigger, enabled }))),
    startedAt: new Date().toISOString(),
    resumedFrom,
  });
}
