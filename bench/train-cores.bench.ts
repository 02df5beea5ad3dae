import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Random } from '../env/random.ts';
import { loadBackend, type Tf } from '../models/backend.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { buildLearner, disposeLearner } from '../train/learner.ts';
import type { TrainConfig } from '../train/settings/schema.ts';
import { benchPresets } from './train-presets.ts';
import type { Emit } from './types.ts';

/**
 * How an iteration of `npm start` (`quick`) and of the pretrained policy's
 * run (`long`) spreads over the cores, measured on this machine and
 * projected to bigger ones:
 *
 * - `shard-costs`: with no worker thread, each self-play shard's seconds an
 *   iteration (played one after the other in this thread: its CPU time) and
 *   self-play's rest (the main thread's), and the update's, split into the
 *   part its threads share (the gradient slices, their sums, the next
 *   minibatch's filling) and the rest (Adam, on the main thread).
 * - `by-workers`: searched moves/s and update samples/s with 1, 2, ... worker
 *   threads up to the cores here, and whether each ends with the same network
 *   (`sameRun`: the run must not depend on its workers); a searched move's
 *   microseconds inside its shard (`shardMicrosPerMove`: with more threads
 *   than one, how much slower a shard plays beside the others) and the share
 *   of the threads' self-play time spent outside the shards
 *   (`outsideShardsShare`).
 * - `projection`: an iteration's seconds on N cores from `shard-costs`, its
 *   critical path: the shards dealt to N threads (longest first, each to the
 *   thread free first), self-play's rest, and the update with its slices
 *   dealt to N threads and its rest;
 *   `speedupOver2` against 2 cores. The 2-core row can be checked against
 *   `by-workers`'s measured seconds an iteration with 2 workers.
 *
 * Two warm-up iterations, then MEASURED. `npm run bench -- train-cores`
 * (BENCH_PRESETS=quick for one preset, BENCH_UPDATE_SLICES=4 for another
 * slice count).
 */
const WARM_UP = 2;
const MEASURED = 4;
const PROJECTED_CORES = [1, 2, 4, 8, 16];

export async function run(emit: Emit): Promise<void> {
  const { tf, name: backend } = await loadBackend('auto');
  for (const preset of benchPresets()) {
    const config = buildConfig([PRESETS[preset], { seed: 1 }, sliceLayer()]);
    const costs = await shardCosts(tf, config);
    emit({ name: 'shard-costs', preset, backend, ...costs });
    const base: { hash: string } = { hash: '' };
    for (const workers of workerCounts()) {
      const measured = await iterations(tf, config, workers);
      if (base.hash === '') base.hash = measured.hash;
      const { hash: _, ...rates } = measured;
      emit({
        name: 'by-workers',
        preset,
        backend,
        workers,
        ...rates,
        sameRun: measured.hash === base.hash,
      });
    }
    const at2 = projectedSeconds(costs, 2);
    for (const cores of PROJECTED_CORES) {
      const seconds = projectedSeconds(costs, cores);
      emit({
        name: 'projection',
        preset,
        cores,
        iterationSeconds: round(seconds),
        speedupOver2: round(at2 / seconds),
      });
    }
  }
}

/** BENCH_UPDATE_SLICES, to weigh another `updateSlices` than the preset's. */
function sliceLayer(): { updateSlices?: number } {
  const slices = process.env.BENCH_UPDATE_SLICES;
  return slices === undefined ? {} : { updateSlices: Number(slices) };
}

