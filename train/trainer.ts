import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';
import type { Agent } from '../agents/agent.ts';
import { createAgent } from '../agents/spec.ts';
import { observationSize } from '../env/gym/observation.ts';
import { Random } from '../env/random.ts';
import { writeFileAtomic } from '../eval/atomic-write.ts';
import { loadBackend } from '../models/backend.ts';
import { makePolicyFile } from '../models/policy-file.ts';
import { createPolicyValueModel, extractMlpWeights } from '../models/policy-value-model.ts';
import { readPolicyFile } from '../models/read-policy-file.ts';
import { type CheckpointPayload, writeCheckpoint } from './checkpoint.ts';
import { rulesOf, type TrainConfig } from './config.ts';
import { type EvaluationResult, evaluatePolicy } from './evaluate.ts';
import { type CurvePoint, writeLearningCurve } from './learning-curve.ts';
import { evalColumn, type MetricsRow, writeMetricsCsv } from './metrics.ts';
import {
  restoreModelWeights,
  restoreOptimizer,
  saveModelWeights,
  saveOptimizer,
} from './model-state.ts';
import { OpponentPool } from './opponent-pool.ts';
import { PolicyUpdater, type UpdateStats } from './policy-update.ts';
import { TrainingProgress } from './progress.ts';
import { findResumePoint, hasCheckpoints, removeOrphanTempFiles, resumedConfig } from './resume.ts';
import { pruneRun } from './retention.ts';
import { estimateAdvantages, RolloutBuffer } from './rollout-buffer.ts';
import { runPaths } from './run-paths.ts';
import { SelfPlay } from './self-play.ts';
import { capWorkers } from './worker-cap.ts';

export { runPaths };

export interface TrainOptions {
  /**
   * Continue the run in runs/NAME from its newest complete checkpoint. The
   * config must match the saved one except for the settings in
   * CHANGEABLE_ON_RESUME (train/resume.ts).
   */
  readonly resume: boolean;
  /** Lines for the user (backend, evaluation tables); defaults to stdout. */
  readonly log?: (line: string) => void;
  /** Stop after this many iterations of this process (tests simulate a kill with it). */
  readonly stopAfter?: number;
}

export interface TrainResult {
  readonly runDir: string;
  readonly iteration: number;
  readonly backend: string;
  readonly finalEvaluation: EvaluationResult | null;
  readonly policyPath: string;
}

/**
 * The training loop: self-play rollouts through a VectorEnv, PPO (or
 * REINFORCE) updates, a pool of earlier snapshots as opponents, periodic
 * evaluation against the baselines, atomic checkpoints and metrics.
 *
 * Every checkpoint interval starts from fresh games, and the checkpoint holds
 * the weights, Adam's state, the counters and the random generator at that
 * boundary, so a resumed run continues exactly as the uninterrupted one would.
 */
