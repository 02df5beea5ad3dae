import type { Random } from '../../env/random.ts';
import type { UpdateStats } from '../ppo/policy-update.ts';
import type { RolloutStats } from '../ppo/rollouts.ts';
import type { TrainingAlgorithm } from '../training-algorithm.ts';
import type { SearchBuffer, SearchBufferContents } from './replay-buffer.ts';
import type { SearchTargetUpdater } from './search-update.ts';
import type { ShardedSelfPlay } from './sharded-self-play.ts';

/**
 * Expert iteration (AlphaZero at a small scale): every self-play move comes
 * from a search that uses the current network, and the network learns the
 * search's improved policy and the games' outcomes (optionally mixed with the
 * search's root values). Each iteration trains on the positions of the games
 * that ended in its replay window of recent iterations, which checkpoints
 * keep so that resume stays exact.
 */
export class AlphaZero implements TrainingAlgorithm {
  constructor(
    readonly selfPlay: ShardedSelfPlay,
    readonly buffer: SearchBuffer,
    readonly updater: SearchTargetUpdater,
    private readonly movesPerIteration: number,
  ) {}

  reset(_seed: number, rng: Random): void {
    this.selfPlay.reset(rng);
  }

  collect(_rng: Random): Promise<RolloutStats> {
    // The shards draw from generators seeded at `reset`.
    return this.selfPlay.collect(this.movesPerIteration, this.buffer);
  }

  update(rng: Random): UpdateStats {
    return this.updater.update(this.buffer, rng);
  }

  replay(): SearchBufferContents {
    return this.buffer.contents();
  }

  restoreReplay(saved: SearchBufferContents | null): void {
    if (saved === null) this.buffer.clear();
    else this.buffer.restore(saved);
  }

  dispose(): Promise<void> {
    return this.selfPlay.dispose();
  }
}
