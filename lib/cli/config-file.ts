// Reads a YAML or JSON file (JSON is YAML 1.2), checks it against a schema, and turns every problem into
// a line that points into the file: `run.yaml:12: hooks[2].frequency: must be an integer ≥ 1, got 0`.

import { LineCounter, parseDocument, type Document } from 'yaml';

import { HookmdTypeError } from '../errors.js';
import { readRegularFile } from '../regular-file.js';
import { MAX_YAML_ALIASES } from '../yaml-limits.js';
import { formatPath, validateSchema, type JsonSchema, type PathSegment, type SchemaProblem } from './json-schema.js';


/** Largest config or model-config file read (bytes): far more than any config, far less than /dev/zero. */
const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/** A parsed, schema-checked file, and a way to point at any place in it. */
export interface LoadedFile<T> {
  readonly value: T;
  /** `file:line` of the value at `path` (or of its nearest enclosing value). */
  locate(path: readonly PathSegment[]): string;
}

/**
 * The INVALID_CONFIG error (exit code 2): one line per problem, each starting with where it is.
 *
 * @example
 * throw configError(['run.yaml:4: stages[0].dt: must be a number > 0, got -1']);
 */
export function configError(lines: readonly string[], details: Record<string, unknown> = {}): HookmdTypeError {
  return new HookmdTypeError('INVALID_CONFIG', lines.join('\n'), { problems: lines, ...details });
}

/** 'hooks[2].frequency' → ['hooks', 2, 'frequency'] (the paths errors carry in `details.path`). */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g)) {
    if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(match[3] ?? match[1]);
  }
  return segments;
}

function locator(file: string, doc: Document, lines: LineCounter): (path: readonly PathSegment[]) => string {
  return (path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range !== undefined) return `${file}:${lines.linePos(range[0]).line}`;
    }
    return file;
  };
}

/** Formats schema problems as `file:line: path: problem`. */
export function describeProblems(problems: readonly SchemaProblem[], locate: (path: readonly PathSegment[]) => string): string[] {
  return problems.map(({ path, problem }) => `${locate(path)}: ${path.length === 0 ? '(top level)' : formatPath(path)}: ${problem}`);
}

/**
 * Loads `file` (YAML or JSON) and validates it against `schema`; throws INVALID_CONFIG naming every
 * problem, or the syntax error, with its line. `prepare` may rewrite the parsed value first (names to
 * their canonical spelling, a model file into its model), so the schema checks what the run will use.
 *
 * @example
 * const { value, locate } = loadConfigFile<RunConfig>('run.yaml', CONFIG_SCHEMA);
 */
export function loadConfigFile<T>(file: string, schema: JsonSchema, prepare?: (value: unknown) => void): LoadedFile<T> {
  let text: string;
  try {
    text = readRegularFile(file, MAX_CONFIG_BYTES, 'a config file').toString('utf8');
  } catch (error) {
    throw configError([`${file}: cannot read it: ${(error as Error).message}`], { path: file });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    // The message's first line, without the position it repeats (the line number leads instead).
    const describe = (message: string): string => message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw configError(doc.errors.map((error) => `${file}:${error.linePos?.[0].line ?? '?'}: ${describe(error.message)}`));
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // An alias bomb (aliases nested to expand exponentially) fails here: an input problem, exit code 2.
    throw configError([`${file}: ${(error as Error).message}`], { path: file });
  }
  const locate = locator(file, doc, lines);
  prepare?.(value);
  const problems = validateSchema(value, schema);
  if (problems.length > 0) throw configError(describeProblems(problems, locate));
  return { value: value as T, locate };
}
