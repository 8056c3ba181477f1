// Runs async tasks one after another: models whose compute is asynchronous (OnnxModel, IpiModel) keep state
// between the start and the end of a compute (input buffers, busy clients), so a second compute waits.

/**
 * A queue of async tasks that run one at a time, in order.
 *
 * @example
 * const queue = new SerialQueue();
 * compute(batch) { return queue.run(() => this.#compute(batch)); }
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it has settled; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  async idle(): Promise<void> {
    await this.#tail;
  }
}
