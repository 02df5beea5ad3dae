import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.ts';
import { encodePolicyFile } from '../models/policy-checksum.ts';
import { extractMlpWeights } from '../models/policy-value-model.ts';
import { TrainingDivergedError } from './errors.ts';
import type { SelfPlayStats, UpdateStats } from './iteration-stats.ts';
import { learnerPolicyFile } from './learner.ts';
import { policyAccuracy, trainingAccuracySample } from './report/accuracy.ts';
import { evaluatePolicy } from './report/evaluate.ts';
import { ERRORS_SERIES, writeLearningCurve } from './report/learning-curve.ts';
import { emptyMetricsRow, evalColumn, type MetricsRow, writeMetricsCsv } from './report/metrics.ts';
import { TrainingProgress } from './report/progress.ts';
import { writeCheckpoint } from './run/checkpoint.ts';
import { pruneRun } from './run/retention.ts';
import type { LoopEnd, Run } from './run/run.ts';
import { snapshotRun } from './run/run-state.ts';

/** Where a process of the loop stops early; tests stand in for a kill or for the clock with these. */
export interface LoopLimits {
  /** Stop after this many iterations of this process, keeping only the checkpoints due (a kill). */
  readonly stopAfter?: number;
  /** The time limit runs out after this many iterations of this process, whatever the clock says. */
  readonly timeUpAfter?: number;
}

/**
 * Iterations until the run is done, the time is up or `stopAfter` iterations
 * of this process have passed. Each iteration: games and targets, update, pool
 * snapshot, evaluation, logging, checkpoint, in that order (the order of the
 * random draws is what makes resume exact).
 */
