import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../env/gym/options.ts';
import { Random } from '../env/random.ts';
import { buildConfig } from '../train/config/build.ts';
import { readLayer } from '../train/config/layers.ts';
import { PRESETS } from '../train/config/presets.ts';
import { folderNameSchema, type TrainConfig } from '../train/settings/schema.ts';
import { QueueError } from './errors.ts';

const settingValue = z.union([
  z.number(),
  z.string(),
  z.boolean(),
  z.array(z.number()),
  z.array(z.string()),
]);
const rangeSchema = z
  .object({
    min: z.number(),
    max: z.number(),
    /** Sample uniformly in log space (learning rates). */
    log: z.boolean().default(false),
    /** Round to an integer. */
    int: z.boolean().default(false),
  })
  .strict()
  .refine(
    (r) => r.max >= r.min && (!r.log || r.min > 0),
    'needs min <= max (and min > 0 with log)',
  );

/** Most runs a sweep plans (a grid's combinations or a random search's samples). */
export const MAX_SWEEP_RUNS = 10_000;
const RUNS_RANGE = `1..${MAX_SWEEP_RUNS}`;

/** A grid's problems: values listed twice (the same run trained twice) and too many combinations. */
function checkGrid(grid: Record<string, readonly SettingValue[]>, ctx: z.RefinementCtx): void {
  for (const [key, values] of Object.entries(grid)) {
    const seen = new Set<string>();
    for (const value of values) {
      const text = JSON.stringify(value);
      if (seen.has(text)) {
        ctx.addIssue({
          code: 'custom',
          path: ['grid', key],
          message: `lists ${text} twice: give each value once (every combination is one run)`,
        });
      }
      seen.add(text);
    }
  }
  const sizes = Object.values(grid).map((values) => values.length);
  const runs = sizes.reduce((a, b) => a * b, 1);
  if (runs > MAX_SWEEP_RUNS) {
    const product = Object.entries(grid)
      .map(([key, values]) => `${values.length} ${key}`)
      .join(' x ');
    ctx.addIssue({
      code: 'custom',
      path: ['grid'],
      message: `makes ${runs} runs (${product}); a sweep has ${RUNS_RANGE} runs`,
    });
  }
}

/**
 * SWEEP.json: a grid (every combination of the listed values) or a seeded
 * random search (`samples` draws from choices or ranges) over training
 * settings, on top of a preset and fixed `base` settings. Every run's config is
 * validated by the trainer's own schema before anything runs.
 */
export const sweepConfigSchema = z
  .object({
    name: folderNameSchema,
    /** The sweep lives in RUNS_DIR/NAME/, one folder per run. */
    runsDir: z.string().min(1).default('runs'),
    preset: z.enum(Object.keys(PRESETS) as [string, ...string[]]).optional(),
    base: z.record(z.string(), settingValue).default({}),
    grid: z.record(z.string(), z.array(settingValue).min(1)).optional(),
    random: z
      .object({
        samples: z
          .number(`must be an integer in ${RUNS_RANGE}`)
          .int(`must be an integer in ${RUNS_RANGE}`)
          .min(1, `must be an integer in ${RUNS_RANGE}`)
          .max(MAX_SWEEP_RUNS, `must be an integer in ${RUNS_RANGE}`),
        seed: z.number().int(),
        space: z.record(z.string(), z.union([z.array(settingValue).min(1), rangeSchema])),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((c) => (c.grid === undefined) !== (c.random === undefined), 'give either grid or random')
  .superRefine((c, ctx) => {
    if (c.grid !== undefined) checkGrid(c.grid, ctx);
  });
export type SweepConfig = z.infer<typeof sweepConfigSchema>;

export type SettingValue = z.infer<typeof settingValue>;

/** One run of a sweep: the settings it varies and its full, validated training config. */
export interface PlannedRun {
  readonly name: string;
  readonly params: Readonly<Record<string, SettingValue>>;
  readonly config: TrainConfig;
}

/** Settings a sweep may not vary: the coordinator decides where runs live and what they print. */
const RESERVED = ['name', 'runsDir', 'progress'];

export function parseSweepConfig(input: unknown, where = 'sweep config'): SweepConfig {
  const parsed = sweepConfigSchema.safeParse(input);
  if (!parsed.success)
    throw new QueueError(`invalid ${where}: ${describeIssues(parsed.error, '(root)')}`);
  return parsed.data;
}

function gridPoints(grid: Record<string, readonly SettingValue[]>): Record<string, SettingValue>[] {
  let points: Record<string, SettingValue>[] = [{}];
  for (const [key, values] of Object.entries(grid)) {
    points = points.flatMap((point) => values.map((value) => ({ ...point, [key]: value })));
  }
  return points;
}

function randomPoints(random: NonNullable<SweepConfig['random']>): Record<string, SettingValue>[] {
  const rng = Random.fromSeed(`sweep|${random.seed}`);
  return Array.from({ length: random.samples }, () => {
    const point: Record<string, SettingValue> = {};
    for (const [key, space] of Object.entries(random.space)) {
      if (Array.isArray(space)) {
        point[key] = space[rng.int(space.length)] as SettingValue;
        continue;
      }
      const u = rng.next();
      let value = space.log
        ? Math.exp(Math.log(space.min) + u * (Math.log(space.max) - Math.log(space.min)))
        : space.min + u * (space.max - space.min);
      // Six significant digits: readable configs, and the same value after a JSON round trip.
      value = space.int ? Math.round(value) : Number(value.toPrecision(6));
      point[key] = value;
    }
    return point;
  });
}

/** The sweep's runs, `run-01`, `run-02`...; throws naming the run and field of any invalid setting. */
export function planSweep(sweep: SweepConfig): PlannedRun[] {
  const points =
    sweep.grid !== undefined
      ? gridPoints(sweep.grid)
      : randomPoints(sweep.random as NonNullable<SweepConfig['random']>);
  const width = Math.max(2, String(points.length).length);
  const runsDir = join(sweep.runsDir, sweep.name);
  return points.map((params, i) => {
    const name = `run-${String(i + 1).padStart(width, '0')}`;
    for (const key of [...Object.keys(params), ...Object.keys(sweep.base)]) {
      if (RESERVED.includes(key))
        throw new QueueError(`sweep ${sweep.name}: '${key}' is set by the sweep itself`);
    }
    const preset = sweep.preset !== undefined ? PRESETS[sweep.preset] : undefined;
    // Quiet here: the planned config is the run's identity (job id, run.json); a local sweep
    // turns progress on only for the process that trains it (queue/sweep-run.ts).
    const where = `sweep ${sweep.name} ${name} (${JSON.stringify(params)})`;
    // The sweep's settings are a file's: in any form of earlier versions, keyed by their flags.
    const config = buildConfig(
      [
        preset,
        readLayer(sweep.base, where),
        readLayer(params, where),
        { name, runsDir, progress: false },
      ],
      where,
    );
    return { name, params, config };
  });
}

/** A run's identity for the queue: the same settings give the same job, whoever enqueues it. */
export function runJobId(run: PlannedRun, files: Readonly<Record<string, string>> = {}): string {
  const key = Object.keys(files).length === 0 ? run.config : { config: run.config, files };
  const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 24);
  return `s-${hash}`;
}
