import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { baselineSpecs } from '../train/config/baselines.ts';
import { runPaths } from '../train/run/paths.ts';
import type { TrainConfig } from '../train/settings/schema.ts';
import { acceptJob } from './accept-job.ts';
import { fetchJobFiles, type JobWorker } from './chunk-job.ts';
import { checkJobMemory } from './job-memory.ts';
import { type TrainJob, type TrainResult, trainJobSchema } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';
import { TEMP_RUN_PREFIX, tempFolderPrefix } from './temp-folders.ts';

/** Runs of one process train one at a time: tfjs's backend and memory are per process. */
let training: Promise<unknown> = Promise.resolve();

/** A worker that trains runs: what it accepts, and the most memory one run may take. */
export interface TrainWorker extends JobWorker {
  /** Bytes a run's estimated memory may reach (queue/job-memory.ts). */
  readonly maxJobMemory: number;
}

/**
 * Trains one sweep run on a queue worker with the trainer's public entry point
 * in a temporary runs folder, and sends back its files as text (the
 * coordinator stores them); the folder is removed afterwards, so a retried run
 * starts from scratch. A worker has no lasting folder of the sweep's: the
 * sweep's folder is on the coordinator, and a retry may land on another
 * worker. (A local sweep trains in the run's own folder instead:
 * queue/sweep-run.ts.) The run's baselines read only the files the job
 * carries.
 */
export async function runTrainJob(
  data: unknown,
  policies: PolicyCache,
  worker: TrainWorker,
): Promise<TrainResult> {
  const job: TrainJob = acceptJob(trainJobSchema, data, 'training run job', worker, (d) =>
    baselineSpecs(d.config),
  );
  try {
    checkJobMemory(job.config, worker.maxJobMemory);
  } catch (err) {
    throw new UnrecoverableError((err as Error).message);
  }
  const files = await fetchJobFiles(policies, job.files);
  const turn = training.then(() => trainInTemp(job, files));
  training = turn.catch(() => {});
  return turn;
}

async function trainInTemp(
  job: TrainJob,
  files: Readonly<Record<string, string>>,
): Promise<TrainResult> {
  const dir = mkdtempSync(join(tmpdir(), tempFolderPrefix(TEMP_RUN_PREFIX)));
  // `finally` does not run when the worker exits mid-run (a second Ctrl-C exits at once); this does.
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  try {
    const config = { ...job.config, runsDir: dir, progress: false };
    const started = performance.now();
    // Loaded when a run comes, so that tournament-only workers never load tfjs.
    const { train } = await import('../train/trainer.ts');
    await train(config, { resume: false, log: () => {}, files });
    return readTrainResult(config, (performance.now() - started) / 1000);
  } finally {
    process.off('exit', remove);
    remove();
  }
}

/** A trained run's files as text, as a worker sends them back and the coordinator stores them. */
export function readTrainResult(config: TrainConfig, elapsedSeconds: number): TrainResult {
  const paths = runPaths(config);
  const text = (path: string): string => readFileSync(path, 'utf8');
  const optional = (path: string): string | null => (existsSync(path) ? text(path) : null);
  return {
    config: text(paths.config),
    metrics: text(paths.metrics),
    finalEvaluation: optional(paths.finalEvaluation),
    policy: text(paths.policy),
    learningCurve: optional(`${paths.curve}.svg`),
    elapsedSeconds,
  };
}