/** 1, 2, 4, ... worker threads up to the cores here, and the cores. */
function workerCounts(): number[] {
  const cores = availableParallelism();
  const counts: number[] = [];
  for (let n = 1; n < cores; n *= 2) counts.push(n);
  counts.push(cores);
  return counts;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** What an iteration costs on one thread (seconds, means over the measured iterations). */
interface IterationCosts {
  /** Each shard's seconds, in shard order. */
  readonly shardSeconds: readonly number[];
  /** Self-play's rest, on the main thread: handing the weights out, adding the shards' positions. */
  readonly serialSelfPlaySeconds: number;
  /**
   * The update's part its threads share: the gradient slices, their sums and
   * the minibatches' filling (the main thread fills the next while the
   * helpers start on the step's slices).
   */
  readonly sliceSeconds: number;
  /** The rest of the update, on the main thread. */
  readonly serialUpdateSeconds: number;
  readonly updateSlices: number;
}

async function shardCosts(tf: Tf, config: TrainConfig): Promise<IterationCosts> {
  const learner = await buildLearner(tf, config, { workers: 0 });
  const algorithm = learner.algorithm;
  if (algorithm.profile === undefined)
    throw new Error('the presets measured say where their time goes');
  const profile = () =>
    (algorithm.profile as NonNullable<typeof algorithm.profile>).call(algorithm);
  const shards: number[] = [];
  let selfPlay = 0;
  let slices = 0;
  let update = 0;
  try {
    const rng = Random.fromSeed(1);
    algorithm.reset(1, rng);
    for (let i = 0; i < WARM_UP + MEASURED; i++) {
      const collected = await algorithm.collect(rng, i + 1);
      const sharedBefore = profile().updateSharedSeconds;
      const stats = await algorithm.update(rng);
      if (i < WARM_UP) continue;
      profile().shardSeconds.forEach((s, k) => {
        shards[k] = (shards[k] ?? 0) + s / MEASURED;
      });
      selfPlay += collected.seconds / MEASURED;
      const shared = profile().updateSharedSeconds;
      slices += (shared - sharedBefore) / MEASURED;
      update += stats.seconds / MEASURED;
    }
  } finally {
    await disposeLearner(learner);
  }
  return {
    shardSeconds: shards.map(round),
    serialSelfPlaySeconds: round(selfPlay - shards.reduce((a, b) => a + b, 0)),
    sliceSeconds: round(slices),
    serialUpdateSeconds: round(update - slices),
    updateSlices: config.updateSlices ?? 1,
  };
}

/** The measured iterations with `workers` threads: rates, seconds an iteration and the network's hash. */
async function iterations(tf: Tf, config: TrainConfig, workers: number) {
  const learner = await buildLearner(tf, config, { workers });
  const { profile } = learner.algorithm;
  let plies = 0;
  let selfPlaySeconds = 0;
  let shardSeconds = 0;
  let samples = 0;
  let updateSeconds = 0;
  let wall = 0;
  const hash = createHash('sha256');
  try {
    const rng = Random.fromSeed(1);
    learner.algorithm.reset(1, rng);
    for (let i = 0; i < WARM_UP + MEASURED; i++) {
      const start = performance.now();
      const stats = await learner.algorithm.collect(rng, i + 1);
      const shards = profile?.call(learner.algorithm).shardSeconds ?? [];
      const update = await learner.algorithm.update(rng);
      if (i < WARM_UP) continue;
      wall += (performance.now() - start) / 1000;
      plies += stats.plies;
      selfPlaySeconds += stats.seconds;
      shardSeconds += shards.reduce((sum, s) => sum + s, 0);
      samples += update.samples;
      updateSeconds += update.seconds;
    }
    for (const w of learner.model.getWeights()) hash.update(w.dataSync() as Float32Array);
  } finally {
    await disposeLearner(learner);
  }
  const threads = Math.max(1, workers);
  return {
    searchedMovesPerSec: Math.round(plies / selfPlaySeconds),
    // A move's seconds inside its shard (the shards' own clocks, wherever they
    // played): beside another thread against alone, what the threads cost
    // each other; and the share of the threads' self-play time outside the
    // shards (hand-offs, the network's session per iteration, the wait for
    // the last shard).
    shardMicrosPerMove: round((1e6 * shardSeconds) / plies),
    outsideShardsShare: round(1 - shardSeconds / (threads * selfPlaySeconds)),
    updateSamplesPerSec: Math.round(samples / updateSeconds),
    iterationSeconds: round(wall / MEASURED),
    hash: hash.digest('hex'),
  };
}

/**
 * An iteration's seconds on `cores` threads: the shards dealt longest first,
 * each to the thread free first (the slowest thread's sum), then the update:
 * its slices in rounds of `cores` and its serial rest.
 */
export function projectedSeconds(costs: IterationCosts, cores: number): number {
  const threads = new Array<number>(Math.min(cores, costs.shardSeconds.length)).fill(0);
  for (const shard of [...costs.shardSeconds].sort((a, b) => b - a)) {
    const free = threads.indexOf(Math.min(...threads));
    threads[free] = (threads[free] as number) + shard;
  }
  const selfPlay = Math.max(...threads) + costs.serialSelfPlaySeconds;
  const slices = costs.updateSlices;
  const rounds = Math.ceil(slices / Math.min(cores, slices));
  return selfPlay + (costs.sliceSeconds * rounds) / slices + costs.serialUpdateSeconds;
}
