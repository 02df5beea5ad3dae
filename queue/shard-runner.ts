import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Queue } from 'bullmq';
import type { MlpWeights } from '../models/mlp-runner.ts';
import { makePolicyFile } from '../models/policy-file.ts';
import { runPaths } from '../train/run/paths.ts';
import { observationOf } from '../train/settings/schema.ts';
import type {
  ShardIteration,
  ShardResult,
  ShardRunner,
  ShardRunnerContext,
  ShardRunnerFactory,
  ShardSetup,
} from '../train/shards/protocol.ts';
import { ShardDataError } from '../train/shards/wire.ts';
import { QueueError } from './errors.ts';
import { followJobs } from './follow-jobs.ts';
import { parseJobData, SHARD_JOB, type ShardJob, shardResultSchema } from './jobs.ts';
import {
  forgetPolicy,
  type SharedPolicy,
  sharePolicyFile,
  storePolicy,
} from './policy-transport.ts';
import { closeCoordinatorClients, openQueueClients, type QueueClients } from './queue-clients.ts';
import { decodeShardResult } from './shard-codec.ts';
import { ayoayoVersion } from './version.ts';

/**
 * Finished shards stay a day: a coordinator killed and resumed takes the ones
 * it had not merged yet as they are. Those of earlier checkpoint intervals are
 * removed as the run goes (they are never asked for again).
 */
export const SHARD_KEEP_SECONDS = 24 * 3600;
/** An iteration's network is removed once its shards are in; this is the bound if the coordinator dies first. */
const NETWORK_TTL_SECONDS = 24 * 3600;

export interface QueueShardRunnerOptions {
  /** Status lines: no worker yet, what it waits for, Redis unreachable and back, shards enqueued again. */
  readonly log?: (line: string) => void;
  /** Stops waiting (the run ends with a QueueStoppedError; its shards stay queued). */
  readonly signal?: AbortSignal;
  /** With no shard running or finished for this long, the run fails (QueueTimeoutError). */
  readonly timeoutMs?: number;
  /** With no shard finished for this long, say what it waits for (default 60 s). */
  readonly waitingLineEveryMs?: number;
  /** The version the jobs are stamped with (default this ayoayo's; tests play another). */
  readonly version?: string;
}

/** Where a queued iteration's time went, for the benchmark (seconds, summed over iterations). */
export interface ShardQueueTimings {
  iterations: number;
  /** The network as a policy file, the jobs' data and ids. */
  encodeSeconds: number;
  /** Storing the network, enqueueing, the workers' play, the results' way back. */
  waitSeconds: number;
  /** Validating and decoding the results. */
  decodeSeconds: number;
  /** The shards' own self-play time, as their workers measured it. */
  playSeconds: number;
  /** The networks' size as they travel (policy files). */
  networkBytes: number;
  /** The jobs' data as they travel (JSON: the games in progress, generators, moves, the config). */
  jobBytes: number;
  /** The results as they come back (JSON: the positions, the games in progress, the stats). */
  resultBytes: number;
}

/**
 * A ShardRunner for the trainer (TrainOptions.shardRunner) that plays each
 * iteration's shards on `ayoayo worker`s through the queue at `url`; the run
 * is the one a local run would make (same seed, same backend on the workers).
 */
export function queueShardRunner(
  url: string,
  options: QueueShardRunnerOptions = {},
): ShardRunnerFactory {
  return <C, O>(context: ShardRunnerContext<C, O>) =>
    new QueueShardRunner<C, O>(url, context, options);
}

/** How a stopped run goes on: resumed from its last checkpoint, or started again before its first. */
function goOnText(config: ShardRunnerContext<unknown, unknown>['config']): string {
  return existsSync(runPaths(config).latest)
    ? `resume the run from its last checkpoint (ayoayo train --runs-dir ${config.runsDir} --name ${config.name} --resume --queue URL)`
    : 'run the same command again (the run has no checkpoint yet)';
}

/** A job's id: a hash of everything its result depends on, so the same shard always has the same id. */
function shardJobId(setup: ShardSetup, job: ShardJob): string {
  const { config: _config, iteration: _iteration, ...played } = job;
  return `s-${createHash('sha256')
    .update(JSON.stringify({ setup, ...played }))
    .digest('hex')
    .slice(0, 40)}`;
}

/**
 * Each iteration: the learner's network goes into the store once (a policy
 * file named by its sha256), each shard becomes a job that names it, and the
 * results come back validated and in the shards' order, each taken once
 * however often its job ran. Job ids are hashes of what a shard's result
 * depends on (its setup, the network, its games, generator and moves, the
 * version), so a coordinator resumed from a checkpoint enqueues the shards
 * it had already sent under the same ids and takes the finished ones as they
 * are: no shard is counted twice.
 */
