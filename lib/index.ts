// hookmd public API: re-exports only.

export { HookmdError, HookmdRangeError, HookmdTypeError, isHookmdError } from './errors.js';
export type { CodedError, ErrorDetails } from './errors.js';
