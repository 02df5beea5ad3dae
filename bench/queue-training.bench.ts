import { createHash } from 'node:crypto';
import { Random } from '../env/random.ts';
import { loadBackend } from '../models/backend.ts';
import { inferenceEngine } from '../models/inference/inference-engine.ts';
import { QueueShardRunner, type ShardQueueTimings } from '../queue/shard-runner.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { buildLearner, disposeLearner } from '../train/learner.ts';
import type { ShardRunnerContext, ShardRunnerFactory } from '../train/shards/protocol.ts';
import { forgetJobs, startWorkers, stopWorkers } from './queue-setup.ts';
import { startRedisServer } from './redis-server.ts';
import type { Emit } from './types.ts';

/**
 * One training run's self-play on the queue (needs Debian's redis-server):
 * searched moves per second of expert iteration's self-play (`quick`'s
 * settings, in 4 shards of 64 games, 2048 searched moves each, on the
 * process's inference backend, the workers' too) in this thread,
 * on 2 worker threads, and on 1, 2, 3 and 4 `ayoayo worker` processes started
 * before the clock; and what the queue costs the coordinator per iteration
 * (the network and the jobs encoded, the results decoded, the positions
 * merged) and per job (enqueue, take, fetch the network, send the result back:
 * the wait less the shards' own play time, with one worker playing them one
 * after the other), with the bytes a job, its result and the network carry.
 * Two warm-up iterations (the workers start their self-play threads), then
 * four measured, each with an update between, as in a run
 * (`secondsPerIteration` is self-play's, `updateSeconds` the update's, which
 * stays on the coordinator). Every row says whether its network after the six
 * updates is the one this thread's run ends with (`sameRun`): the queued run
 * must be the local run whatever the number of workers.
 */
const WARM_UP = 2;
const MEASURED = 4;

