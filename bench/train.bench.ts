import { availableParallelism } from 'node:os';
import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { inferenceEngine } from '../models/inference/inference-engine.ts';
import type { BuildOptions } from '../train/algorithm/descriptor.ts';
import type { TrainingAlgorithm } from '../train/algorithm/training-algorithm.ts';
import { registerBuiltinAlgorithms } from '../train/builtin-algorithms.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { buildLearner, disposeLearner } from '../train/learner.ts';
import type { TrainConfig } from '../train/settings/schema.ts';
import type { ShardRunnerContext } from '../train/shards/protocol.ts';
import { corePeak, type OrtPublic } from './network-search.bench.ts';
import {
  type IterationWork,
  RecordingShards,
  selfPlayLimit,
  updateFlopsPerSample,
} from './self-play-limit.ts';
import type { Emit, Measurement } from './types.ts';

/** The presets this bench measures, expert iteration's and PPO's. */
export const TRAIN_PRESETS = ['quick', 'quick-ppo', 'long', 'long-ppo'] as const;
export type TrainPreset = (typeof TRAIN_PRESETS)[number];

/**
 * What a self-play measurement needs of a source tree: this one's, or an
 * earlier commit's when bench/against.ts compares the two (its modules are
 * imported from there, so their types are only as wide as this measurement
 * uses).
 */
export interface TrainModules {
  readonly loadBackend: typeof loadBackend;
  readonly buildConfig: typeof buildConfig;
  readonly PRESETS: typeof PRESETS;
  readonly buildLearner: typeof buildLearner;
  readonly disposeLearner: typeof disposeLearner;
  readonly Random: typeof Random;
}

/** This tree's modules. */
registerBuiltinAlgorithms();
export const THIS_TRAIN_MODULES: TrainModules = {
  loadBackend,
  buildConfig,
  PRESETS,
  buildLearner,
  disposeLearner,
  Random,
};

/**
 * The network's evaluations of an algorithm's self-play so far: its profile's
 * tally, or, in code from before profiles, expert iteration's self-play's count.
 */
function evaluationsSoFar(algorithm: TrainingAlgorithm): number {
  const profile = algorithm.profile?.();
  if (profile !== undefined) return profile.tallies.evaluations ?? 0;
  const fields: Readonly<Record<string, unknown>> = { ...algorithm };
  const selfPlay: Readonly<Record<string, unknown>> = { ...Object(fields.selfPlay) };
  return typeof selfPlay.evaluations === 'number' ? selfPlay.evaluations : 0;
}

/**
 * Seconds this thread spent on the update's part its threads share so far:
 * the algorithm's profile, or in code from before profiles its updater's
 * counters (null where it kept none).
 */
function updateSharedSeconds(algorithm: TrainingAlgorithm): number | null {
  const profile = algorithm.profile?.();
  if (profile !== undefined) return profile.updateSharedSeconds;
  const fields: Readonly<Record<string, unknown>> = { ...algorithm };
  const updater: Readonly<Record<string, unknown>> = { ...Object(fields.updater) };
  const { sliceSeconds, fillSeconds } = updater;
  return typeof sliceSeconds === 'number' && typeof fillSeconds === 'number'
    ? sliceSeconds + fillSeconds
    : null;
}

/** Iterations each measurement plays before it counts (the JIT's and the sessions' warm-up). */
const WARM_UP_ITERATIONS = 2;

/**
 * One preset's self-play and update rates (see `run`), on the tree `m`.
 * `selfPlayCpuPliesPerSec` counts the process's CPU time (worker threads
 * included), so that other work on a shared machine counts less. `build`
 * replaces how the learner is built (this tree only: its shards played by
 * another runner, say).
 */
