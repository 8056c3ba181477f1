// The neighbor-list build and the EAM pair loops' radial stage have a scalar, an AVX2 and an AVX-512 body,
// the single-species Lennard-Jones loop a plain and a tiled AVX2 one, and SNAP's lanes a plain and an AVX2 one, picked at run time
// (docs/performance.md, "SIMD"). All must give the same lists and the same numbers, so the same forces to
// the last bit. A process picks its body once,
// so each runs in a child: as the machine chooses, with HOOKMD_SIMD=avx2 and with HOOKMD_SIMD=off.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt, ROOT } from '../cli/run-cli.js';

const SCRIPT = join(ROOT, 'test', 'models', 'simd', 'compute.mjs');
const LIBRARY = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;

interface ChildOutput {
  cpuSimd: string;
  results: Record<string, { pairs: number; energy: string; forces: string; stress: string }>;
}

function spawnCompute(simd: string | undefined): SpawnSyncReturns<string> {
  const env = { ...process.env };
  if (simd === undefined) delete env.HOOKMD_SIMD;
  else env.HOOKMD_SIMD = simd;
  return spawnSync(process.execPath, [SCRIPT, LIBRARY], { encoding: 'utf8', env, timeout: 120_000 });
}

function compute(simd: string | undefined): ChildOutput {
  const child = spawnCompute(simd);
  expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(child.stdout) as ChildOutput;
}

describe('SIMD bodies', () => {
  beforeAll(() => ensureBuilt());

  it('HOOKMD_SIMD=avx2 and =off give the same neighbor lists, energies, forces and stress, bit for bit', () => {
    const native = compute(undefined);
    const avx2 = compute('avx2');
    const baseline = compute('off');
    expect(baseline.cpuSimd).toBe('baseline');
    // A CPU without AVX-512 (or AVX2) runs fewer distinct bodies, and then this checks fewer of them.
    expect(['avx512', 'avx2', 'baseline']).toContain(native.cpuSimd);
    if (native.cpuSimd !== 'baseline') expect(avx2.cpuSimd).toBe('avx2');
    // Three pair potentials (one switched) at 1 and 2 threads, and two EAM potentials and SNAP where Debian's
    // lammps-data is installed.
    expect(Object.keys(native.results)).toHaveLength(existsSync('/usr/share/lammps/potentials') ? 12 : 6);
    for (const [name, result] of Object.entries(native.results)) {
      expect(result.pairs, name).toBeGreaterThan(0);
      expect(avx2.results[name], name).toEqual(result);
      expect(baseline.results[name], name).toEqual(result);
    }
  });

  it('a misspelt HOOKMD_SIMD is a typed error at first use, not silently ignored', () => {
    const child = spawnCompute('avx-512');
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('INVALID_SIMD');
    expect(child.stderr).toContain('HOOKMD_SIMD: must be one of auto, avx512, avx2, off, got "avx-512"');
  });
});