export async function train(requested: TrainConfig, options: TrainOptions): Promise<TrainResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  // The run folder is always the one the caller names: a copied run resumes in its copy.
  const paths = runPaths(requested);
  let resumeFrom: CheckpointPayload | null = null;
  let resumePath = paths.latest;
  let config = requested;
  if (options.resume) {
    const point = findResumePoint(paths, log);
    resumeFrom = point.payload;
    resumePath = point.path;
    config = resumedConfig(resumeFrom.config, requested);
  } else if (hasCheckpoints(paths)) {
    throw new Error(
      `run ${paths.dir} already has checkpoints: pass --resume to continue it, or choose another --name`,
    );
  }
  removeOrphanTempFiles(paths);
  mkdirSync(paths.checkpoints, { recursive: true });
  mkdirSync(paths.pool, { recursive: true });
  writeFileAtomic(paths.config, `${JSON.stringify(config, null, 2)}\n`);

  const { tf, name: backend } = await loadBackend(config.backend);
  log(
    `ayoayo train: run ${paths.dir}, tfjs backend ${backend}${resumeFrom ? `, resuming after iteration ${resumeFrom.iteration} from ${resumePath}` : ''}`,
  );

  const rules = rulesOf(config);
  const workers = capWorkers(config.workers, log);
  const obsSize = observationSize({ encoding: config.encoding, lookahead: config.lookahead });
  const model = createPolicyValueModel(
    tf,
    obsSize,
    { hidden: config.hidden, activation: config.activation },
    config.seed,
  );
  const optimizer = tf.train.adam(config.learningRate);
  const updater = new PolicyUpdater(tf, model, optimizer, config, obsSize);
  const pool = new OpponentPool(config.poolSize);
  let rng = Random.fromSeed(config.seed);
  let iteration = 0;
  const counters = { games: 0, plies: 0, samples: 0, elapsedSeconds: 0 };
  let metrics: MetricsRow[] = [];
  let curve: CurvePoint[] = [];
  let best: CheckpointPayload['best'] = null;
  let lastEvaluation: Record<string, number> | null = null;

  if (resumeFrom !== null) {
    restoreModelWeights(tf, model, resumeFrom.weights, resumePath);
    await restoreOptimizer(tf, optimizer, model, resumeFrom.optimizer, resumePath);
    rng = Random.fromState(resumeFrom.rngState);
    iteration = resumeFrom.iteration;
    Object.assign(counters, resumeFrom.counters);
    metrics = resumeFrom.metrics;
    curve = resumeFrom.curve;
    best = resumeFrom.best;
    lastEvaluation = resumeFrom.lastEvaluation;
    for (const entry of resumeFrom.pool) {
      pool.add(entry.iteration, entry.path, readPolicyFile(join(paths.dir, entry.path)).weights);
    }
  }

  const baselines: Agent[] = [];
  if (config.baselineShare > 0) {
    for (const spec of config.baselineOpponents)
      baselines.push(await createAgent(spec, { rules, seed: config.seed }));
  }
  const selfPlay = new SelfPlay(
    tf,
    model,
    {
      numEnvs: config.numEnvs,
      seed: config.seed,
      rules,
      encoding: config.encoding,
      lookahead: config.lookahead,
      maxPlies: config.maxPlies,
      openingPlies: config.openingPlies,
    },
    pool,
    baselines,
    { poolShare: config.poolShare, baselineShare: config.baselineShare },
    rules,
  );
  const buffer = new RolloutBuffer(config.numEnvs * config.rolloutSteps, obsSize);

  const policyFileOf = (iter: number, evaluation?: Record<string, number>) =>
    makePolicyFile(extractMlpWeights(model, config), {
      observation: { encoding: config.encoding, lookahead: config.lookahead },
      rules,
      source: {
        run: config.name,
        iteration: iter,
        samples: counters.samples,
        createdAt: new Date().toISOString(),
      },
      ...(evaluation ? { evaluation } : {}),
    });

  const snapshotPayload = async (): Promise<CheckpointPayload> => ({
    config,
    iteration,
    counters: { ...counters },
    rngState: rng.getState(),
    weights: saveModelWeights(model),
    optimizer: await saveOptimizer(optimizer, model),
    pool: pool.entries().map((s) => ({ iteration: s.iteration, path: s.path })),
    metrics,
    curve,
    best,
    lastEvaluation,
  });

  const progress = new TrainingProgress(config.progress, config.iterations, iteration);
  const sessionStart = performance.now();
  const elapsedAtStart = counters.elapsedSeconds;
  const elapsed = () => elapsedAtStart + (performance.now() - sessionStart) / 1000;
  const timeUp = () =>
    config.timeLimitMinutes !== null && elapsed() >= config.timeLimitMinutes * 60;
  let iterationsThisProcess = 0;

  try {
    while (iteration < config.iterations && !timeUp()) {
      if (iterationsThisProcess === 0 || iteration % config.checkpointEvery === 0) {
        selfPlay.reset(config.seed * 7919 + iteration, rng);
      }
      iteration++;
      iterationsThisProcess++;
      const fraction = (iteration - 1) / config.iterations;
      const learningRate =
        config.learningRate * (config.learningRateDecay ? 1 - 0.9 * fraction : 1);
      // tfjs reads the rate on every step but keeps the field protected; annealing needs to set it.
      (optimizer as unknown as { learningRate: number }).learningRate = learningRate;

      // Rollout.
      const rollout = await selfPlay.collect(config.rolloutSteps, buffer, rng);
      estimateAdvantages(buffer, config);
      // Update.
      const update = updater.update(buffer, rng);
      assertFiniteUpdate(update, model, iteration, resumeHint(paths.latest));
      counters.games += rollout.games;
      counters.plies += rollout.plies;
      counters.samples += rollout.learnerSamples;

      if (iteration % config.snapshotEvery === 0 && config.poolShare > 0) {
        const relative = `pool/iter-${String(iteration).padStart(6, '0')}.json`;
        const file = policyFileOf(iteration);
        writeFileAtomic(join(paths.dir, relative), JSON.stringify(file));
        pool.add(iteration, relative, extractMlpWeights(model, config));
      }

      // Evaluation against the baselines, through the tournament code.
      const lastIteration = iteration >= config.iterations || timeUp();
      if (iteration % config.evalEvery === 0 || lastIteration) {
        writeFileAtomic(paths.evalPolicy, JSON.stringify(policyFileOf(iteration)));
        const result = await evaluatePolicy({
          policyPath: paths.evalPolicy,
          opponents: config.evalOpponents,
          games: config.evalGames,
          seed: config.seed * 104729 + iteration,
          workers,
          rules,
          openingPlies: config.evalOpeningPlies,
        });
        lastEvaluation = Object.fromEntries(result.rows.map((r) => [r.opponent, r.score]));
        for (const r of result.rows) {
          curve.push({
            minutes: elapsed() / 60,
            iteration,
            opponent: r.opponent,
            score: r.score,
            games: r.games,
          });
        }
        const mean = result.rows.reduce((a, r) => a + r.score, 0) / Math.max(1, result.rows.length);
        if (best === null || mean > best.score) {
          best = { iteration, score: mean };
          counters.elapsedSeconds = elapsed();
          writeCheckpoint(paths.best, await snapshotPayload());
        }
        await writeLearningCurve(
          paths.curve,
          curve,
          `${config.name}: score of the policy alone against baselines`,
        );
      }

      counters.elapsedSeconds = elapsed();
      const row: MetricsRow = {
        iteration,
        elapsed_s: counters.elapsedSeconds,
        games: counters.games,
        plies: counters.plies,
        samples: counters.samples,
        'perf/plies_per_s': rollout.plies / rollout.seconds,
        'perf/update_samples_per_s': update.samples / update.seconds,
        'losses/policy': update.policyLoss,
        'losses/value': update.valueLoss,
        'losses/entropy': update.entropy,
        'losses/approx_kl': update.approxKl,
        'losses/clip_fraction': update.clipFraction,
        'charts/learning_rate': learningRate,
        'charts/mean_game_plies': rollout.meanGamePlies,
        'charts/score_vs_pool': rollout.poolGames > 0 ? rollout.poolScore : '',
        'charts/score_vs_baselines': rollout.baselineGames > 0 ? rollout.baselineScore : '',
      };
      if (lastEvaluation)
        for (const [spec, score] of Object.entries(lastEvaluation)) row[evalColumn(spec)] = score;
      metrics.push(row);
      writeMetricsCsv(paths.metrics, metrics, config.evalOpponents);

      if (iteration % config.checkpointEvery === 0 || lastIteration) {
        const payload = await snapshotPayload();
        writeCheckpoint(
          join(paths.checkpoints, `iter-${String(iteration).padStart(6, '0')}.json`),
          payload,
        );
        writeCheckpoint(paths.latest, payload);
        pruneRun(paths, config);
      }
      progress.update(iteration, {
        pliesPerSec: rollout.plies / rollout.seconds,
        policyLoss: update.policyLoss,
        valueLoss: update.valueLoss,
        scores: lastEvaluation,
      });
      // Training is synchronous work between awaits of settled promises, which
      // never lets timers run; yield once so the progress bar can redraw.
      await new Promise((resolve) => setImmediate(resolve));
      if (options.stopAfter !== undefined && iterationsThisProcess >= options.stopAfter) break;
    }
  } finally {
    progress.stop();
  }

  // The final evaluation: more games, printed as a table.
  let finalEvaluation: EvaluationResult | null = null;
  const finished = iteration >= config.iterations || timeUp();
  const bestPayloadPath = existsSync(paths.best) ? paths.best : paths.latest;
  writeFileAtomic(
    paths.policy,
    JSON.stringify(policyFileOf(iteration, lastEvaluation ?? undefined)),
  );
  if (finished) {
    finalEvaluation = await evaluatePolicy({
      policyPath: paths.policy,
      opponents: config.evalOpponents,
      games: config.finalEvalGames,
      seed: config.seed * 15485863 + 1,
      workers,
      rules,
      openingPlies: config.evalOpeningPlies,
      onProgress: config.progress,
    });
    const evaluation = Object.fromEntries(finalEvaluation.rows.map((r) => [r.opponent, r.score]));
    writeFileAtomic(paths.policy, JSON.stringify(policyFileOf(iteration, evaluation)));
    writeFileAtomic(paths.finalEvaluation, `${JSON.stringify(finalEvaluation, null, 2)}\n`);
    await writeLearningCurve(
      paths.curve,
      curve,
      `${config.name}: score of the policy alone against baselines`,
      { iteration, rows: finalEvaluation.rows },
    );
    log('');
    log(
      `Final evaluation of ${paths.policy} (policy alone, argmax, no search) after iteration ${iteration}:`,
    );
    log(finalEvaluation.table);
    log(
      `Learning curve: ${paths.curve}.svg / .png; metrics: ${paths.metrics}; best checkpoint: ${bestPayloadPath}`,
    );
  }
  optimizer.dispose();
  model.dispose();
  return { runDir: paths.dir, iteration, backend, finalEvaluation, policyPath: paths.policy };
}

function resumeHint(latest: string): string {
  return existsSync(latest)
    ? `the last good checkpoint, ${latest}, is kept`
    : 'no checkpoint had been written yet';
}

/**
 * Stops the run at the first non-finite loss or weight: training on would only
 * spread NaN through every later checkpoint, so nothing of this iteration is saved.
 */
function assertFiniteUpdate(
  update: UpdateStats,
  model: tfType.LayersModel,
  iteration: number,
  hint: string,
): void {
  const losses: [string, number][] = [
    ['policy', update.policyLoss],
    ['value', update.valueLoss],
    ['entropy', update.entropy],
  ];
  for (const [name, value] of losses) {
    if (!Number.isFinite(value)) {
      throw new Error(
        `training stopped at iteration ${iteration}: the ${name} loss is ${value}; ${hint}`,
      );
    }
  }
  for (const weight of model.weights) {
    if (!(weight.read().dataSync() as Float32Array).every(Number.isFinite)) {
      throw new Error(
        `training stopped at iteration ${iteration}: weight ${weight.name} is no longer finite; ${hint}`,
      );
    }
  }
}
