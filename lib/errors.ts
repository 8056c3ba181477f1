// hookmd errors: every failure that user input can cause carries a stable string `code`.
// Three classes exist so that callers can keep using `instanceof RangeError` / `TypeError` idioms.

/** Extra machine-readable facts about a failure: the field, the bad value, indices. */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/** Common shape of every typed hookmd error. */
export interface CodedError extends Error {
  readonly code: string;
  readonly details: ErrorDetails;
}

/**
 * The general hookmd error. `code` is stable across releases (e.g. `'INVALID_POSITIONS'`);
 * the message starts with the operation that rejected the input.
 *
 * @example
 * try { Batch.fromSystems([{ symbols: ['Xx'], positions: [[0, 0, 0]] }]); }
 * catch (e) { if (e instanceof HookmdError) console.log(e.code); } // 'UNKNOWN_ELEMENT'
 */
export class HookmdError extends Error implements CodedError {
  readonly code: string;
  readonly details: ErrorDetails;
  constructor(code: string, message: string, details: ErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = 'HookmdError';
    this.code = code;
    this.details = details;
  }
}

/** A numeric argument outside its allowed range (frequency < 1, mass ≤ 0, ...). */
export class HookmdRangeError extends RangeError implements CodedError {
  readonly code: string;
  readonly details: ErrorDetails;
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'HookmdRangeError';
    this.code = code;
    this.details = details;
  }
}

/** An argument of the wrong type or shape (missing stage, wrong array length, ...). */
export class HookmdTypeError extends TypeError implements CodedError {
  readonly code: string;
  readonly details: ErrorDetails;
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'HookmdTypeError';
    this.code = code;
    this.details = details;
  }
}

/**
 * A run ended by its AbortSignal while it was waiting on something that had not settled (an async hook's
 * promise). `name` is 'AbortError', as for DOM aborts, so `error.name === 'AbortError'` checks work; `code`
 * is 'ABORTED' and `details.pendingHook` names what was pending.
 *
 * @example
 * try { await md.run(batch, { steps: 1e6, signal }); }
 * catch (e) { if (e instanceof HookmdAbortError) console.log(e.details.pendingHook); }
 */
export class HookmdAbortError extends HookmdError {
  constructor(message: string, details: ErrorDetails = {}, options?: ErrorOptions) {
    super('ABORTED', message, details, options);
    this.name = 'AbortError';
  }
}

/** True for any of the three typed hookmd errors. */
export function isHookmdError(error: unknown): error is CodedError {
  return (
    error instanceof HookmdError || error instanceof HookmdRangeError || error instanceof HookmdTypeError
  );
}
