import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import type { TrainConfig } from '../train/config/schema.ts';
import { runPaths } from '../train/run/paths.ts';
import { refuseExternal } from './chunk-job.ts';
import { parseJobData, type TrainJob, type TrainResult, trainJobSchema } from './jobs.ts';

/** Runs of one process train one at a time: tfjs's backend and memory are per process. */
let training: Promise<unknown> = Promise.resolve();

/**
 * Trains one sweep run on a queue worker with the trainer's public entry point
 * in a temporary runs folder, and sends back its files as text (the
 * coordinator stores them); the folder is removed afterwards, so a retried run
 * starts from scratch. A worker has no lasting folder of the sweep's: the
 * sweep's folder is on the coordinator, and a retry may land on another
 * worker. (A local sweep trains in the run's own folder instead:
 * queue/sweep-run.ts.)
 */
export async function runTrainJob(data: unknown, allowExt: boolean): Promise<TrainResult> {
  let job: TrainJob;
  try {
    job = parseJobData(trainJobSchema, data, 'training run job');
    const { config } = job;
    const baselines = config.algorithm === 'expert-iteration' ? [] : config.ppo.baselineOpponents;
    refuseExternal([...baselines, ...config.evalOpponents], allowExt);
  } catch (err) {
    throw err instanceof UnrecoverableError ? err : new UnrecoverableError((err as Error).message);
  }
  const turn = training.then(() => trainInTemp(job));
  training = turn.catch(() => {});
  return turn;
}

async function trainInTemp(job: TrainJob): Promise<TrainResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-sweep-'));
  // `finally` does not run when the worker exits mid-run (a second Ctrl-C exits at once); this does.
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  try {
    const config = { ...job.config, runsDir: dir, progress: false };
    const started = performance.now();
    // Loaded when a run comes, so that tournament-only workers never load tfjs.
    const { train } = await import('../train/trainer.ts');
    await train(config, { resume: false, log: () => {} });
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
