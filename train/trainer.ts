import { availableParallelism } from 'node:os';
import type { JobFiles } from '../agents/spec.ts';
import { loadBackend, wasmBackendNoteOnce } from '../models/backend.ts';
import { algorithmOf } from './algorithm/registry.ts';
import type { ConfigLayers } from './config/layers.ts';
import { buildLearner, disposeLearner, type Learner } from './learner.ts';
import type { EvaluationResult } from './report/evaluate.ts';
import { finishRun } from './report/final-evaluation.ts';
import type { MetricsRow } from './report/metrics.ts';
import { type OpenedRun, openRun } from './run/open-run.ts';
import { runPaths } from './run/paths.ts';
import { RunClock } from './run/run.ts';
import { freshState, restoreRun } from './run/run-state.ts';
import type { TrainConfig } from './settings/schema.ts';
import type { ShardRunnerFactory } from './shards/protocol.ts';
import { runWorkers } from './threads/run-workers.ts';
import { trainingLoop } from './training-loop.ts';

export { runPaths };

export interface TrainOptions {
  /**
   * Continue the run in runs/NAME from its newest complete checkpoint. The
   * settings given must match the saved ones except for those in
   * CHANGEABLE_ON_RESUME (train/run/resume.ts).
   */
  readonly resume: boolean;
  /**
   * Delete an existing run of the same name first (only a folder that holds a
   * run's config.json and checkpoints/; see removeRun). Not with resume.
   */
  readonly overwrite?: boolean;
  /** Lines for the user (backend, evaluation tables); defaults to stdout. */
  readonly log?: (line: string) => void;
  /** Notes shown once per user (the wasm fallback's), on stderr in the CLI; none without it. */
  readonly notes?: (line: string) => void;
  /** Stop after this many iterations of this process (tests simulate a kill with it). */
  readonly stopAfter?: number;
  /**
   * The time limit runs out after this many iterations of this process,
   * whatever the clock says (tests stop a run by its time limit with it).
   */
  readonly timeUpAfter?: number;
  /**
   * Who plays the algorithm's self-play shards instead of this machine's
   * threads (the queue's runner, queue/shard-runner.ts). The run is the same
   * as a local one. Only for an algorithm that has shards.
   */
  readonly shardRunner?: ShardRunnerFactory;
  /**
   * A queue job's files (a sweep's run on a worker): the baselines read only
   * these, never this machine's disk.
   */
  readonly files?: JobFiles;
  /** What the settings are called in messages (`config (my.json and flags)`; default `config`). */
  readonly where?: string;
  /**
   * Called with the run's config once it is built, before anything is
   * checked or written (the CLI checks its queue there).
   */
  readonly ready?: (config: TrainConfig) => Promise<void>;
}

export interface TrainResult {
  readonly runDir: string;
  readonly iteration: number;
  readonly backend: string;
  readonly finalEvaluation: EvaluationResult | null;
  readonly policyPath: string;
}

const isLayers = (settings: TrainConfig | ConfigLayers): settings is ConfigLayers =>
  Array.isArray(settings);

/**
 * Trains a run: opens its folder (train/run/open-run.ts: locked, resumed
 * from its newest checkpoint if asked, the config built from `settings`, a
 * whole config or the layers of a preset, a config file and flags), builds
 * the learner (the network, Adam and the run's algorithm), runs the training
 * loop (self-play, update, evaluation against the baselines, metrics and
 * atomic checkpoints), then writes the policy and its final evaluation.
 *
 * Every checkpoint interval starts from fresh games, and the checkpoint holds
 * the weights, Adam's state, the counters and the random generator at that
 * boundary, so a resumed run continues exactly as the uninterrupted one would.
 *
 * The run folder is locked while the run trains (files/folder-lock.ts): a second
 * run of the same folder, in this process or another, fails at once with a
 * FolderLockError naming the holder.
 */
export async function train(
  settings: TrainConfig | ConfigLayers,
  options: TrainOptions,
): Promise<TrainResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const run = await openRun(
    {
      layers: isLayers(settings) ? settings : [settings],
      resume: options.resume,
      overwrite: options.overwrite === true && !options.resume,
      where: options.where ?? 'config',
    },
    {
      log,
      shardsElsewhere: options.shardRunner !== undefined,
      ...(options.files !== undefined ? { files: options.files } : {}),
      ...(options.ready !== undefined ? { ready: options.ready } : {}),
    },
  );
  try {
    return await trainOpened(run, options, log);
  } finally {
    run.release();
  }
}

