// Checkpoint file names from a template, as trainer users write them (PyTorch Lightning's ModelCheckpoint):
// '{epoch}', '{step}' and any metric, `val/loss` as well as `val_loss`, each optionally formatted with a
// Python format spec ('{val/loss:.2f}', '{lr:.3e}', '{epoch:04d}'). The template is parsed and its keys
// checked when the hook is made, so a typo fails at construction, never at save time. A '/' of a metric
// name becomes '_' in the file name.
import { HookmdError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import { findMetric, isTrainerMetric, metricKey } from '../metric-names.js';

const FIELD = /\{([^{}:]*)(?::([^{}]*))?\}/g;
const NAME = /^[A-Za-z_][\w./-]*$/;
const SPEC = /^(0)?(\d+)?(?:\.(\d+))?([dfe])?$/;

interface Field {
  readonly name: string;
  readonly zero: boolean;
  readonly width: number;
  readonly precision: number | null;
  readonly type: 'd' | 'f' | 'e' | null;
}

/**
 * Options of {@link checkpointFilename} and {@link FilenameTemplate}.
 *
 * @example
 * const options: FilenameTemplateOptions = { autoInsertMetricName: true, metrics: ['my_score'] };
 */
export interface FilenameTemplateOptions {
  /** Write each field as `name=value` (Lightning's auto_insert_metric_name; default false). */
  readonly autoInsertMetricName?: boolean;
  /** Metric names that hooks add, besides `epoch`, `step` and the trainer's own metrics. */
  readonly metrics?: readonly string[];
}

/**
 * A parsed checkpoint filename template.
 *
 * @example
 * const template = new FilenameTemplate('epoch_{epoch}_loss_{val/loss:.2f}', 'CheckpointHook');
 * template.format({ epoch: 3, val_loss: 0.1234 }); // 'epoch_3_loss_0.12'
 */
export class FilenameTemplate {
  readonly template: string;
  readonly autoInsertMetricName: boolean;
  readonly #fields: readonly Field[];

  /** Parses `template`; INVALID_FILENAME_TEMPLATE for a bad field or spec, UNKNOWN_TEMPLATE_KEY for an unknown key. */
  constructor(template: string, owner: string, options: FilenameTemplateOptions = {}) {
    checkKeys(owner, options, ['autoInsertMetricName', 'metrics'], '', { auto_insert_metric_name: 'autoInsertMetricName' });
    this.template = template;
    this.autoInsertMetricName = options.autoInsertMetricName === true;
    const declared = new Set((options.metrics ?? []).map(metricKey));
    const fields: Field[] = [];
    const bad = (problem: string, value: string): never => {
      throw new HookmdError('INVALID_FILENAME_TEMPLATE', `${owner}: filename '${template}': ${problem}`, { field: 'filename', value });
    };
    for (const match of template.matchAll(FIELD)) {
      const [whole, name, spec] = match;
      if (!NAME.test(name)) bad(`'${whole}' does not name a key ({epoch}, {step} or a metric such as {val/loss})`, whole);
      const parts = spec === undefined ? null : SPEC.exec(spec);
      if (spec !== undefined && (parts === null || spec === '' || (parts[3] !== undefined && parts[4] === undefined))) {
        bad(`'${whole}' has an unsupported format spec (use :.2f, :.3e, :04d)`, whole);
      }
      const key = metricKey(name);
      if (key !== 'epoch' && key !== 'step' && !isTrainerMetric(key) && !declared.has(key)) {
        throw new HookmdError(
          'UNKNOWN_TEMPLATE_KEY',
          `${owner}: filename '${template}' names '${name}', which is neither epoch, step, a trainer metric nor one of the declared metrics; ` +
            "list the metrics your hooks add in the 'metrics' option",
          { field: 'filename', value: name },
        );
      }
      fields.push({
        name,
        zero: parts?.[1] === '0',
        width: parts?.[2] === undefined ? 0 : Number(parts[2]),
        precision: parts?.[3] === undefined ? null : Number(parts[3]),
        type: (parts?.[4] as Field['type'] | undefined) ?? null,
      });
    }
    const rest = template.replace(FIELD, '');
    if (rest.includes('{') || rest.includes('}')) bad('has an unmatched { or }', template);
    this.#fields = fields;
  }

  /** The file name (without extension) for `values`; a key without a value is written as 'nan'. */
  format(values: Readonly<Record<string, number>>): string {
    let i = 0;
    const text = this.template.replace(FIELD, () => {
      const field = this.#fields[i++];
      const value = findMetric(values, field.name) ?? Number.NaN;
      const formatted = formatNumber(value, field);
      return this.autoInsertMetricName ? `${field.name}=${formatted}` : formatted;
    });
    return text.replaceAll('/', '_');
  }
}

/**
 * `template` filled from `values` (parsed and checked each call; hooks parse once, at construction).
 *
 * @example
 * checkpointFilename('fit-{epoch:03d}-{val_loss:.3f}', { epoch: 7, val_loss: 0.01234 }, 'CheckpointHook'); // 'fit-007-0.012'
 * checkpointFilename('epoch_{epoch}_loss_{val/loss:.2f}', { epoch: 3, val_loss: 0.1234 }, 'CheckpointHook'); // 'epoch_3_loss_0.12'
 */
export function checkpointFilename(template: string, values: Readonly<Record<string, number>>, owner: string, options: FilenameTemplateOptions = {}): string {
  const extra = Object.keys(values);
  return new FilenameTemplate(template, owner, { ...options, metrics: [...(options.metrics ?? []), ...extra] }).format(values);
}

// Python's format() for the supported specs: nan/inf spelt as Python does, exponents with two digits.
function formatNumber(value: number, field: Field): string {
  let text: string;
  if (!Number.isFinite(value)) text = Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  else if (field.type === 'f') text = value.toFixed(field.precision ?? 6);
  else if (field.type === 'e') text = value.toExponential(field.precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
  else if (field.type === 'd') text = String(Math.trunc(value));
  else text = String(value);
  if (text.length >= field.width) return text;
  if (!field.zero || !Number.isFinite(value)) return text.padStart(field.width, ' ');
  const sign = text.startsWith('-') ? '-' : '';
  return sign + text.slice(sign.length).padStart(field.width - sign.length, '0');
}
