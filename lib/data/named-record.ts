// Records whose keys are names a user chose (metrics, log columns): a name is data, never a member of
// Object.prototype. `row[name] = v` with name '__proto__' would replace the prototype instead of adding a
// field, and `columns[name] ?? …` with name 'constructor' finds Object's constructor.

/**
 * @internal An empty record with no prototype: every key, '__proto__' and 'constructor' included, is
 * absent until it is set, and setting it adds an own field.
 */
export function namedRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** @internal Sets `record[name] = value` as an own, enumerable field, whatever `name` is. */
export function setNamed<T>(record: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}
