// Issue 39, item 28: `new HookRegistry([StageA, StageB])` was refused; upstream takes a tuple of stage enums.
import { describe, expect, it } from 'vitest';

import { HookRegistry } from '../../lib/hooks/index.js';

enum Load { READ = 'read', PARSE = 'parse' }
enum Save { WRITE = 'write' }
enum First { A, B }
enum Second { C, D }

describe('a registry over several stage sets (issue 39, item 28)', () => {
  it('takes [StageA, StageB]: hooks of either set register, fire, and method hooks map by name', async () => {
    const registry = new HookRegistry([Load, Save]);
    const seen: string[] = [];
    registry.register({ stage: Load.READ, frequency: 1, call: () => void seen.push('read') });
    registry.register({ stage: Save.WRITE, frequency: 1, call: () => void seen.push('write') });
    registry.register({ onParse: () => void seen.push('parse') });
    await registry.dispatch(Load.READ, { stepCount: 0 });
    await registry.dispatch(Load.PARSE, { stepCount: 0 });
    await registry.dispatch(Save.WRITE, { stepCount: 0 });
    expect(seen).toEqual(['read', 'parse', 'write']);
    expect(registry.list().map((info) => info.stage)).toEqual(['READ', 'WRITE', 'PARSE']);
  });

  it('sets whose values collide are INVALID_STAGE_SET naming the stages', () => {
    expect(() => new HookRegistry([First, Second])).toThrow(expect.objectContaining({ code: 'INVALID_STAGE_SET', message: expect.stringMatching(/stages\[1\]\.C \(0\) collides with A/) }));
    expect(() => new HookRegistry([])).toThrow(expect.objectContaining({ code: 'INVALID_STAGE_SET' }));
  });
});
