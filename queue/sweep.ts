import { join } from 'node:path';
import { specFiles } from '../agents/spec.ts';
import { lockFolder } from '../files/folder-lock.ts';
import { baselineSpecs } from '../train/config/baselines.ts';
import { followJobs } from './follow-jobs.ts';
import { TRAIN_JOB, type TrainJob } from './jobs.ts';
import { withQueueSession } from './queue-session.ts';
import { type PlannedRun, planSweep, runJobId, type SweepConfig } from './sweep-plan.ts';
import { trainRunHere } from './sweep-run.ts';
import { isRunFinished, storeRun } from './sweep-store.ts';
import { type SweepSummary, writeSweepSummary } from './sweep-summary.ts';

export interface SweepOptions {
  /** Train on `ayoayo worker`s through this Redis queue; without it, here, one run after another. */
  readonly queue?: string;
  /** A line per finished or skipped run, and here, per run as it starts (and the trainer's lines). */
  readonly log?: (line: string) => void;
  /** Stops waiting for the queue (its jobs stay queued; running the sweep again picks them up). */
  readonly signal?: AbortSignal;
  /**
   * Here, show each run's training as `ayoayo train` does: its progress bars
   * (rate, ETA) on stderr and its lines through `log` (default true). Queue
   * workers train quietly whatever this says.
   */
  readonly progress?: boolean;
  /**
   * Here, stop each run after this many iterations of this process; the sweep
   * ends at the first run so stopped, as a Ctrl-C would end it (tests).
   */
  readonly stopAfter?: number;
}

/**
 * Runs a sweep: plans and validates every run, skips the runs finished
 * before, trains the others (here, or one job each on the queue), stores each
 * run's files under RUNS_DIR/SWEEP/NAME/ and writes the comparison. Here, a
 * run trains in that folder itself, so that a run stopped midway resumes from
 * its newest checkpoint when the sweep is run again.
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
    else await trainHere(pending, options, log);
  }
  return writeSweepSummary(sweep, runs);
}

/** One run after another on this machine; ext: opponents are the user's own to run here. */
async function trainHere(
  runs: readonly PlannedRun[],
  options: SweepOptions,
  log: (line: string) => void,
): Promise<void> {
  for (const [i, run] of runs.entries()) {
    const result = await trainRunHere(run, {
      progress: options.progress ?? true,
      log,
      position: `${i + 1}/${runs.length}`,
      ...(options.stopAfter !== undefined ? { stopAfter: options.stopAfter } : {}),
    });
    if (result === null) {
      log(`${run.name}: stopped before its end; running the sweep again resumes it`);
      return;
    }
    storeRun(run, result);
    log(`${run.name}: done`);
  }
}

async function trainOnQueue(
  sweep: SweepConfig,
  runs: readonly PlannedRun[],
  url: string,
  log: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  // The files the runs' baselines read travel with them: the workers read no file of their own.
  const specs = runs.flatMap((run) => baselineSpecs(run.config));
  await withQueueSession(url, specs, { log }, async ({ clients, files, storeFiles }) => {
    let done = 0;
    const jobs = runs.map((run) => {
      const own = new Set(baselineSpecs(run.config).flatMap(specFiles));
      const data: TrainJob = {
        version: clients.version,
        sweep: sweep.name,
        config: run.config,
        files: Object.fromEntries(Object.entries(files).filter(([path]) => own.has(path))),
      };
      return { name: TRAIN_JOB, data };
    });
    await followJobs({
      clients,
      // The files in the id too: a baseline's file changed is another run.
      ids: runs.map((run, i) => runJobId(run, (jobs[i] as { data: TrainJob }).data.files)),
      jobs,
      beforeRequeue: storeFiles,
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
      log,
      signal,
    });
  });
}
