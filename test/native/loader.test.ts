import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  backendInfo,
  configureNative,
  cpuBinaryCandidates,
  findCpuBinary,
  getThreads,
  parseBackendRequest,
  setThreads,
} from '../../lib/native/index.js';

describe('native loader', () => {
  it('loads the addon and reports the backend, device and threads', () => {
    const info = backendInfo();
    const requested = process.env.HOOKMD_BACKEND ?? 'auto';
    expect(info.requested).toBe(requested);
    if (requested === 'auto') {
      // auto takes cuda exactly when the CUDA build found a usable GPU, and otherwise says why not.
      expect(info.backend).toBe(info.fallbackReason === undefined ? 'cuda' : 'cpu');
      if (info.backend === 'cuda') expect(info.cudaBuild).toBe(true);
      else expect(info.fallbackReason).toMatch(/\S/);
    } else {
      expect(info.backend).toBe(requested);
      expect(info.fallbackReason).toBeUndefined();
    }
    expect(info.threads).toBeGreaterThanOrEqual(1);
    expect(info.device).toMatch(info.backend === 'cuda' ? /\(sm_\d+, \d+ GiB\)/ : /threads/);
    expect(info.napiVersion).toBe(8);
    expect(['avx512', 'avx2', 'baseline']).toContain(info.cpuSimd);
    expect(info.binary).toMatch(/\.node$/);
    if (requested === 'auto' && !info.cudaBuild) expect(info.fallbackReason).toMatch(/CUDA/);
  });

  it('setThreads resizes the pool and validates its argument', () => {
    const before = getThreads();
    expect(setThreads(1)).toBe(1);
    expect(getThreads()).toBe(1);
    expect(setThreads(before)).toBe(before);
    expect(() => setThreads(-2)).toThrow(expect.objectContaining({ code: 'INVALID_THREADS' }));
    expect(() => setThreads(1.5)).toThrow(expect.objectContaining({ code: 'INVALID_THREADS' }));
  });

  it('rejects an unknown backend request with a typed error', () => {
    expect(() => parseBackendRequest('gpu', 'HOOKMD_BACKEND')).toThrow(expect.objectContaining({ code: 'INVALID_BACKEND' }));
    expect(() => parseBackendRequest('gpu', 'HOOKMD_BACKEND')).toThrow(/HOOKMD_BACKEND: backend must be one of auto, cpu, mirror, cuda/);
  });

  it('refuses to switch backends after the addon is loaded', () => {
    const other = backendInfo().backend === 'cpu' ? 'mirror' : 'cpu';
    expect(() => configureNative({ backend: other })).toThrow(expect.objectContaining({ code: 'BACKEND_ALREADY_LOADED' }));
  });

  it('lists the folders it searched when no binary exists', () => {
    const empty = mkdtempSync(join(tmpdir(), 'hookmd-empty-'));
    // HOOKMD_BINARY (set when a suite runs on the release prebuild or the ASan build) names a file outright.
    vi.stubEnv('HOOKMD_BINARY', undefined);
    expect(findCpuBinary(empty)).toBeUndefined();
    vi.unstubAllEnvs();
    expect(cpuBinaryCandidates(empty)).toEqual([
      join(empty, 'prebuilds', `${process.platform}-${process.arch}`),
      join(empty, 'build', 'Release'),
      join(empty, 'build', 'Debug'),
    ]);
  });

  describe('without any binary', () => {
    afterEach(() => {
      vi.doUnmock('../../lib/native/locate.js');
      vi.resetModules();
    });

    // A user's project has no build scripts of hookmd's: the error says what to install and where prebuilt
    // binaries exist, never a repository script such as `npm run native:gyp`.
    it('says what a source build needs and which platforms have prebuilds', async () => {
      vi.resetModules();
      vi.doMock('../../lib/native/locate.js', async (importOriginal) => ({
        ...(await importOriginal<typeof import('../../lib/native/locate.js')>()),
        findCpuBinary: () => undefined,
        findCudaBinary: () => undefined,
      }));
      const loader = await import('../../lib/native/loader.js');
      loader.configureNative({ backend: 'cpu' });
      const error = (() => {
        try {
          return loader.loadBinding();
        } catch (caught) {
          return caught;
        }
      })() as Error & { code: string };
      expect(error.code).toBe('NATIVE_BINARY_NOT_FOUND');
      expect(error.message).toMatch(/^no native binary for /);
      expect(error.message).toContain('prebuilt binary for linux-x64 (glibc 2.28 or newer)');
      expect(error.message).toContain('python3, make and a C++17 compiler');
      expect(error.message).toContain('npm rebuild hookmd');
      expect(error.message).not.toContain('native:gyp');
    });
  });

  describe('HOOKMD_BACKEND', () => {
    afterEach(() => {
      delete process.env.HOOKMD_BACKEND;
      vi.resetModules();
    });

    async function freshLoader(value: string): Promise<typeof import('../../lib/native/index.js')> {
      vi.resetModules();
      process.env.HOOKMD_BACKEND = value;
      return import('../../lib/native/index.js');
    }

    it('rejects a bad value with a typed error naming the variable', async () => {
      const loader = await freshLoader('tpu');
      expect(() => loader.loadBinding()).toThrow(expect.objectContaining({ code: 'INVALID_BACKEND' }));
    });

    it('cpu selects the CPU backend', async () => {
      const loader = await freshLoader('cpu');
      expect(loader.backendInfo()).toMatchObject({ backend: 'cpu', requested: 'cpu', fallbackReason: undefined });
    });

    it('cuda on a machine without a GPU fails with a reason instead of crashing', async () => {
      const loader = await freshLoader('cuda');
      let error: unknown;
      try {
        loader.loadBinding();
      } catch (caught) {
        error = caught;
      }
      if (loader.findCudaBinary() === undefined) {
        expect(error).toMatchObject({ code: 'NATIVE_BINARY_NOT_FOUND' });
        expect(String((error as Error).message)).toMatch(/build-cuda/);
      } else if (error !== undefined) {
        expect(error).toMatchObject({ code: 'BACKEND_UNAVAILABLE' });
      } else {
        expect(loader.backendInfo().backend).toBe('cuda');
      }
    });
  });
});
