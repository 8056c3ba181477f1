// Ctrl-C (SIGINT) and SIGTERM: the first one aborts the run's AbortSignal, so the engine finishes the
// current step and the command flushes sinks and logs before it exits with 128 + the signal number.
// A second one exits at once, for the user who cannot wait.

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
/** The signals a command handles. */
export type Handled = keyof typeof SIGNAL_NUMBERS;

/**
 * Turns interrupt signals into an AbortSignal for one command.
 *
 * @example
 * const interrupt = new Interrupt();
 * try { await engine.run(batch, { steps, signal: interrupt.signal }); } finally { interrupt.dispose(); }
 * return interrupt.exitCode ?? 0;
 */
export class Interrupt {
  readonly #controller = new AbortController();
  readonly #handlers: Array<[Handled, () => void]>;
  #received: Handled | undefined;

  /**
   * Installs the handlers; the run sees the first signal through `signal` (its 'abort' event). With
   * `listen: false` none are installed and only {@link raise} stops the run: a queue worker runs chunks in
   * process and decides itself what a signal means for each.
   */
  constructor(options: { listen?: boolean } = {}) {
    const listen = options.listen ?? true;
    this.#handlers = (listen ? (Object.keys(SIGNAL_NUMBERS) as Handled[]) : []).map((name) => {
      const handler = (): void => {
        if (this.#received !== undefined) {
          // A progress bar hides the cursor until it stops; it will not stop now, so show it here.
          if (process.stderr.isTTY === true) process.stderr.write('\x1b[?25h');
          process.stderr.write(`\nhookmd: ${name} again: exiting now; output not yet flushed is lost\n`);
          process.exit(128 + SIGNAL_NUMBERS[name]);
        }
        this.raise(name);
      };
      process.on(name, handler);
      return [name, handler];
    });
  }

  /** Stops the run as signal `name` would (first time only). */
  raise(name: Handled): void {
    if (this.#received !== undefined) return;
    this.#received = name;
    this.#controller.abort(name);
  }

  /** Aborted by the first signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The signal received, if any. */
  get received(): Handled | undefined {
    return this.#received;
  }

  /** 130 after SIGINT, 143 after SIGTERM, undefined when no signal came. */
  get exitCode(): number | undefined {
    return this.#received === undefined ? undefined : 128 + SIGNAL_NUMBERS[this.#received];
  }

  /** Removes the handlers (default signal behaviour returns). */
  dispose(): void {
    for (const [name, handler] of this.#handlers) process.off(name, handler);
  }
}
