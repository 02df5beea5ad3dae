import { createObjectCsvStringifier } from 'csv-writer';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { algorithms } from '../algorithm/registry.ts';

/**
 * The columns of metrics.csv that every run fills, one row per iteration;
 * docs/training.md lists them too. Each algorithm adds its own (its
 * descriptor's `metrics`), which runs of other algorithms leave empty.
 */
export const METRIC_COLUMNS = [
  ['iteration', 'iterations completed'],
  ['elapsed_s', 'training time so far, seconds (evaluation included)'],
  ['games', 'self-play games finished so far'],
  ['plies', 'self-play plies so far (all seats)'],
  ['samples', 'learner samples so far'],
  ['perf/plies_per_s', 'self-play plies per second in this iteration, inference included'],
  ['perf/update_samples_per_s', 'samples per second in the update (epochs counted)'],
  [
    'update/gradient_backend',
    "where this iteration's update computed its gradients: `onnx` (onnxruntime-node, with Adam in WebAssembly) or `tfjs` (with tfjs's Adam); the two Adams give the same floats",
  ],
  [
    'losses/policy',
    "policy loss (PPO clipped surrogate, REINFORCE, or expert iteration's cross-entropy towards the search's policy), mean over minibatches",
  ],
  [
    'losses/value',
    "value loss (mean squared error against the GAE returns, or expert iteration's value targets)",
  ],
  ['losses/entropy', 'mean policy entropy over legal actions, nats'],
  ['charts/learning_rate', 'learning rate in this iteration'],
  ['charts/mean_game_plies', 'mean length of the self-play games finished in this iteration'],
  [
    'eval/errors_vs_perfect_play',
    "share of the accuracy benchmark's positions (evalAccuracyPositions of them) where the policy's move loses value against perfect play (latest evaluation)",
  ],
  [
    'eval/value_sign_accuracy',
    "share of those positions, won or lost, where the sign of the value head's estimate is the exact result (latest evaluation)",
  ],
] as const;

const groupOf = (id: string): string => id.split('/')[0] as string;

/**
 * Every column: the shared ones, and each registered algorithm's own placed
 * after the last column of its group (`losses/`, `charts/`), or before the
 * evaluation's when its group is new, so that all runs share one header.
 */
export function metricColumns(): readonly string[] {
  const ids: string[] = METRIC_COLUMNS.map(([id]) => id);
  for (const descriptor of algorithms()) {
    for (const [id] of descriptor.metrics) {
      const last = ids.findLastIndex((known) => groupOf(known) === groupOf(id));
      const at = last >= 0 ? last + 1 : ids.findIndex((known) => groupOf(known) === 'eval');
      ids.splice(at, 0, id);
    }
  }
  return ids;
}

/** Evaluation columns are added per baseline: `eval/score_vs_<spec>` (latest evaluation). */
export function evalColumn(spec: string): string {
  return `eval/score_vs_${spec}`;
}

export type MetricsRow = Record<string, number | string>;

/** A row with every column empty: the columns an algorithm does not fill stay so. */
export function emptyMetricsRow(): MetricsRow {
  return Object.fromEntries(metricColumns().map((id) => [id, '']));
}

/**
 * Writes the whole metrics table atomically with csv-writer. Its evaluation
 * columns are the current baselines' and then any earlier ones the rows hold:
 * a run resumed with other `--eval-opponents` keeps the scores it had.
 */
export function writeMetricsCsv(
  path: string,
  rows: readonly MetricsRow[],
  evalSpecs: readonly string[],
): void {
  const evalIds = new Set(evalSpecs.map(evalColumn));
  const prefix = evalColumn('');
  for (const row of rows) {
    for (const id of Object.keys(row)) if (id.startsWith(prefix)) evalIds.add(id);
  }
  const ids = [...metricColumns(), ...evalIds];
  const csv = createObjectCsvStringifier({ header: ids.map((id) => ({ id, title: id })) });
  const formatted = rows.map((row) => {
    const out: Record<string, string> = {};
    for (const id of ids) {
      const v = row[id];
      out[id] = v === undefined ? '' : typeof v === 'number' ? formatNumber(v) : v;
    }
    return out;
  });
  writeFileAtomic(path, (csv.getHeaderString() ?? '') + csv.stringifyRecords(formatted));
}

function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Number(v.toPrecision(6)).toString();
}
