// hookmd hook kernel: run control (Rule 8). A stop request is a note for the workflow, never a
// mutation of the engine: the loop reads it after the current step and ends the run there.

import { HookmdTypeError } from '../errors.js';
import { show } from './errors.js';

/**
 * Who asked a run to stop, and why. `RunResult.stopped` holds one of these.
 *
 * @example
 * const stopped: StopRequest | undefined = control.stopped; // { reason: 'converged', by: 'MyHook' }
 */
export interface StopRequest {
  /** The reason given to `requestStop`. */
  readonly reason: string;
  /** The name of the hook that asked, or `'user'` when the loop itself asked. */
  readonly by: string;
}

/**
 * The control state of one run: hooks request a stop through `ctx.requestStop(reason)`, and the loop
 * checks `control.stopRequested` after each step. The first request wins; later ones are ignored, so
 * `stopped` names the hook that actually ended the run.
 *
 * @example
 * const control = new RunControl();
 * for (let step = 0; step < 1000 && !control.stopRequested; step++) {
 *   await registry.dispatch(Stage.SAVE, ctx);
 * }
 * const result = { steps, stopped: control.stopped }; // { reason: 'converged', by: 'MyHook' }
 */
export class RunControl {
  private request: StopRequest | undefined = undefined;

  /** Records a stop request; the run ends after the current step. Only the first request is kept. */
  requestStop(reason: string, by: string = 'user'): void {
    if (typeof reason !== 'string') {
      throw new HookmdTypeError('INVALID_STOP_REASON', `requestStop: reason must be a string, got ${show(reason)}`, {
        field: 'reason',
        value: reason,
      });
    }
    if (this.request === undefined) this.request = Object.freeze({ reason, by });
  }

  /** True once some hook (or the loop) asked the run to stop. */
  get stopRequested(): boolean {
    return this.request !== undefined;
  }

  /** The first stop request, or `undefined` while none was made. */
  get stopped(): StopRequest | undefined {
    return this.request;
  }

  /** Forgets the stop request, for the next run. */
  reset(): void {
    this.request = undefined;
  }
}
