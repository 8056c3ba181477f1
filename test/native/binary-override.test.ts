// HOOKMD_BINARY names the CPU addon file outright; `npm run test:asan` loads its sanitizer build that way,
// and this file (in its list) proves the sanitizer build is the one under test.
import { resolve } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { backendInfo, findCpuBinary } from '../../lib/native/index.js';

describe('HOOKMD_BINARY', () => {
  const original = process.env.HOOKMD_BINARY;
  afterEach(() => {
    if (original === undefined) delete process.env.HOOKMD_BINARY;
    else process.env.HOOKMD_BINARY = original;
  });

  it('overrides where the CPU addon is looked for', () => {
    process.env.HOOKMD_BINARY = 'somewhere/else/hookmd.node';
    expect(findCpuBinary()).toBe(resolve('somewhere/else/hookmd.node'));
  });

  it('is the binary that was loaded, when set', () => {
    // Without it: the source build or prebuild, or on a GPU the CUDA build that auto or cuda loads.
    if (original === undefined) expect(backendInfo().binary).toMatch(/build(-cuda)?[/\\]Release[/\\]hookmd(_cuda)?\.node$|prebuilds/);
    else expect(backendInfo().binary).toBe(resolve(original));
  });
});
