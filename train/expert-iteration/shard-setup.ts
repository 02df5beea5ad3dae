import { observationOf } from '../settings/schema.ts';
import { shareOf } from '../shards/sharded-self-play.ts';
import type { SearchSelfPlayOptions } from './search-self-play.ts';
import type { ExpertIterationConfig } from './settings.ts';
import type { OpeningDistribution } from './training-openings.ts';

/** What one of expert iteration's self-play shards plays; the same for every iteration of a run. */
export interface ShardSetup {
  /** `games` is the shard's share of the games. */
  readonly selfPlay: SearchSelfPlayOptions;
  readonly openings: OpeningDistribution;
  /** The rescoring solver's endgame table: boards of up to this many seeds (0: none), with `selfPlay.solverNodes`. */
  readonly endgameSeeds: number;
}

/**
 * The setup of each of a run's self-play shards (its share of the games), the
 * same for every iteration. A queue worker rebuilds a shard's setup from the
 * run's config with this too, so both sides play the same shard.
 */
export function shardSetups(config: ExpertIterationConfig): ShardSetup[] {
  const ei = config.expertIteration;
  const observation = observationOf(config);
  const { rules } = config;
  const shards = ei.selfPlayShards;
  return Array.from({ length: shards }, (_, i) => ({
    selfPlay: {
      games: shareOf(ei.gamesAtOnce, shards, i),
      rules,
      observation,
      maxPlies: config.maxPlies,
      simulations: ei.simulations,
      policyTarget: ei.policyTarget,
      completedQScale: ei.completedQScale,
      searchValueWeight: ei.searchValueWeight,
      solverNodes: ei.solverNodes,
    },
    openings: {
      minPlies: ei.openingPlies,
      maxPlies: ei.openingPliesMax ?? ei.openingPlies,
      balanced: ei.balancedOpenings,
    },
    endgameSeeds: ei.solverEndgameSeeds,
  }));
}
