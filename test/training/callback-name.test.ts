// Issue 39, item 25: `super('my_custom_hook')` in a TrainingCallback subclass (seed 003's way to name a hook)
// was ignored; the hook was listed under its class name.
import { describe, expect, it } from 'vitest';

import { TrainingCallback } from '../../lib/training/index.js';
import type { TrainingHookContext } from '../../lib/training/index.js';
import { makeTrainer } from './fixtures.js';

class Named extends TrainingCallback {
  epochs = 0;
  constructor() {
    super('my_custom_hook');
  }

  override onEpochEnd(_ctx: TrainingHookContext): void {
    this.epochs += 1;
  }
}

class Plain extends TrainingCallback {
  override onEpochEnd(): void {}
}

describe("TrainingCallback takes its name from super(name) (issue 39, item 25)", () => {
  it('names the hook in the registry, and it fires', async () => {
    const hook = new Named();
    expect(hook.name).toBe('my_custom_hook');
    const trainer = makeTrainer({ epochs: 2, hooks: [hook, new Plain()] });
    const names = trainer.hooks.list().map((info) => info.name);
    expect(names).toContain('my_custom_hook');
    expect(trainer.hooks.get('my_custom_hook')).toBeDefined();
    await trainer.fit();
    expect(hook.epochs).toBe(2);
  });

  it('a name that is not a non-empty string is INVALID_OPTIONS', () => {
    class Bad extends TrainingCallback {
      constructor() {
        super(42 as never);
      }
    }
    expect(() => new Bad()).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
