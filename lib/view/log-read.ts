// Reads the logs of LoggingHook (one row per system and step) and TrainingLoggingHook (one row per epoch
// or step), csv or jsonl, into rows of numbers for the view page.
import { readFileSync } from 'node:fs';

import { columnName } from '../dynamics/hooks/log-units.js';
import { HookmdError } from '../errors.js';

/**
 * A parsed log: which hook wrote it, and its rows (cells that are not numbers become null). 'dynamics' is a
 * LoggingHook log or an MSD/VACF series (`step`, `systemId`, the value), 'rdf' an RdfHook file of `hookmd run`.
 */
export interface ParsedLog {
  kind: 'dynamics' | 'training' | 'rdf';
  rows: Array<Record<string, number | null>>;
}

/** RFC 4180 cells of a csv text: quoted cells may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function kindOf(path: string, names: readonly string[]): ParsedLog['kind'] {
  if (names.includes('epoch') && names.includes('loss')) return 'training';
  if (names.includes('step') && (names.includes('system') || names.includes('systemId'))) return 'dynamics';
  if (['systemId', 'r', 'g'].every((name) => names.includes(name))) return 'rdf';
  const found = names.slice(0, 8).join(', ');
  throw new HookmdError('VIEW_UNKNOWN_LOG', `view: ${path} is not a LoggingHook, TrainingLoggingHook, MSD, VACF or RDF log (columns: ${found})`, { path });
}

/**
 * Reads a LoggingHook or TrainingLoggingHook log; jsonl when the text starts with `{`, csv otherwise.
 *
 * @example
 * const log = readLog('md.csv'); // { kind: 'dynamics', rows: [{ step: 0, system: 0, energy: -3.2, … }, …] }
 */
export function readLog(path: string): ParsedLog {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HookmdError('VIEW_READ_FAILED', `view: cannot read ${path}: ${(error as Error).message}`, { path }, { cause: error });
  }
  if (text.trimStart().startsWith('{')) {
    const records: Array<Record<string, unknown>> = [];
    for (const [n, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        throw new HookmdError('VIEW_BAD_LOG', `view: ${path} line ${n + 1} is not JSON`, { path, line: n + 1 });
      }
    }
    // TrainingLoggingHook's first jsonl line is the run metadata, not a row.
    const rows = records.filter((r) => r.event === undefined);
    const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    return { kind: kindOf(path, names), rows: rows.map((r) => Object.fromEntries(names.map((k) => [k, numeric(r[k])]))) };
  }
  const [cells = [], ...body] = parseCsv(text);
  // LoggingHook names each column's unit in the header (`energy[eV]`); rows are keyed by the bare name.
  const header = cells.map(columnName);
  const kind = kindOf(path, header);
  return { kind, rows: body.filter((cells) => cells.some((c) => c !== '')).map((cells) => Object.fromEntries(header.map((k, i) => [k, numeric(cells[i])]))) };
}