export async function measureSelfPlay(
  m: TrainModules,
  preset: TrainPreset,
  iterations = 8,
  layer: Readonly<Record<string, unknown>> = {},
  build: Partial<BuildOptions> = {},
): Promise<Measurement> {
  const { tf, name: backend } = await m.loadBackend('auto');
  const base = m.PRESETS[preset];
  // A preset is a layer of settings today, its settings themselves in code from before.
  const presetFields: Readonly<Record<string, unknown>> = { ...Object(base) };
  const settings: Readonly<Record<string, unknown>> = { ...Object(presetFields.settings ?? base) };
  const selfOnly =
    settings.algorithm === 'expert-iteration' ? {} : { ppo: { poolShare: 0, baselineShare: 0 } };
  const config = m.buildConfig([base, { seed: 1, ...selfOnly }, layer]);
  // Expert iteration's shards play on worker threads as in a run (one per core at most).
  const workers =
    build.workers ?? Math.min(config.workers ?? availableParallelism(), availableParallelism());
  const learner = await m.buildLearner(tf, config, { ...build, workers });
  const { algorithm } = learner;
  const rng = m.Random.fromSeed(1);
  algorithm.reset(1, rng);
  let plies = 0;
  let rolloutSeconds = 0;
  let rolloutCpuSeconds = 0;
  let samples = 0;
  let updateSeconds = 0;
  let updateCpuSeconds = 0;
  let iterationSeconds = 0;
  // The update's part its threads share: the algorithm's profile says it (older trees: its updater).
  const shared = (): number | null => updateSharedSeconds(algorithm);
  let sharedSeconds = 0;
  let evaluations = 0;
  for (let i = 0; i < iterations; i++) {
    const evaluationsBefore = evaluationsSoFar(algorithm);
    const start = performance.now();
    const cpuBefore = process.cpuUsage();
    const rollout = await algorithm.collect(rng, i + 1);
    const cpu = process.cpuUsage(cpuBefore);
    const sharedBefore = shared();
    const updateCpuBefore = process.cpuUsage();
    const update = await algorithm.update(rng);
    const updateCpu = process.cpuUsage(updateCpuBefore);
    if (i < WARM_UP_ITERATIONS) continue;
    updateCpuSeconds += (updateCpu.user + updateCpu.system) / 1e6;
    sharedSeconds += (shared() ?? 0) - (sharedBefore ?? 0);
    iterationSeconds += (performance.now() - start) / 1000;
    plies += rollout.plies;
    evaluations += evaluationsSoFar(algorithm) - evaluationsBefore;
    rolloutSeconds += rollout.seconds;
    rolloutCpuSeconds += (cpu.user + cpu.system) / 1e6;
    samples += update.samples;
    updateSeconds += update.seconds;
  }
  // Trees from before native inference have no `inference` on the learner, nor gradients on onnxruntime.
  const inference = (learner as { inference?: { backend: string } }).inference?.backend ?? 'tfjs';
  const gradients = (algorithm as { gradientBackend?: string }).gradientBackend ?? 'tfjs';
  await m.disposeLearner(learner);
  // The run's block of settings, as any version's config holds it.
  const fields: Readonly<Record<string, unknown>> = { ...config };
  const setting = (block: string, field: string): number => {
    const settings: Readonly<Record<string, unknown>> = { ...Object(fields[block]) };
    return Number(settings[field]);
  };
  return {
    name: 'self-play',
    preset,
    backend,
    inference,
    algorithm: config.algorithm,
    hidden: config.hidden.join('x'),
    ...(config.algorithm === 'expert-iteration'
      ? { gamesAtOnce: setting('expertIteration', 'gamesAtOnce') }
      : { numEnvs: setting('ppo', 'numEnvs') }),
    selfPlayPliesPerSec: Math.round(plies / rolloutSeconds),
    selfPlayCpuPliesPerSec: Math.round(plies / rolloutCpuSeconds),
    ...(config.algorithm === 'expert-iteration'
      ? {
          searchSimulations: setting('expertIteration', 'simulations'),
          selfPlayShards: setting('expertIteration', 'selfPlayShards'),
          workers,
          leafEvaluationsPerSec: Math.round(evaluations / rolloutSeconds),
        }
      : {}),
    updateSamplesPerSec: Math.round(samples / updateSeconds),
    updateSamplesPerIteration: Math.round(samples / (iterations - WARM_UP_ITERATIONS)),
    updateCpuSeconds: Number((updateCpuSeconds / (iterations - WARM_UP_ITERATIONS)).toFixed(3)),
    ...(shared() === null
      ? {}
      : {
          updateSharedSeconds: Number(
            (sharedSeconds / (iterations - WARM_UP_ITERATIONS)).toFixed(3),
          ),
        }),
    gradients,
    iterationSeconds: Number((iterationSeconds / (iterations - WARM_UP_ITERATIONS)).toFixed(3)),
  };
}

/**
 * Self-play plies per second, update samples per second (epochs counted) and
 * seconds an iteration (both) of each preset's algorithm, after two warm-up iterations, with no pool or
 * baseline opponents. PPO (`quick-ppo`, `long-ppo`): VectorEnv stepping, lookahead
 * encoding and one batched inference per step. Expert iteration (`quick`, `long`):
 * searched moves per second, each behind a Gumbel search whose leaves of all
 * games go through the network in one batched call, and those leaf
 * evaluations per second. The network runs on the process's inference backend
 * (AYOAYO_INFERENCE: onnxruntime-node where it loads); the updates' gradients on
 * onnxruntime-node too for expert iteration (`gradients`), else in tfjs.
 * bench/against.ts runs the same measurement on an earlier commit beside this one.
 */
export async function run(emit: Emit): Promise<void> {
  for (const preset of TRAIN_PRESETS) await measurePreset(preset, emit);
}

/** One preset's measurements of `run`. */
export async function measurePreset(preset: TrainPreset, emit: Emit): Promise<void> {
  const measured = await measureSelfPlay(THIS_TRAIN_MODULES, preset);
  emit(measured);
  if (measured.algorithm === 'expert-iteration') {
    for (const row of await measureLimits(preset, measured)) emit(row);
  }
}