export async function trainingLoop(run: Run, limits: LoopLimits = {}): Promise<LoopEnd> {
  const { config, state } = run;
  const finished = (): boolean => state.iteration >= config.iterations;
  let iterationsThisProcess = 0;
  const timeUp = (): boolean =>
    run.clock.timeUp() || iterationsThisProcess >= (limits.timeUpAfter ?? Number.POSITIVE_INFINITY);
  if (finished()) return 'done';
  if (timeUp()) return 'time-limit';
  const progress = new TrainingProgress(config.progress, config.iterations, state.iteration);
  try {
    for (;;) {
      const learningRate = startIteration(run, iterationsThisProcess === 0);
      iterationsThisProcess++;
      const rollout = await collectRollout(run);
      const update = await updatePolicy(run, rollout);
      snapshotToPool(run);
      // Evaluations follow the schedule (and the run's last iteration), never
      // the clock: a run the time limit cuts short has evaluated exactly what
      // the uncut run had by then, so its best checkpoint is the uncut run's too.
      if (state.iteration % config.evalEvery === 0 || finished()) await evaluate(run);
      // Whether the time is up is asked once, after the evaluation (it may run
      // out during it); that answer alone decides both the checkpoint and the
      // end, so time that runs out later cannot end the run past its checkpoint.
      const end = finished() ? 'done' : timeUp() ? 'time-limit' : null;
      logIteration(run, rollout, update, learningRate, progress);
      const boundary = state.iteration % config.checkpointEvery === 0;
      if (boundary || end !== null) await checkpoint(run, boundary);
      if (end !== null) return end;
      // `stopAfter` stands for an interrupted process: it keeps only the checkpoints due.
      if (limits.stopAfter !== undefined && iterationsThisProcess >= limits.stopAfter) {
        return 'stop-after';
      }
      // Training is synchronous work between awaits of settled promises, which
      // never lets timers run; yield once so the progress bar can redraw.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    progress.stop();
  }
}

/**
 * Every checkpoint interval (and every process) starts from fresh games, so a
 * resumed run plays the same games as an uninterrupted one. Returns the rate.
 */
function startIteration(run: Run, firstOfProcess: boolean): number {
  const { config, state, learner } = run;
  if (firstOfProcess || state.iteration % config.checkpointEvery === 0) {
    learner.algorithm.reset(config.seed * 7919 + state.iteration, state.rng);
  }
  state.iteration++;
  const fraction = (state.iteration - 1) / config.iterations;
  const learningRate = config.learningRate * (config.learningRateDecay ? 1 - 0.9 * fraction : 1);
  // tfjs reads the rate on every step but keeps the field protected; annealing needs to set it.
  (learner.optimizer as unknown as { learningRate: number }).learningRate = learningRate;
  return learningRate;
}

/** The iteration's games, and the targets the update learns from. */
function collectRollout(run: Run): Promise<SelfPlayStats> {
  return run.learner.algorithm.collect(run.state.rng, run.state.iteration);
}

async function updatePolicy(run: Run, rollout: SelfPlayStats): Promise<UpdateStats> {
  const { learner, state } = run;
  const update = await learner.algorithm.update(state.rng);
  assertFiniteUpdate(run, update);
  state.counters.games += rollout.games;
  state.counters.plies += rollout.plies;
  state.counters.samples += rollout.learnerSamples;
  return update;
}

/** A snapshot of the policy for the algorithm's pool of earlier ones, when one is due. */
function snapshotToPool(run: Run): void {
  const { config, state, learner, paths } = run;
  const pool = learner.algorithm.snapshots;
  if (pool === null || !learner.algorithm.snapshotDue(state.iteration)) return;
  const relative = `pool/iter-${String(state.iteration).padStart(6, '0')}.json`;
  const at = { iteration: state.iteration, samples: state.counters.samples };
  const file = learnerPolicyFile(learner, config, at);
  writeFileAtomic(join(paths.dir, relative), encodePolicyFile(file));
  pool.add(state.iteration, relative, extractMlpWeights(learner.model, config));
}

/** The policy alone against the baselines, through the tournament code; keeps the best checkpoint. */
async function evaluate(run: Run): Promise<void> {
  const { config, state, learner, paths } = run;
  const at = { iteration: state.iteration, samples: state.counters.samples };
  writeFileAtomic(paths.evalPolicy, encodePolicyFile(learnerPolicyFile(learner, config, at)));
  const result = await evaluatePolicy({
    policyPath: paths.evalPolicy,
    opponents: config.evalOpponents,
    games: config.evalGames,
    seed: config.seed * 104729 + state.iteration,
    workers: run.workers,
    rules: learner.rules,
    openingPlies: config.evalOpeningPlies,
    ...(run.files !== undefined ? { files: run.files } : {}),
  });
  state.lastEvaluation = Object.fromEntries(result.rows.map((r) => [r.opponent, r.score]));
  const minutes = run.clock.seconds() / 60;
  for (const r of result.rows) {
    state.curve.push({
      minutes,
      iteration: state.iteration,
      opponent: r.opponent,
      score: r.score,
      games: r.games,
    });
  }
  const sample =
    config.evalAccuracyPositions > 0
      ? trainingAccuracySample(config.evalAccuracyPositions, learner.rules)
      : null;
  if (sample !== null) {
    const accuracy = await policyAccuracy(paths.evalPolicy, sample);
    state.lastAccuracy = { errors: accuracy.overall.rate, valueSign: accuracy.value?.rate ?? null };
    state.curve.push({
      minutes,
      iteration: state.iteration,
      opponent: ERRORS_SERIES,
      score: accuracy.overall.rate,
      games: accuracy.overall.positions,
    });
  }
  const mean = result.rows.reduce((a, r) => a + r.score, 0) / Math.max(1, result.rows.length);
  if (state.best === null || mean > state.best.score) {
    state.best = { iteration: state.iteration, score: mean };
    state.counters.elapsedSeconds = run.clock.seconds();
    writeCheckpoint(paths.best, await snapshotRun(config, state, learner));
  }
  await writeLearningCurve(
    paths.curve,
    state.curve,
    `${config.name}: score of the policy alone against baselines`,
  );
}

function logIteration(
  run: Run,
  rollout: SelfPlayStats,
  update: UpdateStats,
  learningRate: number,
  progress: TrainingProgress,
): void {
  const { config, state, paths } = run;
  state.counters.elapsedSeconds = run.clock.seconds();
  const row: MetricsRow = {
    ...emptyMetricsRow(),
    iteration: state.iteration,
    elapsed_s: state.counters.elapsedSeconds,
    games: state.counters.games,
    plies: state.counters.plies,
    samples: state.counters.samples,
    'perf/plies_per_s': rollout.plies / rollout.seconds,
    'perf/update_samples_per_s': update.samples / update.seconds,
    'update/gradient_backend': run.learner.algorithm.gradientBackend,
    'losses/policy': update.policyLoss,
    'losses/value': update.valueLoss,
    'losses/entropy': update.entropy,
    'charts/learning_rate': learningRate,
    'charts/mean_game_plies': rollout.meanGamePlies,
    ...run.learner.algorithm.ownMetrics(),
  };
  for (const [spec, score] of Object.entries(state.lastEvaluation ?? {}))
    row[evalColumn(spec)] = score;
  if (state.lastAccuracy != null) {
    row['eval/errors_vs_perfect_play'] = state.lastAccuracy.errors;
    row['eval/value_sign_accuracy'] = state.lastAccuracy.valueSign ?? '';
  }
  state.metrics.push(row);
  writeMetricsCsv(paths.metrics, state.metrics, config.evalOpponents);
  progress.update(state.iteration, {
    pliesPerSec: rollout.plies / rollout.seconds,
    policyLoss: update.policyLoss,
    valueLoss: update.valueLoss,
    scores: state.lastEvaluation,
  });
}

/**
 * The iteration's own checkpoint first, then `latest`: a run killed between
 * the two resumes from the newer iteration file (train/run/resume.ts). A run
 * that ends between two checkpoint boundaries saves where it ended, but
 * deletes nothing: a resume starts from the newest boundary's checkpoint
 * (exactResumePoint), which must stay.
 */
async function checkpoint(run: Run, boundary: boolean): Promise<void> {
  const { paths, state } = run;
  const payload = await snapshotRun(run.config, state, run.learner);
  const name = `iter-${String(state.iteration).padStart(6, '0')}.json`;
  writeCheckpoint(join(paths.checkpoints, name), payload);
  writeCheckpoint(paths.latest, payload);
  if (!boundary) return;
  // Only once the new `latest` is complete may older checkpoints and pool files go.
  const poolSize = run.learner.algorithm.snapshots?.capacity ?? 0;
  pruneRun(paths, { keepCheckpoints: run.config.keepCheckpoints, poolSize });
}

/**
 * Stops the run at the first non-finite loss or weight: training on would only
 * spread NaN through every later checkpoint, so nothing of this iteration is saved.
 */
function assertFiniteUpdate(run: Run, update: UpdateStats): void {
  const { iteration } = run.state;
  const latest = run.paths.latest;
  const hint = existsSync(latest)
    ? `the last good checkpoint, ${latest}, is kept`
    : 'no checkpoint had been written yet';
  const losses: [string, number][] = [
    ['policy', update.policyLoss],
    ['value', update.valueLoss],
    ['entropy', update.entropy],
  ];
  for (const [name, value] of losses) {
    if (!Number.isFinite(value)) {
      throw new TrainingDivergedError(
        iteration,
        `training stopped at iteration ${iteration}: the ${name} loss is ${value}; ${hint}`,
      );
    }
  }
  for (const weight of run.learner.model.weights) {
    if (!(weight.read().dataSync() as Float32Array).every(Number.isFinite)) {
      throw new TrainingDivergedError(
        iteration,
        `training stopped at iteration ${iteration}: weight ${weight.name} is no longer finite; ${hint}`,
      );
    }
  }
}
