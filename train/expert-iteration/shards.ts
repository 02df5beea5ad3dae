import type { ShardsOf } from '../shards/protocol.ts';
import { shardMemory } from './memory.ts';
import type { LoggedPositions } from './position-log.ts';
import type { GamesInProgress } from './search-self-play.ts';
import type { ExpertIterationConfig } from './settings.ts';
import { shardCodec } from './shard-codec.ts';
import { type ShardSetup, shardSetups } from './shard-setup.ts';

/**
 * Expert iteration's self-play in shards (train/shards/): `selfPlayShards`
 * shards of the games, each carrying its games in progress from one
 * iteration to the next and giving back the finished games' positions with
 * their targets.
 */
export const expertIterationShards: ShardsOf<
  ExpertIterationConfig,
  ShardSetup,
  GamesInProgress,
  LoggedPositions
> = {
  count: (config) => config.expertIteration.selfPlayShards,
  countSetting: 'selfPlayShards',
  setups: shardSetups,
  memory: shardMemory,
  async player(setup, forward) {
    // Loaded with the first shard played: building configs needs none of the search.
    const { SearchShardPlayer } = await import('./shard.ts');
    return new SearchShardPlayer(forward, setup);
  },
  codec: shardCodec,
};
