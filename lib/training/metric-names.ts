// Metric names. Trainer users write `val/loss` (Lightning's logging convention) as often as `val_loss`
// (hookmd's own names): both spell the same metric, compared with every '/' read as '_'.

const TRAINER_METRICS = /^(train_loss|val_loss|val_(energy|forces|stress)_(mae|rmse)|lr|grad_norm|grad_max|grad_p\d+(\.\d+)?)$/;

/**
 * The canonical spelling of a metric name: every '/' as '_'.
 *
 * @example
 * metricKey('val/loss'); // 'val_loss'
 */
export function metricKey(name: string): string {
  return name.replaceAll('/', '_');
}

/**
 * True for the metrics the trainer and its built-in hooks write: `train_loss`, `val_loss`,
 * `val_{energy,forces,stress}_{mae,rmse}`, `lr`, `grad_norm`, `grad_max`, `grad_p<q>` (either spelling).
 *
 * @example
 * isTrainerMetric('val/forces_rmse'); // true
 */
export function isTrainerMetric(name: string): boolean {
  return TRAINER_METRICS.test(metricKey(name));
}

/**
 * The value of metric `name` in `metrics`, looked up as written and then under the other spelling
 * (`val/loss` finds `val_loss` and the other way round); undefined when there is none.
 *
 * @example
 * findMetric({ val_loss: 0.12 }, 'val/loss'); // 0.12
 */
export function findMetric(metrics: Readonly<Record<string, number>>, name: string): number | undefined {
  if (typeof metrics[name] === 'number') return metrics[name];
  const key = metricKey(name);
  for (const [k, v] of Object.entries(metrics)) if (metricKey(k) === key && typeof v === 'number') return v;
  return undefined;
}

/**
 * `metrics` seen through both spellings: reading (or `in`) a name it lacks looks it up under the other
 * spelling (`view['val/loss']` is `metrics.val_loss`); keys, writes and enumeration are the record's own.
 *
 * @example
 * metricsView({ val_loss: 0.12 })['val/loss']; // 0.12
 */
export function metricsView<T extends Record<string, number>>(metrics: T): T {
  return new Proxy(metrics, {
    get: (target, key, receiver) => (typeof key !== 'string' || Object.hasOwn(target, key) ? Reflect.get(target, key, receiver) : findMetric(target, key)),
    has: (target, key) => Reflect.has(target, key) || (typeof key === 'string' && findMetric(target, key) !== undefined),
  });
}
