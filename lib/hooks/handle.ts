// hookmd hook kernel: the handle `register()` returns (Rule 9). It is also a disposer, so
// `using handle = registry.register(hook)` unregisters the hook at the end of the block.

import type { HookRecord } from './record.js';

/** What a handle asks of its registry (the registry's core implements it). */
export interface HandleOwner {
  remove(rec: HookRecord): void;
  setEnabled(rec: HookRecord, enabled: boolean): void;
}

/**
 * Controls one registration.
 *
 * @example
 * const handle = registry.register(hook);
 * handle.disable();   // skipped, and out of nextDue, until enable()
 * handle.enable();
 * handle.remove();    // gone for good (idempotent)
 * { using tmp = registry.register(other); } // removed here
 */
export class HookHandle<H> {
  readonly #core: HandleOwner;
  readonly #rec: HookRecord;

  constructor(core: HandleOwner, rec: HookRecord) {
    this.#core = core;
    this.#rec = rec;
  }

  /** The registered hook object. */
  get hook(): H {
    return this.#rec.hook as H;
  }

  /** The name the registry shows for it. */
  get name(): string {
    return this.#rec.name;
  }

  /** True while registered and enabled. */
  get enabled(): boolean {
    return this.#rec.enabled;
  }

  /** True until `remove()` (or errorPolicy 'disable') unregistered it. */
  get registered(): boolean {
    return this.#rec.registered;
  }

  /** Unregisters the hook; later calls do nothing. */
  remove(): void {
    this.#core.remove(this.#rec);
  }

  /** Makes a disabled hook fire again; no effect after `remove()`. */
  enable(): void {
    this.#core.setEnabled(this.#rec, true);
  }

  /** Stops the hook from firing (it stays listed, and its state stays in checkpoints). */
  disable(): void {
    this.#core.setEnabled(this.#rec, false);
  }

  /** Same as `remove()`. */
  [Symbol.dispose](): void {
    this.remove();
  }
}
