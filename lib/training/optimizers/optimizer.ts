// The optimizer protocol: an optimizer updates the trainer's variables u = ln θ in place from their
// gradients (factories.ts builds one from a config entry).

/**
 * What the trainer needs of an optimizer. `lr` is read and written by learning-rate schedulers.
 *
 * @example
 * const opt: Optimizer = new Adam({ lr: 0.02 });
 * opt.step(variables, gradients); // variables -= update, in place
 */
export interface Optimizer {
  /** 'Adam' or 'SGD' (the config `type`). */
  readonly type: string;
  /** The current learning rate. */
  lr: number;
  /** The learning rate it was made with (schedulers scale from it). */
  readonly initialLr: number;
  /** Canonical options, `{ type, ... }`, as a config file would give them. */
  readonly config: Readonly<Record<string, unknown>>;
  /** One update of `variables` from `gradients` (same length), in place. */
  step(variables: Float64Array, gradients: Float64Array): void;
  /** The state a checkpoint saves (the learning rate included). */
  stateDict(): Record<string, unknown>;
  loadStateDict(state: unknown): void;
}
