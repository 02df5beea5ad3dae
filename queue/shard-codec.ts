import { endianness } from 'node:os';
import { core } from '../env/index.ts';
import { NUM_ACTIONS } from '../models/mlp-runner.ts';
import type { LoggedPositions } from '../train/expert-iteration/position-log.ts';
import type { GamesInProgress } from '../train/expert-iteration/search-self-play.ts';
import type { ShardResult } from '../train/expert-iteration/shard.ts';
import { QueueError } from './errors.ts';
import type { EncodedGames, EncodedPositions, EncodedShardResult } from './jobs.ts';

const { STATE_SIZE } = core;

/**
 * A self-play shard's typed arrays as they travel through the queue: base64
 * of their bytes (exact: a float32 comes back bit for bit), and the games in
 * progress without their empty log slots (a game logs up to maxPlies moves,
 * most of which are empty at any moment). The bytes are little-endian, the
 * order of every machine Node runs on today; a big-endian one refuses.
 */

function checkEndianness(): void {
  if (endianness() !== 'LE') {
    throw new QueueError(
      'self-play shards travel as little-endian bytes: this machine is big-endian',
    );
  }
}

type Typed = Uint8Array | Int8Array | Int32Array | Float32Array;

function base64Of(array: Typed): string {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

function bytesOf(text: string, bytes: number, what: string): Buffer {
  const buffer = Buffer.from(text, 'base64');
  if (buffer.length !== bytes) {
    throw new QueueError(`${what}: expected ${bytes} bytes, got ${buffer.length}`);
  }
  return buffer;
}

function uint8From(text: string, count: number, what: string): Uint8Array {
  return new Uint8Array(bytesOf(text, count, what));
}

/** Float32 values from base64; a NaN or infinite one is refused (it would spread through training). */
function float32From(text: string, count: number, what: string): Float32Array {
  const buffer = bytesOf(text, count * 4, what);
  // A copy: a Buffer's bytes may sit at an offset that is not a multiple of 4.
  const out = new Float32Array(count);
  new Uint8Array(out.buffer).set(buffer);
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(out[i])) throw new QueueError(`${what}: value ${i} is ${out[i]}`);
  }
  return out;
}

/** What a shard's games are sized by (its setup's selfPlay options). */
export interface GamesShape {
  readonly games: number;
  readonly maxPlies: number;
}

/** The games in progress of a shard, the used log slots only. */
export function encodeGames(games: GamesInProgress, shape: GamesShape): EncodedGames {
  checkEndianness();
  const { maxPlies } = shape;
  const logCount = Array.from(games.logCount);
  const used = logCount.reduce((n, c) => n + c, 0);
  const logStates = new Uint8Array(used * STATE_SIZE);
  const logPolicies = new Float32Array(used * NUM_ACTIONS);
  const logValues = new Float32Array(used);
  const logBounds = new Int8Array(used * 2);
  let k = 0;
  logCount.forEach((count, g) => {
    const from = g * maxPlies;
    logStates.set(
      games.logStates.subarray(from * STATE_SIZE, (from + count) * STATE_SIZE),
      k * STATE_SIZE,
    );
    logPolicies.set(
      games.logPolicies.subarray(from * NUM_ACTIONS, (from + count) * NUM_ACTIONS),
      k * NUM_ACTIONS,
    );
    logValues.set(games.logValues.subarray(from, from + count), k);
    logBounds.set(games.logBounds.subarray(2 * from, 2 * (from + count)), 2 * k);
    k += count;
  });
  return {
    states: base64Of(games.states),
    logCount,
    plies: Array.from(games.plies),
    logStates: base64Of(logStates),
    logPolicies: base64Of(logPolicies),
    logValues: base64Of(logValues),
    logBounds: base64Of(logBounds),
  };
}

/** The solver's bounds on the logged values: pairs lo <= hi of -1, 0, 1 (anything else would skew the targets). */
function boundsFrom(text: string, count: number, what: string): Int8Array {
  const out = new Int8Array(uint8From(text, count * 2, what).buffer);
  for (let i = 0; i < count; i++) {
    const lo = out[2 * i] as number;
    const hi = out[2 * i + 1] as number;
    if (lo < -1 || hi > 1 || lo > hi) {
      throw new QueueError(`${what}: move ${i} has bounds ${lo}..${hi}, not within -1..1`);
    }
  }
  return out;
}

