import type { Random } from '../env/random.ts';
import type { UpdateStats } from './policy-update.ts';
import type { SearchBuffer } from './search-buffer.ts';
import type { SearchSelfPlay } from './search-self-play.ts';
import type { SearchTargetUpdater } from './search-update.ts';
import type { RolloutStats } from './self-play.ts';
import type { TrainingAlgorithm } from './training-algorithm.ts';

/**
 * Expert iteration (AlphaZero without its replay buffer): every self-play
 * move comes from a search that uses the current network, and the network
 * learns the search's improved policy and the games' outcomes. Each
 * iteration trains on the positions of the games that ended in it.
 */
export class AlphaZero implements TrainingAlgorithm {
  constructor(
    readonly selfPlay: SearchSelfPlay,
    readonly buffer: SearchBuffer,
    readonly updater: SearchTargetUpdater,
    private readonly movesPerIteration: number,
  ) {}

  reset(_seed: number, rng: Random): void {
    this.selfPlay.reset(rng);
  }

  collect(rng: Random): Promise<RolloutStats> {
    return Promise.resolve(this.selfPlay.collect(this.movesPerIteration, this.buffer, rng));
  }

  update(rng: Random): UpdateStats {
    return this.updater.update(this.buffer, rng);
  }
}