export async function run(emit: Emit): Promise<void> {
  const { tf, name: backend } = await loadBackend('auto');
  // What runs the networks here and on the workers (the same choice: AYOAYO_INFERENCE or auto).
  const inference = (await inferenceEngine()).backend;
  const config = buildConfig([PRESETS.quick, { seed: 1, expertIteration: { selfPlayShards: 4 } }]);
  const blocks: Readonly<Record<string, unknown>> = config;
  const block: Readonly<Record<string, unknown>> = { ...Object(blocks.expertIteration) };
  const ei = {
    gamesAtOnce: Number(block.gamesAtOnce),
    movesPerIteration: Number(block.movesPerIteration),
    simulations: Number(block.simulations),
    selfPlayShards: Number(block.selfPlayShards),
  };
  const base = {
    backend,
    inference,
    gamesAtOnce: ei.gamesAtOnce,
    movesPerIteration: ei.movesPerIteration,
    simulations: ei.simulations,
    shards: ei.selfPlayShards,
    hidden: config.hidden.join('x'),
  };

  /** Called as the measured iterations start (the queue's timings are read then). */
  let onMeasure: (() => void) | undefined;
  /** Self-play of the measured iterations: searched moves per second, and seconds per iteration. */
  const selfPlay = async (options: { workers?: number; shardRunner?: ShardRunnerFactory }) => {
    const learner = await buildLearner(tf, config, options);
    const rng = Random.fromSeed(1);
    learner.algorithm.reset(1, rng);
    let plies = 0;
    let seconds = 0;
    let updateSeconds = 0;
    let weights = '';
    try {
      for (let i = 0; i < WARM_UP + MEASURED; i++) {
        if (i === WARM_UP) onMeasure?.();
        const stats = await learner.algorithm.collect(rng, i + 1);
        const update = await learner.algorithm.update(rng);
        if (i < WARM_UP) continue;
        plies += stats.plies;
        seconds += stats.seconds;
        updateSeconds += update.seconds;
      }
      const hash = createHash('sha256');
      for (const w of learner.model.getWeights()) hash.update(w.dataSync() as Float32Array);
      weights = hash.digest('hex');
    } finally {
      await disposeLearner(learner);
    }
    return {
      movesPerSec: plies / seconds,
      secondsPerIteration: seconds / MEASURED,
      updateSeconds: updateSeconds / MEASURED,
      weights,
    };
  };
  let localWeights: string | undefined;
  for (const workers of [0, 2]) {
    const r = await selfPlay({ workers });
    localWeights ??= r.weights;
    emit({
      name: `self-play, local, ${workers === 0 ? 'this thread' : `${workers} worker threads`}`,
      ...base,
      unit: 'searched moves/s',
      value: Math.round(r.movesPerSec),
      secondsPerIteration: Number(r.secondsPerIteration.toFixed(2)),
      updateSeconds: Number(r.updateSeconds.toFixed(2)),
      sameRun: r.weights === localWeights,
    });
  }

  const redis = await startRedisServer();
  try {
    for (const count of [1, 2, 3, 4]) {
      const workers = await startWorkers(redis.url, count);
      let runner: { readonly timings: ShardQueueTimings } | undefined;
      let before = {
        encode: 0,
        wait: 0,
        decode: 0,
        play: 0,
        bytes: 0,
        jobBytes: 0,
        resultBytes: 0,
      };
      const snapshot = () => {
        const t = runner?.timings;
        return {
          encode: t?.encodeSeconds ?? 0,
          wait: t?.waitSeconds ?? 0,
          decode: t?.decodeSeconds ?? 0,
          play: t?.playSeconds ?? 0,
          bytes: t?.networkBytes ?? 0,
          jobBytes: t?.jobBytes ?? 0,
          resultBytes: t?.resultBytes ?? 0,
        };
      };
      onMeasure = () => {
        before = snapshot();
      };
      const r = await selfPlay({
        shardRunner: <C, O>(context: ShardRunnerContext<C, O>) => {
          const queued = new QueueShardRunner<C, O>(redis.url, context, {});
          runner = queued;
          return queued;
        },
      });
      onMeasure = undefined;
      const after = snapshot();
      const per = (key: keyof typeof after) => (after[key] - before[key]) / MEASURED;
      const collectMs = r.secondsPerIteration * 1000;
      emit({
        name: `self-play, queue, ${count} worker process${count === 1 ? '' : 'es'}`,
        ...base,
        unit: 'searched moves/s',
        value: Math.round(r.movesPerSec),
        secondsPerIteration: Number(r.secondsPerIteration.toFixed(2)),
        sameRun: r.weights === localWeights,
      });
      if (count === 1) {
        const encodeMs = per('encode') * 1000;
        const decodeMs = per('decode') * 1000;
        const waitMs = per('wait') * 1000;
        emit({
          name: 'coordinator overhead per iteration (1 worker process)',
          ...base,
          unit: 'ms',
          encodeMs: Number(encodeMs.toFixed(1)),
          decodeMs: Number(decodeMs.toFixed(1)),
          mergeMs: Number((collectMs - encodeMs - waitMs - decodeMs).toFixed(1)),
          networkKB: Math.round(per('bytes') / 1024),
          value: Number((collectMs - waitMs).toFixed(1)),
        });
        emit({
          name: 'queue overhead per shard job (1 worker process)',
          ...base,
          unit: 'ms',
          shardPlayMs: Math.round((per('play') * 1000) / ei.selfPlayShards),
          jobKB: Math.round(per('jobBytes') / 1024 / ei.selfPlayShards),
          resultKB: Math.round(per('resultBytes') / 1024 / ei.selfPlayShards),
          value: Number((((per('wait') - per('play')) * 1000) / ei.selfPlayShards).toFixed(1)),
        });
      }
      await stopWorkers(workers);
      await forgetJobs(redis.url);
    }
  } finally {
    await redis.stop();
  }
}
