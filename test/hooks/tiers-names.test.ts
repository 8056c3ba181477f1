// Tiers (user hooks before built-ins, `order` within a tier), unique names with #2 suffixes, the
// registry's by-name management, the 'ignore' error policy, and config entries by module path.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { HookRegistry, registerHookType, type StepContext } from '../../lib/hooks/index.js';

enum Stage {
  LOAD,
  SAVE,
}

const recorder = (seen: string[]) => (name: string, extra: Record<string, unknown> = {}) => ({
  name, stage: Stage.SAVE, frequency: 1, call: () => void seen.push(name), ...extra,
});

describe('tiers', () => {
  it('run user hooks before built-ins at every stage, whatever the registration order; order sorts within a tier', () => {
    const seen: string[] = [];
    const hook = recorder(seen);
    const registry = new HookRegistry(Stage);
    registry.register(hook('builtin-late', { tier: 'builtin', order: 5 }));
    registry.register(hook('builtin', { tier: 'builtin' }));
    registry.register(hook('user'));
    registry.register(hook('user-first', { order: -1 }));
    registry.register(hook('user-last', { order: 10 }));
    registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(seen).toEqual(['user-first', 'user', 'user-last', 'builtin', 'builtin-late']);
    expect(registry.list().map((row) => `${row.name}:${row.tier}:${row.order}`)).toEqual([
      'user-first:user:-1', 'user:user:0', 'user-last:user:10', 'builtin:builtin:0', 'builtin-late:builtin:5',
    ]);
  });
});

describe('names', () => {
  it('are unique within a registry: duplicates get #2, #3 and are listed that way; handles keep working', () => {
    const seen: string[] = [];
    const registry = new HookRegistry(Stage);
    const first = registry.register({ name: 'Logger', stage: Stage.SAVE, frequency: 1, call: () => void seen.push('1') });
    const second = registry.register({ name: 'Logger', stage: Stage.SAVE, frequency: 1, call: () => void seen.push('2') });
    const third = registry.register({ name: 'Logger', stage: Stage.SAVE, frequency: 1, call: () => void seen.push('3') });
    expect([first.name, second.name, third.name]).toEqual(['Logger', 'Logger#2', 'Logger#3']);
    expect(registry.list().map((row) => row.name)).toEqual(['Logger', 'Logger#2', 'Logger#3']);
    second.disable();
    registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(seen).toEqual(['1', '3']);
    first.remove();
    // The freed name is taken by the next hook that wants it.
    expect(registry.register({ name: 'Logger', stage: Stage.LOAD, frequency: 1, call: () => {} }).name).toBe('Logger');
  });

  it('remove, enable, disable and get by name; a Hook suffix may be left out; unknown names are typed errors', () => {
    const seen: string[] = [];
    const hook = recorder(seen);
    const registry = new HookRegistry(Stage);
    registry.register(hook('EarlyStoppingHook'));
    registry.register(hook('Printer'));
    registry.register(hook('Printer', { call: () => void seen.push('second Printer') }));
    expect(registry.get('Printer#2')?.name).toBe('Printer#2');
    expect(registry.get('EarlyStopping')?.name).toBe('EarlyStoppingHook');
    expect(registry.get('Nope')).toBeUndefined();
    registry.disable('Printer');
    registry.dispatch(Stage.SAVE, { stepCount: 0 });
    registry.enable('Printer');
    registry.remove('EarlyStopping');
    registry.dispatch(Stage.SAVE, { stepCount: 1 });
    expect(seen).toEqual(['EarlyStoppingHook', 'second Printer', 'Printer', 'second Printer']);
    expect(registry.list().map((row) => [row.name, row.enabled])).toEqual([['Printer', true], ['Printer#2', true]]);
    expect(() => registry.remove('EarlyStopping')).toThrow(expect.objectContaining({ code: 'UNKNOWN_HOOK_NAME', details: expect.objectContaining({ known: ['Printer', 'Printer#2'] }) }));
    registry.register(hook('ClipHook'));
    registry.register(hook('Clip'));
    expect(registry.get('Clip')?.name).toBe('Clip');
    registry.register(hook('ScaleHook', { stage: Stage.LOAD }));
    registry.register(hook('ScaleHook#9', { stage: Stage.LOAD }));
    expect(registry.get('Scale')?.name).toBe('ScaleHook');
  });
});

