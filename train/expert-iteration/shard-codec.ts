import { z } from 'zod';
import { core } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { ShardCodec } from '../shards/protocol.ts';
import {
  base64Of,
  base64Schema,
  float32From,
  int8From,
  parseShardData,
  ShardDataError,
  uint8From,
} from '../shards/wire.ts';
import type { LoggedPositions } from './position-log.ts';
import type { GamesInProgress } from './search-self-play.ts';
import type { ShardSetup } from './shard-setup.ts';

const { STATE_SIZE } = core;

/**
 * Expert iteration's shards through the queue: the games in progress
 * without their empty log slots (a game logs up to maxPlies moves, most of
 * which are empty at any moment), and the finished games' positions as
 * states (a worker's observations would be 70 times their bytes).
 */

const countSchema = z.number().int().nonnegative();

/**
 * A shard's games in progress without the empty log slots: each game's board,
 * how many searched moves it has played and logged, and the logged moves' positions, policies,
 * values and the solver's bounds on them, one game after the other.
 */
const encodedGamesSchema = z
  .object({
    states: base64Schema,
    logCount: z.array(countSchema).max(8192),
    plies: z.array(countSchema).max(8192),
    logStates: base64Schema,
    logPolicies: base64Schema,
    logValues: base64Schema,
    logBounds: base64Schema,
  })
  .strict();
type EncodedGames = z.infer<typeof encodedGamesSchema>;

/** The positions of a shard's finished games, with their policy and value targets. */
const encodedPositionsSchema = z
  .object({
    count: countSchema,
    states: base64Schema,
    policies: base64Schema,
    values: base64Schema,
  })
  .strict();

/** What a shard's games are sized by (its setup's selfPlay options). */
export interface GamesShape {
  readonly games: number;
  readonly maxPlies: number;
}

/** The games in progress of a shard, the used log slots only. */
export function encodeGames(games: GamesInProgress, { maxPlies }: GamesShape): EncodedGames {
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
  const out = int8From(text, count * 2, what);
  for (let i = 0; i < count; i++) {
    const lo = out[2 * i] as number;
    const hi = out[2 * i + 1] as number;
    if (lo < -1 || hi > 1 || lo > hi) {
      throw new ShardDataError(`${what}: move ${i} has bounds ${lo}..${hi}, not within -1..1`);
    }
  }
  return out;
}

/**
 * The games in progress back at full size (the empty slots zero: self-play
 * reads a game's log only up to its count). Throws a ShardDataError naming
 * `where` when the arrays do not fit `shape`.
 */
export function decodeGames(data: unknown, shape: GamesShape, where: string): GamesInProgress {
  const games = parseShardData(encodedGamesSchema, data, where);
  const { games: n, maxPlies } = shape;
  if (games.logCount.length !== n) {
    throw new ShardDataError(`${where}: ${games.logCount.length} games, the shard plays ${n}`);
  }
  const over = games.logCount.findIndex((c) => c > maxPlies);
  if (over >= 0) {
    throw new ShardDataError(
      `${where}: game ${over} logged ${games.logCount[over]} moves, more than maxPlies (${maxPlies})`,
    );
  }
  if (games.plies.length !== n) {
    throw new ShardDataError(
      `${where}: plies of ${games.plies.length} games, the shard plays ${n}`,
    );
  }
  const short = games.plies.findIndex((p, g) => p > maxPlies || p < (games.logCount[g] as number));
  if (short >= 0) {
    throw new ShardDataError(
      `${where}: game ${short} played ${games.plies[short]} moves, not between its ${games.logCount[short]} logged and maxPlies (${maxPlies})`,
    );
  }
  const used = games.logCount.reduce((sum, c) => sum + c, 0);
  const packedStates = uint8From(games.logStates, used * STATE_SIZE, `${where}: logStates`);
  const packedPolicies = float32From(
    games.logPolicies,
    used * NUM_ACTIONS,
    `${where}: logPolicies`,
  );
  const packedValues = float32From(games.logValues, used, `${where}: logValues`);
  const packedBounds = boundsFrom(games.logBounds, used, `${where}: logBounds`);
  const logStates = new Uint8Array(n * maxPlies * STATE_SIZE);
  const logPolicies = new Float32Array(n * maxPlies * NUM_ACTIONS);
  const logValues = new Float32Array(n * maxPlies);
  const logBounds = new Int8Array(n * maxPlies * 2);
  let k = 0;
  games.logCount.forEach((count, g) => {
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
    states: uint8From(games.states, n * STATE_SIZE, `${where}: states`),
    logCount: Int32Array.from(games.logCount),
    plies: Int32Array.from(games.plies),
    logStates,
    logPolicies,
    logValues,
    logBounds,
  };
}

/** The positions without their observations (the learner encodes them). */
function encodePositions(positions: LoggedPositions): z.infer<typeof encodedPositionsSchema> {
  return {
    count: positions.count,
    states: base64Of(positions.states),
    policies: base64Of(positions.policies),
    values: base64Of(positions.values),
  };
}

function decodePositions(data: unknown, samples: number, where: string): LoggedPositions {
  const positions = parseShardData(encodedPositionsSchema, data, `${where}: positions`);
  const { count } = positions;
  if (samples !== count) {
    throw new ShardDataError(`${where}: ${count} positions sent, the stats count ${samples}`);
  }
  return {
    count,
    states: uint8From(positions.states, count * STATE_SIZE, `${where}: positions' states`),
    policies: float32From(positions.policies, count * NUM_ACTIONS, `${where}: positions' policies`),
    values: float32From(positions.values, count, `${where}: positions' values`),
  };
}

/** Expert iteration's shard codec: the games in progress, and the finished games' positions. */
export const shardCodec: ShardCodec<ShardSetup, GamesInProgress, LoggedPositions> = {
  encodeCarry: (games, setup) => encodeGames(games, setup.selfPlay),
  decodeCarry: (data, setup, where) => decodeGames(data, setup.selfPlay, where),
  encodeOutput: encodePositions,
  decodeOutput: (data, stats, where) => decodePositions(data, stats.learnerSamples, where),
};
