import { Queue, QueueEvents } from 'bullmq';
import { followJobs } from './follow-jobs.ts';
import { JOB_ATTEMPTS, QUEUE_NAME, TRAIN_JOB, type TrainJob } from './jobs.ts';
import { checkRedis, parseRedisUrl, redactRedisUrl } from './redis.ts';
import { type PlannedRun, planSweep, runJobId, type SweepConfig } from './sweep-plan.ts';
import { isRunFinished, storeRun } from './sweep-store.ts';
import { type SweepSummary, writeSweepSummary } from './sweep-summary.ts';
import { KEEP_JOBS_SECONDS } from './tournament-runner.ts';
import { runTrainJob } from './train-job.ts';

export interface SweepOptions {
  /** Train on `ayoayo worker`s through this Redis queue; without it, here, one run after another. */
  readonly queue?: string;
  /** A line per finished or skipped run. */
  readonly log?: (line: string) => void;
  /** Stops waiting for the queue (its jobs stay queued; running the sweep again picks them up). */
  readonly signal?: AbortSignal;
}

/**
 * Runs a sweep: plans and validates every run, skips the runs finished
 * before, trains the others (here, or one job each on the queue), stores each
 * run's files under RUNS_DIR/SWEEP/NAME/ and writes the comparison.
 */
export async function runSweep(
  sweep: SweepConfig,
  options: SweepOptions = {},
): Promise<SweepSummary> {
  const log = options.log ?? (() => {});
  const runs = planSweep(sweep);
  const pending = runs.filter((run) => {
    const finished = isRunFinished(run);
    if (finished) log(`${run.name}: finished before, skipped`);
    return !finished;
  });
  if (pending.length > 0) {
    if (options.queue !== undefined)
      await trainOnQueue(sweep, pending, options.queue, log, options.signal);
    else {
      for (const run of pending) {
        const job: TrainJob = { sweep: sweep.name, config: run.config };
        // Here the settings are the user's own: ext: opponents are theirs to run.
        storeRun(run, await runTrainJob(job, true));
        log(`${run.name}: done`);
      }
    }
  }
  return writeSweepSummary(sweep, runs);
}

async function trainOnQueue(
  sweep: SweepConfig,
  runs: readonly PlannedRun[],
  url: string,
  log: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  await checkRedis(url);
  const connection = parseRedisUrl(url);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  try {
    await events.waitUntilReady();
    const ids = runs.map(runJobId);
    await queue.addBulk(
      runs.map((run, i) => ({
        name: TRAIN_JOB,
        data: { sweep: sweep.name, config: run.config } satisfies TrainJob,
        opts: {
          jobId: ids[i] as string,
          attempts: JOB_ATTEMPTS,
          backoff: { type: 'fixed', delay: 1000 },
          removeOnComplete: { age: KEEP_JOBS_SECONDS },
          removeOnFail: { age: KEEP_JOBS_SECONDS },
        },
      })),
    );
    if ((await queue.getWorkersCount()) === 0) {
      log(`no worker is connected to ${redactRedisUrl(url)} yet: the runs start when one is`);
    }
    let done = 0;
    await followJobs({
      queue,
      events,
      ids,
      describe: (i) => `${sweep.name}/${runs[i]?.name}`,
      onResult: (i, value) => {
        const run = runs[i] as PlannedRun;
        storeRun(run, value);
        done++;
        log(`${run.name}: done (${done}/${runs.length})`);
      },
      signal,
    });
  } finally {
    await events.close();
    await queue.close();
  }
}