export class QueueShardRunner<C, O> implements ShardRunner<C, O> {
  readonly timings: ShardQueueTimings = {
    iterations: 0,
    encodeSeconds: 0,
    waitSeconds: 0,
    decodeSeconds: 0,
    playSeconds: 0,
    networkBytes: 0,
    jobBytes: 0,
    resultBytes: 0,
  };
  #clients: Promise<QueueClients> | null = null;
  /** Jobs of this checkpoint interval, and those of the one before, to remove. */
  #played: string[] = [];
  #stale: string[] = [];
  readonly #log: (line: string) => void;

  constructor(
    private readonly url: string,
    private readonly context: ShardRunnerContext<C, O>,
    private readonly options: QueueShardRunnerOptions,
  ) {
    this.#log = options.log ?? (() => {});
  }

  #connect(): Promise<QueueClients> {
    this.#clients ??= openQueueClients(
      this.url,
      this.options.version ?? ayoayoVersion(),
      this.#log,
    );
    return this.#clients;
  }

  freshGames(): void {
    this.#stale.push(...this.#played);
    this.#played = [];
  }

  async play(
    iterations: readonly ShardIteration<C>[],
    weights: MlpWeights,
    iteration: number,
  ): Promise<ShardResult<C, O>[]> {
    const { config, setups, codec } = this.context;
    const clients = await this.#connect();
    await this.#removeStale(clients.queue);
    const started = performance.now();
    const network = this.#shareNetwork(weights, iteration);
    const jobs = iterations.map((it, shard): ShardJob => {
      const setup = setups[shard] as ShardSetup;
      return {
        version: clients.version,
        iteration,
        shard,
        config,
        network: network.sha,
        carry: it.carry === null ? null : codec.encodeCarry(it.carry, setup.play),
        rngState: [...it.rngState],
        moves: it.moves,
      };
    });
    const ids = jobs.map((job, shard) => shardJobId(setups[shard] as ShardSetup, job));
    const encoded = performance.now();
    const raw: unknown[] = [];
    const describe = (shard: number): string =>
      `self-play shard ${shard} of iteration ${iteration} (job ${ids[shard]})`;
    const storeNetwork = (): Promise<void> =>
      storePolicy(clients.store, network, NETWORK_TTL_SECONDS);
    await storeNetwork();
    await followJobs({
      clients,
      ids,
      jobs: jobs.map((data) => ({ name: SHARD_JOB, data })),
      beforeRequeue: storeNetwork,
      noun: `self-play shard`,
      describe,
      done: (finished) =>
        `${finished} of ${jobs.length} self-play shards of iteration ${iteration}`,
      goOn: goOnText(config),
      keepSeconds: SHARD_KEEP_SECONDS,
      onResult: (shard, value) => {
        // Checked at once (a bad result ends the wait naming its shard), decoded after.
        raw[shard] = parseJobData(shardResultSchema, value, `the result of ${describe(shard)}`);
      },
      log: this.#log,
      signal: this.options.signal,
      waitingLineEveryMs: this.options.waitingLineEveryMs,
      timeoutMs: this.options.timeoutMs,
    });
    const arrived = performance.now();
    const results = raw.map((value, shard) =>
      decodedResult(() =>
        decodeShardResult(
          value as Parameters<typeof decodeShardResult>[0],
          codec,
          (setups[shard] as ShardSetup).play,
          `the result of ${describe(shard)}`,
        ),
      ),
    );
    // Every shard of this network is in: no job will fetch it again.
    await forgetPolicy(clients.store, network.sha);
    this.#played.push(...ids);
    this.timings.iterations++;
    this.timings.encodeSeconds += (encoded - started) / 1000;
    this.timings.waitSeconds += (arrived - encoded) / 1000;
    this.timings.decodeSeconds += (performance.now() - arrived) / 1000;
    this.timings.playSeconds += results.reduce((s, r) => s + r.stats.seconds, 0);
    this.timings.networkBytes += network.text.length;
    // Measured after the clock: what BullMQ sends is this JSON.
    this.timings.jobBytes += jobs.reduce((n, job) => n + JSON.stringify(job).length, 0);
    this.timings.resultBytes += raw.reduce<number>((n, r) => n + JSON.stringify(r).length, 0);
    return results;
  }

  /** The learner's network as a policy file named after the run and iteration (its sha256 names it in the store). */
  #shareNetwork(weights: MlpWeights, iteration: number): SharedPolicy {
    const { config } = this.context;
    const file = makePolicyFile(weights, {
      observation: observationOf(config),
      rules: config.rules,
      source: { run: config.name, iteration },
    });
    return sharePolicyFile(file, `the network of run ${config.name} at iteration ${iteration}`);
  }

  /** Removes the finished jobs of earlier checkpoint intervals (a resumed run never asks for them). */
  async #removeStale(queue: Queue): Promise<void> {
    const stale = this.#stale.splice(0);
    await Promise.all(stale.map((id) => queue.remove(id)));
  }

  async dispose(): Promise<void> {
    if (this.#clients === null) return;
    const clients = await this.#clients.catch(() => null);
    if (clients !== null) await closeCoordinatorClients(clients);
  }
}

/** A result that its algorithm's codec refuses fails the run as the queue's fault it is. */
function decodedResult<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof ShardDataError) throw new QueueError(error.message);
    throw error;
  }
}
