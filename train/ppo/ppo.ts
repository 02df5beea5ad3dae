import type { Random } from '../../env/random.ts';
import type { TrainConfig } from '../config/schema.ts';
import type { SearchBufferContents } from '../expert-iteration/replay-buffer.ts';
import type { TrainingAlgorithm } from '../training-algorithm.ts';
import type { PolicyUpdater, UpdateStats } from './policy-update.ts';
import { estimateAdvantages, type RolloutBuffer } from './rollout-buffer.ts';
import type { RolloutStats, SelfPlay } from './rollouts.ts';

/**
 * PPO or REINFORCE: rollouts of the sampled policy (against itself, pool
 * snapshots and baselines), advantages by GAE, then the clipped or plain
 * policy-gradient update.
 */
export class PolicyGradient implements TrainingAlgorithm {
  constructor(
    readonly selfPlay: SelfPlay,
    readonly buffer: RolloutBuffer,
    readonly updater: PolicyUpdater,
    private readonly config: TrainConfig,
  ) {}

  reset(seed: number, rng: Random): void {
    this.selfPlay.reset(seed, rng);
  }

  async collect(rng: Random): Promise<RolloutStats> {
    const stats = await this.selfPlay.collect(this.config.rolloutSteps, this.buffer, rng);
    estimateAdvantages(this.buffer, this.config);
    return stats;
  }

  update(rng: Random): UpdateStats {
    return this.updater.update(this.buffer, rng);
  }

  /** Each PPO iteration learns from its own games only. */
  replay(): null {
    return null;
  }

  restoreReplay(saved: SearchBufferContents | null): void {
    if (saved !== null)
      throw new RangeError('holds a replay window, which PPO and REINFORCE never keep');
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}
