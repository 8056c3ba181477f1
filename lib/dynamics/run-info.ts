// The `info` keys that describe a run: runStream's leaveInfo writes them (systemId aside), and a relaxed
// file carries them. A later run's outputs describe that later run, so they do not carry its input's.
/** Keys of a system's `info` that are a run's bookkeeping: whether it converged, its steps, its status. */
export const RUN_INFO_KEYS: readonly string[] = ['converged', 'steps', 'status'];

/**
 * `info` without the bookkeeping of the run that wrote it (RUN_INFO_KEYS), for the frames a new run writes.
 *
 * @example
 * withoutRunInfo({ systemId: 0, converged: true, steps: 126, status: 1, tag: 'a' }); // { systemId: 0, tag: 'a' }
 */
export function withoutRunInfo(info: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(info ?? {})) if (!RUN_INFO_KEYS.includes(key)) kept[key] = value;
  return kept;
}
