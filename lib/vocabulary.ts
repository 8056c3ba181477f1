// One name per thing, and every spelling users bring for it: the CLI's `lj`, the class name `LennardJones`,
// `lennard-jones`, `LENNARDJONES`. Case, `-`, `_` and spaces never tell two names apart, so a model, an
// engine or an optimizer is found whether it was written as on the command line, in a config, or as the
// class is called.

function folded(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/**
 * A table of canonical names, each with the other spellings it accepts.
 *
 * @example
 * const models = new Vocabulary({ lj: ['LennardJones'], morse: ['Morse'] });
 * models.resolve('lennard-jones'); // 'lj'
 * models.describe();               // 'lj (LennardJones), morse (Morse)'
 */
export class Vocabulary<K extends string> {
  readonly #entries: ReadonlyArray<readonly [K, readonly string[]]>;
  readonly #lookup: ReadonlyMap<string, K>;

  constructor(entries: Readonly<Record<K, readonly string[]>>) {
    this.#entries = Object.entries(entries) as Array<[K, readonly string[]]>;
    const lookup = new Map<string, K>();
    for (const [name, aliases] of this.#entries) for (const spelling of [name, ...aliases]) lookup.set(folded(spelling), name);
    this.#lookup = lookup;
  }

  /** The canonical name `name` spells, or undefined (also for anything but a string). */
  resolve(name: unknown): K | undefined {
    return typeof name === 'string' ? this.#lookup.get(folded(name)) : undefined;
  }

  /** The canonical names, in table order. */
  get names(): readonly K[] {
    return this.#entries.map(([name]) => name);
  }

  /**
   * The canonical names (all, or those of `only`) with their first other spelling, for messages:
   * `lj (LennardJones), eam (EAM)`.
   */
  describe(only?: readonly K[]): string {
    return this.#entries
      .filter(([name]) => only === undefined || only.includes(name))
      .map(([name, aliases]) => (aliases.length === 0 ? name : `${name} (${aliases[0]})`))
      .join(', ');
  }
}