async function trainOpened(
  { paths, config, resumeFrom }: OpenedRun,
  options: TrainOptions,
  log: (line: string) => void,
): Promise<TrainResult> {
  const { tf, name: backend } = await loadBackend(config.backend);
  const note = options.notes === undefined ? null : wasmBackendNoteOnce(backend, config.backend);
  if (note !== null) options.notes?.(note);
  const workers = runWorkers(config, log);
  const learner = await buildLearner(tf, config, {
    workers,
    ...(options.shardRunner !== undefined ? { shardRunner: options.shardRunner } : {}),
    ...(options.files !== undefined ? { files: options.files } : {}),
  });
  log(
    `ayoayo train: run ${paths.dir}, ${coresText(config, learner, workers, options.shardRunner !== undefined, backend)}${options.shardRunner !== undefined ? '' : `; self-play inference on ${learner.inference.describe()}`}${resumeFrom ? `; resuming after iteration ${resumeFrom.payload.iteration} from ${resumeFrom.path}` : ''}`,
  );
  try {
    const state = resumeFrom
      ? await restoreRun(learner, resumeFrom, paths.dir)
      : freshState(config);
    noteGradientBackendChange(state.metrics, learner.algorithm.gradientBackend, log);
    const clock = new RunClock(state.counters.elapsedSeconds, config.timeLimitMinutes);
    const run = {
      config,
      paths,
      learner,
      state,
      clock,
      workers,
      ...(options.files !== undefined ? { files: options.files } : {}),
    };
    const end = await trainingLoop(run, {
      ...(options.stopAfter !== undefined ? { stopAfter: options.stopAfter } : {}),
      ...(options.timeUpAfter !== undefined ? { timeUpAfter: options.timeUpAfter } : {}),
    });
    const finalEvaluation = await finishRun(run, end, log);
    return {
      runDir: paths.dir,
      iteration: state.iteration,
      backend,
      finalEvaluation,
      policyPath: paths.policy,
    };
  } finally {
    await disposeLearner(learner);
  }
}

/**
 * What the run's threads do, for its first line: `2 worker threads of 2
 * cores: self-play in 8 shards on 2 threads, evaluations on 2 threads, the
 * update's gradients in 8 slices on 2 threads on onnxruntime-node, Adam in
 * WebAssembly` (or `the update's gradients and Adam on tfjs wasm`).
 */
function coresText(
  config: TrainConfig,
  learner: Learner,
  workers: number,
  shardsElsewhere: boolean,
  backend: string,
): string {
  const threads = (n: number): string =>
    n === 0 ? 'in this thread' : `on ${n} thread${n === 1 ? '' : 's'}`;
  const shards = algorithmOf(config).shards?.count(config) ?? null;
  const selfPlay = shardsElsewhere
    ? "on the queue's workers, each on its own inference"
    : shards === null
      ? 'in this thread'
      : `in ${shards} shard${shards === 1 ? '' : 's'} ${threads(shards > 1 ? Math.min(workers, shards) : 0)}`;
  const where = learner.algorithm.gradientThreads ?? learner.algorithm.gradientBackend;
  const update =
    where === 'tfjs'
      ? `the update's gradients and Adam on tfjs ${backend}`
      : `the update's gradients in ${where} on onnxruntime-node, Adam in WebAssembly`;
  return `${workers} worker thread${workers === 1 ? '' : 's'} of ${availableParallelism()} cores: self-play ${selfPlay}, evaluations ${threads(workers)}, ${update}`;
}

/**
 * One line when a resumed run's updates compute their gradients elsewhere than
 * before (onnxruntime-node there and not here, or `--inference` changed): the
 * run goes on, but its floats no longer follow an uninterrupted run's.
 */
function noteGradientBackendChange(
  metrics: readonly MetricsRow[],
  now: 'onnx' | 'tfjs',
  log: (line: string) => void,
): void {
  const last = metrics.at(-1);
  const before = last?.['update/gradient_backend'];
  if (last === undefined || (before !== 'onnx' && before !== 'tfjs') || before === now) return;
  log(
    `ayoayo train: the updates computed their gradients on ${before} up to iteration ${last.iteration} and on ${now} from here: from here the run differs from an uninterrupted one in float rounding`,
  );
}
