// Reads the LAMMPS input files that potentials ship as `include` files (X.snap, X.mliap): the commands of
// each line as LAMMPS's input parser sees them: `#` starts a comment, a line ending in `&` goes on with the
// next, `variable NAME equal|index|string VALUE` defines a variable and `${NAME}` (or `$N` for a one-letter
// name) substitutes it. What the commands mean is the caller's (lib/models/snap-file.ts).
import { dirname } from 'node:path';

import { HookmdError } from '../errors.js';
import { readStructureText } from '../io/structure-text.js';

/** One command of the file after substitution, with the 1-based line it starts on. */
export interface LammpsCommand {
  readonly name: string;
  readonly args: readonly string[];
  readonly line: number;
}

/** The commands of an include file, and the folder its relative file names resolve against. */
export interface LammpsInclude {
  readonly file: string;
  readonly folder: string;
  readonly commands: readonly LammpsCommand[];
}

/** One non-empty line of a potential file, its `#` comment cut, as words, with its 1-based number. */
export interface WordLine {
  readonly words: readonly string[];
  readonly line: number;
}

/** The non-empty lines of `text` as words, comments cut: how LAMMPS's potential readers see a parameter file. */
export function wordLines(text: string): WordLine[] {
  const out: WordLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const hash = raw.indexOf('#');
    const words = (hash < 0 ? raw : raw.slice(0, hash)).trim().split(/\s+/).filter((w) => w !== '');
    if (words.length > 0) out.push({ words, line: index + 1 });
  });
  return out;
}

/** A LAMMPS_PARSE error naming the model, the file and the line. */
export function includeError(model: string, file: string, line: number, message: string): HookmdError {
  return new HookmdError('LAMMPS_PARSE', `${model}: ${file}:${line}: ${message}`, { file, line });
}

function substitute(model: string, file: string, line: number, text: string, variables: ReadonlyMap<string, string>): string {
  return text.replace(/\$\{([^}]*)\}|\$([A-Za-z0-9_])/g, (_, braced: string | undefined, single: string | undefined) => {
    const name = (braced ?? single) as string;
    const value = variables.get(name);
    if (value === undefined) throw includeError(model, file, line, `variable ${name} is used before it is defined`);
    return value;
  });
}

/**
 * Reads `file` into its commands. `variable` lines are applied, not returned: `equal` variables must be
 * numbers (hookmd evaluates no formulas), and an `index` variable already defined keeps its value, as in
 * LAMMPS. Throws READ_FAILED or LAMMPS_PARSE (file and line).
 */
export function readLammpsInclude(model: string, file: string): LammpsInclude {
  const text = readStructureText(model, file);
  const variables = new Map<string, string>();
  const commands: LammpsCommand[] = [];
  const lines = text.split(/\r?\n/);
  for (let k = 0; k < lines.length; k++) {
    const start = k + 1;
    let joined = '';
    // A line ending in & (after its comment is cut) continues on the next.
    for (;;) {
      const raw = lines[k] as string;
      const hash = raw.indexOf('#');
      const code = (hash < 0 ? raw : raw.slice(0, hash)).trimEnd();
      if (code.endsWith('&') && k + 1 < lines.length) {
        joined += `${code.slice(0, -1)} `;
        k++;
        continue;
      }
      joined += code.endsWith('&') ? code.slice(0, -1) : code;
      break;
    }
    const words = substitute(model, file, start, joined, variables).trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) continue;
    const [name, ...args] = words as [string, ...string[]];
    if (name !== 'variable') {
      commands.push({ name, args, line: start });
      continue;
    }
    const [variable, style, value, ...rest] = args;
    if (variable === undefined || style === undefined || value === undefined) {
      throw includeError(model, file, start, `variable needs a name, a style and a value, got '${args.join(' ')}'`);
    }
    if (style === 'equal') {
      if (rest.length > 0 || !Number.isFinite(Number(value))) {
        throw includeError(model, file, start, `variable ${variable} equal '${[value, ...rest].join(' ')}': hookmd reads equal-style variables that are plain numbers`);
      }
      variables.set(variable, value);
    } else if (style === 'index' || style === 'string') {
      if (style === 'string' || !variables.has(variable)) variables.set(variable, value);
    } else {
      throw includeError(model, file, start, `variable style '${style}' is not one hookmd reads (equal, index, string)`);
    }
  }
  return { file, folder: dirname(file), commands };
}
