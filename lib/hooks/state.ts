// hookmd hook kernel: state keys (Rule 10). A hook's state is saved under its name, or under
// `name#<hash>` where the hash is FNV-1a of the canonical JSON of its config, so two hooks of one class
// with different settings get different keys, and the same settings get the same key in every run.

/** JSON with object keys sorted, so that equal configs give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'bigint') return v.toString();
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map(walk);
    else if (ArrayBuffer.isView(v)) out = Array.from(v as unknown as ArrayLike<number>);
    else {
      const obj: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) obj[key] = walk((v as Record<string, unknown>)[key]);
      out = obj;
    }
    // Only the current path counts as a cycle; an object shared by two branches is written twice.
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'undefined';
}

/** 32-bit FNV-1a of a string, as 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The checkpoint key of a stateful hook: `stateKey` if set, else `name` when there is no config, else
 * `name#<fnv1a(canonicalJson(config))>`.
 */
export function deriveStateKey(name: string, stateKey: unknown, config: unknown): string {
  if (typeof stateKey === 'string' && stateKey !== '') return stateKey;
  return config === undefined ? name : `${name}#${fnv1a(canonicalJson(config))}`;
}