/**
 * The self-play's practical limit on this machine (bench/self-play-limit.ts)
 * beside its measured rates: the same run played again with its shards in
 * this thread, recording its forward calls and encodes; from the iterations
 * the rates count (all but the warm-up ones), the limit's searched moves a
 * CPU second, times the cores, and
 * the self-play's rates over it (wall time on the workers; CPU time on the
 * workers; CPU time in this one thread). Then the update's: its samples'
 * forward and backward passes at the core's peak (onnxruntime's best
 * single-thread MatMul here, network-search.bench.ts) against the update's
 * part its threads share, and against its whole CPU time, in the one-thread run.
 */
async function measureLimits(preset: TrainPreset, measured: Measurement): Promise<Measurement[]> {
  const engine = await inferenceEngine();
  const runners: { readonly iterations: IterationWork[]; readonly config: TrainConfig }[] = [];
  const oneThread = await measureSelfPlay(
    THIS_TRAIN_MODULES,
    preset,
    undefined,
    {},
    {
      workers: 0,
      shardRunner: <C, O>(context: ShardRunnerContext<C, O>) => {
        const runner = new RecordingShards<C, O>(engine, context);
        runners.push(runner);
        return runner;
      },
    },
  );
  const [runner] = runners;
  if (runner === undefined) throw new Error(`${preset}: its self-play is not played in shards`);
  // The iterations the rates are measured over (measureSelfPlay's, after its two warm-up ones).
  const recorded = runner.iterations.slice(WARM_UP_ITERATIONS);
  const limit = await selfPlayLimit(recorded, runner.config);
  const cores = availableParallelism();
  const perCpuSecond = 1 / limit.secondsPerMove;
  const ratio = (rate: unknown) => Number((Number(rate) / perCpuSecond).toFixed(3));
  const selfPlay: Measurement = {
    name: 'self-play-limit',
    preset,
    cores,
    limitPliesPerSec: Math.round(cores * perCpuSecond),
    selfPlayPliesPerSec: measured.selfPlayPliesPerSec,
    ratio: Number((Number(measured.selfPlayPliesPerSec) / (cores * perCpuSecond)).toFixed(3)),
    limitCpuPliesPerSec: Math.round(perCpuSecond),
    selfPlayCpuPliesPerSec: measured.selfPlayCpuPliesPerSec,
    cpuRatio: ratio(measured.selfPlayCpuPliesPerSec),
    oneThreadCpuPliesPerSec: oneThread.selfPlayCpuPliesPerSec,
    oneThreadCpuRatio: ratio(oneThread.selfPlayCpuPliesPerSec),
    forwardShareOfLimit: Number((limit.forwardSecondsPerMove / limit.secondsPerMove).toFixed(3)),
    meanRows: Number(limit.meanRows.toFixed(1)),
    encodesPerMove: Number(limit.encodesPerMove.toFixed(2)),
    cEncodesPerSec: Math.round(limit.cEncodesPerSec),
    encoderRatioToC: Number((limit.tsEncodesPerSec / limit.cEncodesPerSec).toFixed(3)),
    // A search that costs nothing (the recorded calls, each after the TypeScript encoder wrote
    // its rows): its ratio; its forward calls against the same calls alone; and its ratio with
    // the encoder at C's rate.
    searchFreeRatio: Number((limit.secondsPerMove / limit.searchFreeSecondsPerMove).toFixed(3)),
    searchFreeForwardToAlone: Number(
      (limit.searchFreeForwardSecondsPerMove / limit.forwardSecondsPerMove).toFixed(3),
    ),
    // The recorded self-play itself (one thread): its forward calls against the same calls
    // alone, and the microseconds a move outside them (the search core, the driver, the targets).
    playForwardToAlone: Number(
      (limit.playForwardSecondsPerMove / limit.forwardSecondsPerMove).toFixed(3),
    ),
    playOutsideForwardMicros: Number(
      (1e6 * (limit.playSecondsPerMove - limit.playForwardSecondsPerMove)).toFixed(1),
    ),
    limitMicros: Number((1e6 * limit.secondsPerMove).toFixed(1)),
    searchFreeRatioAtC: Number(
      (
        limit.secondsPerMove /
        (limit.searchFreeForwardSecondsPerMove + limit.encoderSecondsPerMove)
      ).toFixed(3),
    ),
  };
  const ort = (await import('onnxruntime-node')) as unknown as OrtPublic;
  const peak = await corePeak(ort);
  const weights = (recorded[recorded.length - 1] as IterationWork).weights;
  const flops = updateFlopsPerSample(weights);
  const updateLimit = (Number(oneThread.updateSamplesPerIteration) * flops) / (peak * 1e9);
  const sharedSeconds = Number(oneThread.updateSharedSeconds);
  const updateCpuSeconds = Number(oneThread.updateCpuSeconds);
  const update: Measurement = {
    name: 'update-limit',
    preset,
    samplesPerIteration: oneThread.updateSamplesPerIteration,
    flopsPerSample: flops,
    coreGflopsPerSec: Number(peak.toFixed(1)),
    limitSeconds: Number(updateLimit.toFixed(3)),
    sharedSeconds,
    ratio: Number((updateLimit / sharedSeconds).toFixed(3)),
    updateCpuSeconds,
    cpuRatio: Number((updateLimit / updateCpuSeconds).toFixed(3)),
  };
  return [selfPlay, update];
}
