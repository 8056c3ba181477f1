// Issue 39, item 29: register(hook, stage) with the stage positional threw "options must be an object" with
// no pointer to { stage }.
import { describe, expect, it } from 'vitest';

import { DynamicsStage, FIRE } from '../../lib/dynamics/index.js';
import { HookRegistry } from '../../lib/hooks/index.js';
import { LennardJones } from '../../lib/models/index.js';

const POINTER = expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('register(hook, { stage: AFTER_STEP }), not register(hook, AFTER_STEP)') });

describe('a positional stage in register names { stage } (issue 39, item 29)', () => {
  it('on a registry and on an engine', () => {
    const hook = { frequency: 1, call: () => undefined };
    expect(() => new HookRegistry(DynamicsStage).register(hook as never, DynamicsStage.AFTER_STEP as never)).toThrow(POINTER);
    const fire = new FIRE({ model: new LennardJones({ epsilon: 1, sigma: 1, cutoff: 2.5 }) });
    expect(() => fire.register(hook as never, DynamicsStage.AFTER_STEP as never)).toThrow(POINTER);
    expect(() => new HookRegistry(DynamicsStage).register(hook as never, 'soon' as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('such as { stage }; got') }));
  });
});