/**
 * The games in progress back at full size (the empty slots zero: self-play
 * reads a game's log only up to its count). Throws a QueueError naming
 * `where` when the arrays do not fit `shape`.
 */
export function decodeGames(data: EncodedGames, shape: GamesShape, where: string): GamesInProgress {
  checkEndianness();
  const { games: n, maxPlies } = shape;
  if (data.logCount.length !== n) {
    throw new QueueError(`${where}: ${data.logCount.length} games, the shard plays ${n}`);
  }
  const over = data.logCount.findIndex((c) => c > maxPlies);
  if (over >= 0) {
    throw new QueueError(
      `${where}: game ${over} logged ${data.logCount[over]} moves, more than maxPlies (${maxPlies})`,
    );
  }
  if (data.plies.length !== n) {
    throw new QueueError(`${where}: plies of ${data.plies.length} games, the shard plays ${n}`);
  }
  const short = data.plies.findIndex((p, g) => p > maxPlies || p < (data.logCount[g] as number));
  if (short >= 0) {
    throw new QueueError(
      `${where}: game ${short} played ${data.plies[short]} moves, not between its ${data.logCount[short]} logged and maxPlies (${maxPlies})`,
    );
  }
  const used = data.logCount.reduce((n, c) => n + c, 0);
  const packedStates = uint8From(data.logStates, used * STATE_SIZE, `${where}: logStates`);
  const packedPolicies = float32From(data.logPolicies, used * NUM_ACTIONS, `${where}: logPolicies`);
  const packedValues = float32From(data.logValues, used, `${where}: logValues`);
  const packedBounds = boundsFrom(data.logBounds, used, `${where}: logBounds`);
  const logStates = new Uint8Array(n * maxPlies * STATE_SIZE);
  const logPolicies = new Float32Array(n * maxPlies * NUM_ACTIONS);
  const logValues = new Float32Array(n * maxPlies);
  const logBounds = new Int8Array(n * maxPlies * 2);
  let k = 0;
  data.logCount.forEach((count, g) => {
    const to = g * maxPlies;
    logStates.set(packedStates.subarray(k * STATE_SIZE, (k + count) * STATE_SIZE), to * STATE_SIZE);
    logPolicies.set(
      packedPolicies.subarray(k * NUM_ACTIONS, (k + count) * NUM_ACTIONS),
      to * NUM_ACTIONS,
    );
    logValues.set(packedValues.subarray(k, k + count), to);
    logBounds.set(packedBounds.subarray(2 * k, 2 * (k + count)), 2 * to);
    k += count;
  });
  return {
    states: uint8From(data.states, n * STATE_SIZE, `${where}: states`),
    logCount: Int32Array.from(data.logCount),
    plies: Int32Array.from(data.plies),
    logStates,
    logPolicies,
    logValues,
    logBounds,
  };
}

export function encodePositions(positions: LoggedPositions): EncodedPositions {
  checkEndianness();
  return {
    count: positions.count,
    states: base64Of(positions.states),
    policies: base64Of(positions.policies),
    values: base64Of(positions.values),
  };
}

export function decodePositions(data: EncodedPositions, where: string): LoggedPositions {
  checkEndianness();
  const { count } = data;
  return {
    count,
    states: uint8From(data.states, count * STATE_SIZE, `${where}: positions' states`),
    policies: float32From(data.policies, count * NUM_ACTIONS, `${where}: positions' policies`),
    values: float32From(data.values, count, `${where}: positions' values`),
  };
}

/** A shard's result as a worker sends it back. */
export function encodeShardResult(result: ShardResult, shape: GamesShape): EncodedShardResult {
  return {
    backend: result.backend,
    games: encodeGames(result.games, shape),
    rngState: result.rngState,
    positions: encodePositions(result.positions),
    stats: { ...result.stats },
  };
}

/** A shard's result as the coordinator takes it (already parsed by shardResultSchema). */
export function decodeShardResult(
  data: EncodedShardResult,
  shape: GamesShape,
  where: string,
): ShardResult {
  const positions = decodePositions(data.positions, where);
  if (data.stats.learnerSamples !== positions.count) {
    throw new QueueError(
      `${where}: ${positions.count} positions sent, the stats count ${data.stats.learnerSamples}`,
    );
  }
  return {
    backend: data.backend,
    games: decodeGames(data.games, shape, where),
    rngState: [...data.rngState],
    positions,
    stats: { ...data.stats },
  };
}