describe("errorPolicy 'ignore'", () => {
  it('a throwing hook changes nothing: the dispatch goes on, nothing is logged, the hook stays', () => {
    const run = (withBad: boolean): { seen: string[]; warned: string[]; listed: number } => {
      const seen: string[] = [];
      const warned: string[] = [];
      const registry = new HookRegistry(Stage, { logger: { warn: (m) => void warned.push(m) } });
      registry.register({ name: 'a', stage: Stage.SAVE, frequency: 1, call: (ctx: StepContext) => void seen.push(`a${ctx.stepCount}`) });
      if (withBad) {
        registry.register({ name: 'bad', stage: Stage.SAVE, frequency: 1, errorPolicy: 'ignore', call: () => {
          throw new Error('ignored');
        } });
      }
      registry.register({ name: 'b', stage: Stage.SAVE, frequency: 1, call: (ctx: StepContext) => void seen.push(`b${ctx.stepCount}`) });
      for (let step = 0; step < 3; step++) registry.dispatch(Stage.SAVE, { stepCount: step });
      return { seen, warned, listed: registry.size - (withBad ? 1 : 0) };
    };
    const clean = run(false);
    const ignored = run(true);
    expect(ignored).toEqual(clean);
    expect(ignored.warned).toEqual([]);
  });

  it('an async rejection under ignore is swallowed too', async () => {
    const registry = new HookRegistry(Stage, { logger: { warn: () => {
      throw new Error('must not log');
    } } });
    registry.register({ stage: Stage.SAVE, frequency: 1, errorPolicy: 'ignore', call: async () => {
      throw new Error('later');
    } });
    await registry.dispatch(Stage.SAVE, { stepCount: 0 });
    expect(registry.size).toBe(1);
  });
});

// The module's own `seen` list: the same module instance the registry loaded (require's cache).
function seenByModule(dir: string): string[] {
  return (createRequire(join(dir, 'x.js'))('./my-hooks.js') as { seen: string[] }).seen;
}

describe('config entries', () => {
  it('take errorPolicy and order for any type, and load types by module path relative to baseDir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hookmd-module-hooks-'));
    try {
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(join(dir, 'my-hooks.js'), [
        'export const seen = [];',
        'export class Tagger {',
        '  constructor(args) { this.tag = args.tag; }',
        '  onSave(ctx) { seen.push(`${this.tag}@${ctx.stepCount}`); }',
        '}',
        'export function makeFailing() { return { stage: 1, frequency: 1, call() { throw new Error("x"); } }; }',
        '',
      ].join('\n'));
      registerHookType('TierProbe', () => ({ stage: Stage.SAVE, frequency: 1, call: () => void order.push('probe') }));
      const order: string[] = [];
      const registry = new HookRegistry(Stage, { logger: { warn: () => void order.push('warned') } });
      const handles = registry.fromConfig([
        { type: 'TierProbe', order: 3 },
        { type: './my-hooks.js#Tagger', tag: 'T', order: 1 },
        { type: './my-hooks.js#makeFailing', errorPolicy: 'warn' },
      ], { baseDir: dir });
      expect(handles.map((h) => h.name)).toEqual(['hook#0', 'Tagger', 'hook#2']);
      registry.dispatch(Stage.SAVE, { stepCount: 0 });
      expect(registry.list().map((row) => [row.name, row.order])).toEqual([['hook#2', 0], ['Tagger', 1], ['hook#0', 3]]);
      expect(order).toEqual(['warned', 'probe']);
      expect(seenByModule(dir)).toEqual(['T@0']);
      expect(() => registry.fromConfig([{ type: './missing.js#X' }], { baseDir: dir })).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }));
      expect(() => registry.fromConfig([{ type: './my-hooks.js#Nope' }], { baseDir: dir })).toThrow(expect.objectContaining({ code: 'UNKNOWN_HOOK' }));
      expect(() => registry.fromConfig([{ type: './my-hooks.js#Tagger', errorPolicy: 'sometimes' }], { baseDir: dir }))
        .toThrow(expect.objectContaining({ code: 'INVALID_ERROR_POLICY' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
