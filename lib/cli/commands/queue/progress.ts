// What `queue push` and `queue work` report: a cli-progress bar of the queue's chunks on a terminal, plain
// lines every few seconds in logs, or, with --json, one JSON object per event on stdout for scripts.
import cliProgress from 'cli-progress';

import { progressMode, type ProgressMode } from '../../progress.js';

/** The state of a queue, as counted by BullMQ. */
export interface QueueCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  delayed: number;
  prioritized: number;
}

/** Chunks not yet finished (and not failed for good). */
export function pendingChunks(counts: QueueCounts): number {
  return counts.waiting + counts.active + counts.delayed + counts.prioritized;
}

/** All chunks the queue holds. */
export function totalChunks(counts: QueueCounts): number {
  return pendingChunks(counts) + counts.completed + counts.failed;
}

/** Reports a queue command's progress; `event` is what --json prints. */
export class QueueReporter {
  readonly #mode: ProgressMode | 'json';
  readonly #label: string;
  readonly #interval: number;
  readonly #started = performance.now();
  #bar: cliProgress.SingleBar | undefined;
  #lastLine = -Infinity;

  /** `label` leads each line ('queue work relax-lj13'); `interval` is seconds between plain lines. */
  constructor(label: string, options: { json?: boolean; quiet?: boolean; progressInterval?: number }) {
    this.#mode = options.json === true ? 'json' : progressMode(options.quiet);
    this.#label = label;
    this.#interval = options.progressInterval ?? 5;
  }

  /** Prints one JSON line with --json. */
  event(name: string, fields: Record<string, unknown>): void {
    if (this.#mode === 'json') process.stdout.write(`${JSON.stringify({ event: name, time: new Date().toISOString(), ...fields })}\n`);
  }

  /** Shows `done` of `total` chunks, with what this process has done (`systems`, and its rate). */
  update(done: number, total: number, systems: number, failed: number): void {
    const rate = systems / Math.max(1e-9, (performance.now() - this.#started) / 1000);
    if (this.#mode === 'bar') {
      if (this.#bar === undefined) {
        this.#bar = new cliProgress.SingleBar({
          format: `${this.#label} [{bar}] {percentage}% | {value}/{total} chunks | {systems} systems here, {rate} systems/s | {failed} failed | ETA {eta_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          gracefulExit: false,
        }, cliProgress.Presets.shades_classic);
        this.#bar.start(total, done, { systems, rate: rate.toFixed(1), failed });
      }
      this.#bar.setTotal(total);
      this.#bar.update(done, { systems, rate: rate.toFixed(1), failed });
    } else if (this.#mode === 'lines') {
      const now = performance.now();
      if (now - this.#lastLine < this.#interval * 1000 && done < total) return;
      this.#lastLine = now;
      process.stderr.write(`${this.#label}: ${done}/${total} chunks, ${systems} systems here (${rate.toFixed(1)}/s), ${failed} failed\n`);
    }
  }

  /** A message on stderr that does not tear the bar (nothing with --quiet or --json, whose stdout is data). */
  note(message: string): void {
    if (this.#mode === 'none') return;
    if (this.#bar !== undefined) this.#bar.stop();
    this.#bar = undefined;
    process.stderr.write(`${message}\n`);
  }

  stop(): void {
    this.#bar?.stop();
    this.#bar = undefined;
  }
}
