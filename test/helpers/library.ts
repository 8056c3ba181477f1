// A fresh copy of the library bound to one backend: the backend is chosen once per module graph, so a test
// that compares backends imports the library anew for each.
import { vi } from 'vitest';

export type Hookmd = typeof import('../../lib/index.js');

/** The library, imported anew and configured for `backend`. */
export async function libraryOn(backend: 'cpu' | 'mirror' | 'cuda'): Promise<Hookmd> {
  vi.resetModules();
  const hookmd = await import('../../lib/index.js');
  hookmd.configureNative({ backend });
  return hookmd;
}
