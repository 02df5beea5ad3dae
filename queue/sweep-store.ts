import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { lockFolder } from '../files/folder-lock.ts';
import { parseTrainConfig, savedTrainConfigSchema } from '../train/config/validate.ts';
import { QueueError } from './errors.ts';
import { parseJobData, type TrainResult, trainResultSchema } from './jobs.ts';
import { validatePolicyText } from './policy-transport.ts';
import type { PlannedRun } from './sweep-plan.ts';

/** Written last in a run's folder: a run is finished when it is there. */
export const RUN_DONE_FILE = 'run.json';

const runRecordSchema = z
  .object({
    name: z.string(),
    params: z.record(z.string(), z.unknown()),
    config: z.record(z.string(), z.unknown()),
    elapsedSeconds: z.number(),
  })
  .strict();
export type RunRecord = z.infer<typeof runRecordSchema>;

/** The folder of a sweep's run: RUNS_DIR/SWEEP/NAME. */
export const runDir = (run: PlannedRun): string => join(run.config.runsDir, run.config.name);

/**
 * Whether the run has finished before (its run.json is there). A finished run
 * with other settings under the same name is an error, not silently kept.
 */
export function isRunFinished(run: PlannedRun): boolean {
  const file = join(runDir(run), RUN_DONE_FILE);
  if (!existsSync(file)) return false;
  const record = readRunRecord(file);
  // A run finished before the settings were grouped by algorithm is compared as grouped.
  const saved = savedTrainConfigSchema.safeParse(record.config);
  const config = saved.success ? saved.data : record.config;
  if (JSON.stringify(config) !== JSON.stringify(run.config)) {
    throw new QueueError(
      `${runDir(run)} holds a finished run with other settings: remove it or give the sweep another name`,
    );
  }
  return true;
}

export function readRunRecord(file: string): RunRecord {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new QueueError(`${file} is corrupt: not valid JSON`);
  }
  return parseJobData(runRecordSchema, data, file);
}

/**
 * Checks what a worker sent back (the trainer's config, a policy file with
 * finite weights, JSON evaluation, sizes) and stores it under the run's
 * folder, each file atomically and run.json last.
 */
export function storeRun(run: PlannedRun, value: unknown): void {
  const where = `the result of ${run.config.name}`;
  const result: TrainResult = parseJobData(trainResultSchema, value, where);
  let sentConfig: unknown;
  try {
    sentConfig = JSON.parse(result.config);
  } catch {
    throw new QueueError(`${where}: config.json is not valid JSON`);
  }
  parseTrainConfig(sentConfig, `${where}: config.json`);
  validatePolicyText(result.policy, `${where}: policy.json`);
  if (result.finalEvaluation !== null) {
    try {
      JSON.parse(result.finalEvaluation);
    } catch {
      throw new QueueError(`${where}: final-evaluation.json is not valid JSON`);
    }
  }
  const dir = runDir(run);
  // A `train` of the same folder may be running: then this run's files are not written over it.
  const lock = lockFolder(dir, 'run');
  try {
    writeRun(run, dir, result);
  } finally {
    lock.release();
  }
}

function writeRun(run: PlannedRun, dir: string, result: TrainResult): void {
  mkdirSync(dir, { recursive: true });
  // The planned config (the worker trained it in a folder of its own).
  writeFileAtomic(join(dir, 'config.json'), `${JSON.stringify(run.config, null, 2)}\n`);
  writeFileAtomic(join(dir, 'metrics.csv'), result.metrics);
  writeFileAtomic(join(dir, 'policy.json'), result.policy);
  if (result.finalEvaluation !== null) {
    writeFileAtomic(join(dir, 'final-evaluation.json'), result.finalEvaluation);
  }
  if (result.learningCurve !== null) {
    writeFileAtomic(join(dir, 'learning-curve.svg'), result.learningCurve);
  }
  const record: RunRecord = {
    name: run.name,
    params: run.params,
    config: run.config,
    elapsedSeconds: result.elapsedSeconds,
  };
  writeFileAtomic(join(dir, RUN_DONE_FILE), `${JSON.stringify(record, null, 2)}\n`);
}
