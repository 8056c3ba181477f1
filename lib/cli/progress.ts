// Progress of a command on stderr (stdout stays free for results and --json): a cli-progress bar with
// ETA, steps/s and the converged count on a terminal, plain lines every few seconds in logs and CI.
import cliProgress from 'cli-progress';

/** How progress is shown. */
export type ProgressMode = 'bar' | 'lines' | 'none';

/** What a command knows at a progress report. */
export interface ProgressState {
  /** Units of work done (systems finished, or steps). */
  done: number;
  /** Steps taken so far. */
  step: number;
  /** Systems converged so far; undefined when the command has no convergence (MD). */
  converged?: number;
  /** A short note shown last ('loss 1.2e-3'). */
  detail?: string;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  mode: ProgressMode;
  /** Leads every line: the command name. */
  label: string;
  /** What `done` counts ('systems', 'steps'). */
  unit: string;
  /** Total work, in `unit`. */
  total: number;
  /** Seconds between plain lines. */
  interval: number;
  /** How the converged count is labelled ('converged', 'finished'); without it, no count is shown. */
  countLabel?: string;
}

/** Reports progress; `stop()` ends the bar (or prints the last line). */
export interface ProgressReporter {
  update(state: ProgressState): void;
  /** A message that must not tear the bar: the bar stops first. */
  note(message: string): void;
  stop(): void;
}

/** The mode a command gets: none with --quiet, a bar on a terminal, plain lines otherwise. */
export function progressMode(quiet: boolean | undefined, stream: NodeJS.WriteStream = process.stderr): ProgressMode {
  if (quiet === true) return 'none';
  return stream.isTTY === true ? 'bar' : 'lines';
}

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.round(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${Math.round(seconds % 60)}s` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

// Steps per second averaged since the reporter started: steadier than per-report rates, and what the ETA uses.
function averageRate(step: number, started: number): number {
  const seconds = (performance.now() - started) / 1000;
  return seconds > 0 ? Math.round(step / seconds) : 0;
}

class BarReporter implements ProgressReporter {
  readonly #bar: cliProgress.SingleBar;
  readonly #started = performance.now();
  #active = true;

  constructor(options: ProgressOptions) {
    const tail = options.countLabel === undefined ? '' : ` | {converged} ${options.countLabel}`;
    this.#bar = new cliProgress.SingleBar({
      format: `${options.label} [{bar}] {percentage}% | {value}/{total} ${options.unit} | step {step} | {rate} steps/s${tail} | ETA {eta_formatted}{detail}`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
      // The command stops the bar itself on Ctrl-C, after the run has flushed its outputs.
      gracefulExit: false,
    }, cliProgress.Presets.shades_classic);
    this.#bar.start(options.total, 0, { step: 0, rate: 0, converged: 0, detail: '' });
  }

  update(state: ProgressState): void {
    if (this.#active) this.#bar.update(state.done, { step: state.step, rate: averageRate(state.step, this.#started), converged: state.converged ?? 0, detail: state.detail === undefined ? '' : ` | ${state.detail}` });
  }

  note(message: string): void {
    this.stop();
    process.stderr.write(`${message}\n`);
  }

  stop(): void {
    if (!this.#active) return;
    this.#active = false;
    this.#bar.stop();
  }
}

class LineReporter implements ProgressReporter {
  readonly #options: ProgressOptions;
  readonly #started = performance.now();
  #lastLine = -Infinity;
  #pending: ProgressState | undefined;

  constructor(options: ProgressOptions) {
    this.#options = options;
  }

  update(state: ProgressState): void {
    this.#pending = state;
    const now = performance.now();
    if (now - this.#lastLine >= this.#options.interval * 1000) this.#print(now);
  }

  note(message: string): void {
    process.stderr.write(`${message}\n`);
  }

  stop(): void {
    if (this.#pending !== undefined) this.#print(performance.now());
  }

  #print(now: number): void {
    const state = this.#pending as ProgressState;
    const { label, unit, total } = this.#options;
    const elapsed = (now - this.#started) / 1000;
    const eta = state.done > 0 ? (elapsed * (total - state.done)) / state.done : Infinity;
    const percent = total > 0 ? Math.floor((100 * state.done) / total) : 100;
    const converged = state.converged === undefined ? '' : `, ${state.converged} ${this.#options.countLabel ?? 'converged'}`;
    process.stderr.write(
      `${label}: ${state.done}/${total} ${unit} (${percent}%), step ${state.step}, ${averageRate(state.step, this.#started)} steps/s${converged}, ` +
        `elapsed ${formatSeconds(elapsed)}, ETA ${state.done >= total ? '0s' : formatSeconds(eta)}${state.detail === undefined ? '' : `, ${state.detail}`}\n`,
    );
    this.#lastLine = now;
    this.#pending = undefined;
  }
}

class SilentReporter implements ProgressReporter {
  update(): void {}
  note(message: string): void {
    process.stderr.write(`${message}\n`);
  }
  stop(): void {}
}

/**
 * A progress reporter for `options.mode`.
 *
 * @example
 * const progress = createProgress({ mode: progressMode(quiet), label: 'relax', unit: 'systems', total: 256, interval: 5, countLabel: 'converged' });
 * progress.update({ done: 10, step: 120, converged: 10 });
 * progress.stop();
 */
export function createProgress(options: ProgressOptions): ProgressReporter {
  if (options.mode === 'bar') return new BarReporter(options);
  if (options.mode === 'lines') return new LineReporter(options);
  return new SilentReporter();
}
