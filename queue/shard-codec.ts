import type { ShardCodec, ShardResult } from '../train/shards/protocol.ts';
import type { EncodedShardResult } from './jobs.ts';

/**
 * A self-play shard's result as it travels through the queue: the protocol's
 * envelope (generator, statistics, backend) as it is, and what the algorithm
 * owns (the games' carry, the output) as its codec encodes them.
 */

/** A shard's result as a worker sends it back. */
export function encodeShardResult(
  result: ShardResult,
  codec: ShardCodec,
  setup: unknown,
): EncodedShardResult {
  return {
    backend: result.backend,
    carry: codec.encodeCarry(result.carry, setup),
    rngState: result.rngState,
    output: codec.encodeOutput(result.output),
    stats: { ...result.stats, tallies: { ...result.stats.tallies } },
  };
}

/**
 * A shard's result as the coordinator takes it (already parsed by
 * shardResultSchema): the carry and output decoded and checked by the
 * algorithm's codec, which throws a ShardDataError naming `where`.
 */
export function decodeShardResult<C, O>(
  data: EncodedShardResult,
  codec: ShardCodec<unknown, C, O>,
  setup: unknown,
  where: string,
): ShardResult<C, O> {
  const stats = { ...data.stats, tallies: { ...data.stats.tallies } };
  return {
    backend: data.backend,
    carry: codec.decodeCarry(data.carry, setup, where),
    rngState: [...data.rngState],
    output: codec.decodeOutput(data.output, stats, where),
    stats,
  };
}
