import { join } from 'node:path';
import { lockFolder } from '../eval/folder-lock.ts';
import { followJobs } from './follow-jobs.ts';
import { TRAIN_JOB, type TrainJob } from './jobs.ts';
import { withQueueSession } from './queue-session.ts';
import { type PlannedRun, planSweep, runJobId, type SweepConfig } from './sweep-plan.ts';
import { isRunFinished, storeRun } from './sweep-store.ts';
import { type SweepSummary, writeSweepSummary } from './sweep-summary.ts';
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
  // One coordinator per sweep folder: a second one fails at once, naming the first.
  const lock = lockFolder(join(sweep.runsDir, sweep.name), 'sweep');
  try {
    return await runPlannedSweep(sweep, runs, options, log);
  } finally {
    lock.release();
  }
}

async function runPlannedSweep(
  sweep: SweepConfig,
  runs: readonly PlannedRun[],
  options: SweepOptions,
  log: (line: string) => void,
): Promise<SweepSummary> {
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
  // No policy travels with a training run: the session stores none.
  await withQueueSession(url, [], log, async ({ queue, events, status }) => {
    let done = 0;
    await followJobs({
      queue,
      events,
      ids: runs.map(runJobId),
      jobs: runs.map((run) => ({
        name: TRAIN_JOB,
        data: { sweep: sweep.name, config: run.config } satisfies TrainJob,
      })),
      noun: 'run',
      describe: (i) => `${sweep.name}/${runs[i]?.name}`,
      done: (finished) =>
        `${finished} of ${runs.length} runs (stored in ${join(sweep.runsDir, sweep.name)})`,
      onResult: (i, value) => {
        const run = runs[i] as PlannedRun;
        storeRun(run, value);
        done++;
        log(`${run.name}: done (${done}/${runs.length})`);
      },
      status,
      log,
      signal,
    });
  });
}
