import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createObjectCsvStringifier } from 'csv-writer';
import type * as vega from 'vega';
import { z } from 'zod';
import { chartFrame } from '../display/chart-frame.ts';
import { writeChart } from '../display/chart-render.ts';
import { table } from '../eval/report.ts';
import { writeFileAtomic } from '../files/atomic-write.ts';
import type { PlannedRun, SweepConfig } from './sweep-plan.ts';
import { RUN_DONE_FILE, readRunRecord, runDir } from './sweep-store.ts';

/** One run in the comparison: its varied settings and its final scores by opponent. */
export interface SweepRow {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly finished: boolean;
  readonly scores: Readonly<Record<string, number>>;
  readonly elapsedSeconds: number | null;
}

export interface SweepSummary {
  readonly rows: readonly SweepRow[];
  /** The comparison table as printed. */
  readonly text: string;
  readonly written: readonly string[];
}

const finalEvaluationSchema = z.looseObject({
  rows: z.array(z.looseObject({ opponent: z.string(), score: z.number() })),
});

function readRow(run: PlannedRun): SweepRow {
  const dir = runDir(run);
  const done = join(dir, RUN_DONE_FILE);
  if (!existsSync(done)) {
    return {
      name: run.name,
      params: run.params,
      finished: false,
      scores: {},
      elapsedSeconds: null,
    };
  }
  const record = readRunRecord(done);
  const scores: Record<string, number> = {};
  const evaluation = join(dir, 'final-evaluation.json');
  if (existsSync(evaluation)) {
    const parsed = finalEvaluationSchema.safeParse(JSON.parse(readFileSync(evaluation, 'utf8')));
    if (parsed.success) for (const row of parsed.data.rows) scores[row.opponent] = row.score;
  }
  return {
    name: run.name,
    params: run.params,
    finished: true,
    scores,
    elapsedSeconds: record.elapsedSeconds,
  };
}

/** A setting's value as the table and the log show it (`16x16` for a list). */
export const showSetting = (value: unknown): string =>
  Array.isArray(value) ? value.join('x') : String(value);

/** A dot chart of each run's final score against each opponent. */
function summarySpec(rows: readonly SweepRow[], title: string): vega.Spec {
  const values = rows.flatMap((r) =>
    Object.entries(r.scores).map(([opponent, score]) => ({ run: r.name, opponent, score })),
  );
  return {
    ...chartFrame({ width: Math.max(240, 48 * rows.length), height: 280, padding: 8 }),
    title: { text: title, fontSize: 14 },
    data: [{ name: 'points', values }],
    scales: [
      { name: 'x', type: 'point', domain: rows.map((r) => r.name), range: 'width', padding: 0.5 },
      { name: 'y', type: 'linear', domain: [0, 1], range: 'height' },
      {
        name: 'color',
        type: 'ordinal',
        domain: { data: 'points', field: 'opponent' },
        range: 'category',
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'run', labelAngle: -45, labelAlign: 'right' },
      {
        orient: 'left',
        scale: 'y',
        title: 'final score (wins + draws/2)',
        format: '%',
        grid: true,
      },
    ],
    legends: [{ fill: 'color', title: 'opponent' }],
    marks: [
      {
        type: 'symbol',
        from: { data: 'points' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'run' },
            y: { scale: 'y', field: 'score' },
            fill: { scale: 'color', field: 'opponent' },
            size: { value: 80 },
          },
        },
      },
    ],
  };
}

/**
 * Compares the sweep's runs: a table (printed and summary.csv) of the varied
 * settings and final scores, and summary.svg/.png, in RUNS_DIR/SWEEP/.
 */
export async function writeSweepSummary(
  sweep: SweepConfig,
  runs: readonly PlannedRun[],
): Promise<SweepSummary> {
  const rows = runs.map(readRow);
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.params)))];
  const opponents = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))];
  const header = ['run', ...keys, ...opponents.map((o) => `vs ${o}`), 'minutes'];
  const cells = rows.map((r) => [
    r.name,
    ...keys.map((k) => (k in r.params ? showSetting(r.params[k]) : '-')),
    ...opponents.map((o) => {
      const score = r.scores[o];
      return score === undefined ? '-' : `${(score * 100).toFixed(1)}%`;
    }),
    r.elapsedSeconds === null ? 'not run' : (r.elapsedSeconds / 60).toFixed(1),
  ]);
  const dir = join(sweep.runsDir, sweep.name);
  const csv = createObjectCsvStringifier({ header: header.map((h) => ({ id: h, title: h })) });
  const records = cells.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
  const written = [join(dir, 'summary.csv')];
  writeFileAtomic(written[0] as string, csv.getHeaderString() + csv.stringifyRecords(records));
  if (opponents.length > 0) {
    written.push(
      ...(await writeChart(join(dir, 'summary'), summarySpec(rows, `sweep ${sweep.name}`))),
    );
  }
  return { rows, text: `${table(header, cells)}\n`, written };
}
