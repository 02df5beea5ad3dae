import type { Random } from '../../env/random.ts';
import type { ForwardPass } from '../../models/mlp-runner.ts';
import { cachedEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import type { ShardPlay, ShardPlayer } from '../shards/protocol.ts';
import { type LoggedPositions, PositionLog } from './position-log.ts';
import { type GamesInProgress, SearchSelfPlay } from './search-self-play.ts';
import type { ShardSetup } from './shard-setup.ts';
import { TrainingOpenings } from './training-openings.ts';

/**
 * One of expert iteration's self-play shards in one thread: its share of the
 * games searched with the network. Each iteration carries the games on (or
 * starts fresh ones) for its moves and gives back the positions of the games
 * that ended, with the search's targets.
 */
export class SearchShardPlayer implements ShardPlayer<GamesInProgress, LoggedPositions> {
  readonly selfPlay: SearchSelfPlay;

  constructor(forward: ForwardPass, setup: ShardSetup) {
    const { rules, solverNodes } = setup.selfPlay;
    const openings = new TrainingOpenings(setup.openings, rules);
    const endgame =
      solverNodes > 0 && setup.endgameSeeds > 0 ? cachedEndgame(setup.endgameSeeds, rules) : null;
    this.selfPlay = new SearchSelfPlay(forward, setup.selfPlay, openings, endgame);
  }

  /**
   * `local`: the positions come with their observations, encoded here (on a
   * worker thread beside the other shards rather than on the learner's thread
   * while the workers wait); not for a queue's worker, whose results cross the
   * network (an observation is 70 times a state's bytes).
   */
  play(
    games: GamesInProgress | null,
    moves: number,
    rng: Random,
    local: boolean,
  ): ShardPlay<GamesInProgress, LoggedPositions> {
    const { selfPlay } = this;
    if (games === null) selfPlay.reset(rng);
    else selfPlay.importGames(games);
    const log = new PositionLog();
    const { evaluations, proven, ...stats } = selfPlay.collect(moves, log, rng);
    const start = performance.now();
    const positions = log.positions(local ? selfPlay.encoder : undefined);
    return {
      carry: selfPlay.exportGames(),
      output: positions,
      stats: {
        ...stats,
        // The shard's seconds (benchmarks weigh the shards by them) include the encoding.
        seconds: stats.seconds + (performance.now() - start) / 1000,
        tallies: { evaluations, proven },
      },
    };
  }
}
