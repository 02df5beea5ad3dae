import { runPaths } from '../train/run/paths.ts';
import { findResumePoint, hasCheckpoints, unresumableSettings } from '../train/run/resume.ts';
import { QueueError } from './errors.ts';
import type { TrainResult } from './jobs.ts';
import type { PlannedRun } from './sweep-plan.ts';
import { showSetting } from './sweep-summary.ts';
import { readTrainResult } from './train-job.ts';

export interface LocalRunOptions {
  /** The trainer's progress bars and lines, as `ayoayo train` shows them. */
  readonly progress: boolean;
  /** The line naming the run as it starts, and the trainer's lines when `progress` is on. */
  readonly log: (line: string) => void;
  /** Where the run is among those this sweep trains ("2/5"). */
  readonly position: string;
  /** Stop after this many iterations, as a Ctrl-C would (tests). */
  readonly stopAfter?: number;
}

/**
 * Trains a run of a local sweep in the run's own folder, RUNS_DIR/SWEEP/NAME
 * (where its files are stored once it is done), rather than in a temporary
 * one: a sweep stopped midway (Ctrl-C) leaves the run's checkpoints there, and
 * when it is started again the run resumes from its newest one, exactly as an
 * uninterrupted run would go on, instead of starting over. Returns the run's
 * files, or null when `stopAfter` stopped it before its end.
 */
export async function trainRunHere(
  run: PlannedRun,
  options: LocalRunOptions,
): Promise<TrainResult | null> {
  const paths = runPaths(run.config);
  const point = hasCheckpoints(paths) ? findResumePoint(paths) : null;
  if (point !== null) {
    const differing = unresumableSettings(point.payload.config, run.config, 'sweep');
    if (differing.length > 0) {
      throw new QueueError(
        `${paths.dir} holds an unfinished run with other settings, ${differing.join(', ')}: remove it or give the sweep another name`,
      );
    }
  }
  const settings = Object.entries(run.params)
    .map(([key, value]) => `${key} ${showSetting(value)}`)
    .join(', ');
  options.log(
    `${run.name} (${options.position} to train): ${settings === '' ? 'the base settings' : settings}${point !== null ? `; resuming after iteration ${point.payload.iteration}` : ''}`,
  );
  // Loaded when a run trains, so that a sweep on the queue never loads tfjs.
  const { train } = await import('../train/trainer.ts');
  const started = performance.now();
  // The planned config stays quiet (it is the run's identity); only this process shows progress.
  const result = await train(
    { ...run.config, progress: options.progress },
    {
      resume: point !== null,
      log: options.progress ? options.log : () => {},
      ...(options.stopAfter !== undefined ? { stopAfter: options.stopAfter } : {}),
    },
  );
  // Only a run that reached its end is evaluated: one stopped early has no final evaluation.
  if (result.finalEvaluation === null) return null;
  // Training time of earlier processes (the checkpoint's clock), then this one's.
  const before = point?.payload.counters.elapsedSeconds ?? 0;
  return readTrainResult(run.config, before + (performance.now() - started) / 1000);
}
