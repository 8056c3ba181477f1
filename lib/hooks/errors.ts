// hookmd hook kernel: the error a failing hook raises, and the validation errors of registration.
// Validation messages read `<operation>: <field> <problem>` and carry {field, value, problem} in details,
// so that fromConfig can re-point them into a config (`hooks[2].frequency: <problem>`).

import { HookmdError, HookmdRangeError, HookmdTypeError } from '../errors.js';

/**
 * What a {@link HookError} knows about the failure.
 *
 * @example
 * new HookError('dispatch', { hookName: 'x', stage: 0, stageName: 'LOAD', step: 3, cause: new Error('boom') });
 */
export interface HookErrorInfo {
  /** The hook's name (its `name`, class name, or `hook#<n>`). */
  readonly hookName: string;
  /** The stage value being dispatched, or `null` when the hook failed in open/close. */
  readonly stage: string | number | null;
  /** The stage's name, for messages (`'AFTER_STEP'`), or the lifecycle phase (`'open'`). */
  readonly stageName: string;
  /** `ctx.stepCount` of the failing dispatch (NaN outside a dispatch). */
  readonly step: number;
  /** What the hook threw, or the reason its promise rejected. */
  readonly cause: unknown;
  /** The context of the failing dispatch; handed to every hook's `onException`. */
  readonly context?: unknown;
}

/**
 * A hook failed: it threw, or its promise rejected. The run aborts with this error (Rule 7); the
 * lifecycle helper then calls every hook's `onException(error, ctx)`, then `close()`.
 *
 * @example
 * try { await runner.run(loop); }
 * catch (e) { if (e instanceof HookError) console.log(e.hookName, e.stage, e.step, e.cause); }
 */
export class HookError extends HookmdError {
  readonly hookName: string;
  readonly stage: string | number | null;
  readonly step: number;
  override readonly cause: unknown;
  /** The failing dispatch's context (not enumerable, so logs of the error stay small). */
  declare readonly context: unknown;

  constructor(operation: string, info: HookErrorInfo) {
    const where = info.stage === null ? '' : ` at stage ${info.stageName}, step ${info.step}`;
    super(
      'HOOK_FAILED',
      `${operation}: hook '${info.hookName}' failed${where}: ${describeCause(info.cause)}`,
      { hookName: info.hookName, stage: info.stage, step: info.step },
      { cause: info.cause },
    );
    this.name = 'HookError';
    this.hookName = info.hookName;
    this.stage = info.stage;
    this.step = info.step;
    this.cause = info.cause;
    Object.defineProperty(this, 'context', { value: info.context, enumerable: false });
  }
}

/** The message of whatever was thrown, without assuming it is an Error. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  return typeof cause === 'string' ? cause : show(cause);
}

/** A short, readable rendering of a bad value for error messages. */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** `HookmdRangeError` whose message is `${op}: ${field} ${problem}`. */
export function rangeError(code: string, op: string, field: string, problem: string, value: unknown): HookmdRangeError {
  return new HookmdRangeError(code, `${op}: ${field} ${problem}`, { field, value, problem });
}

/** `HookmdTypeError` whose message is `${op}: ${field} ${problem}`. */
export function typeError(code: string, op: string, field: string, problem: string, value: unknown): HookmdTypeError {
  return new HookmdTypeError(code, `${op}: ${field} ${problem}`, { field, value, problem });
}

/** True for the ASYNC_HOOK_IN_SYNC_RUN refusal, which lifecycle code passes on unwrapped. */
export function isAsyncRefusal(error: unknown): boolean {
  return error instanceof HookmdError && error.code === 'ASYNC_HOOK_IN_SYNC_RUN';
}

/**
 * The error a synchronous run (`dispatchSync`, `runner.runSync`, `registry[Symbol.dispose]`) raises
 * when a hook hands it a promise (Rule 11). `subject` says what returned it: `hook 'X' at stage SAVE`.
 */
export function asyncInSyncRun(op: string, subject: string, hookName?: string): HookmdError {
  return new HookmdError(
    'ASYNC_HOOK_IN_SYNC_RUN',
    `${op}: ${subject} returned a promise, which a synchronous run cannot await; ` +
      'use run() / await registry.dispatch() / await using, or make the hook synchronous',
    hookName === undefined ? {} : { hookName },
  );
}
