// The size limits of extxyz reading. A valid but huge input (a 46M-atom frame, a 200 MB comment line, a
// file with no newline such as /dev/zero) would otherwise end the process in V8's string limit or heap,
// where no caller can catch it; past a limit it is a typed EXTXYZ_LIMIT error instead.
import { HookmdError, HookmdRangeError } from '../../errors.js';
import { showText } from '../../describe-value.js';

/** Default cap on one line: 16 MiB, far above any real comment or atom line. */
export const DEFAULT_MAX_LINE_BYTES: number = 16 * 1024 * 1024;
/** Default cap on the atoms of one frame: 10 million, whose parsed System fits the default Node heap. */
export const DEFAULT_MAX_FRAME_ATOMS: number = 10_000_000;

/** The size limits of `readExtxyz` and `streamExtxyz`. */
export interface ExtxyzLimits {
  /** The longest line accepted, in bytes (characters for text input); default 16 MiB. */
  maxLineBytes?: number;
  /** The most atoms one frame may declare; default 10,000,000. */
  maxFrameAtoms?: number;
}

/** Checked limits, defaults filled in. */
export interface CheckedLimits {
  readonly maxLineBytes: number;
  readonly maxFrameAtoms: number;
}

function limit(operation: string, field: keyof ExtxyzLimits, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new HookmdRangeError('INVALID_OPTIONS', `${operation}: ${field} must be an integer ≥ 1, got ${showText(value)}`, { field, value });
  }
  return value;
}

/** Validates the limits of `options` (INVALID_OPTIONS) and fills in the defaults. */
export function checkLimits(operation: string, options: ExtxyzLimits): CheckedLimits {
  return {
    maxLineBytes: limit(operation, 'maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES),
    maxFrameAtoms: limit(operation, 'maxFrameAtoms', options.maxFrameAtoms, DEFAULT_MAX_FRAME_ATOMS),
  };
}

/** The EXTXYZ_LIMIT error: `<operation>: <file>:<line>: <what>; raise <option> if the file is valid`. */
export function limitError(operation: string, file: string, line: number, what: string, option: keyof ExtxyzLimits, max: number): HookmdError {
  return new HookmdError('EXTXYZ_LIMIT', `${operation}: ${file}:${line}: ${what}, over the ${option} limit of ${max}; raise ${option} if the file is valid`, {
    file,
    line,
    option,
    max,
  });
}
