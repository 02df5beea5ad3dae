import type * as tfType from '@tensorflow/tfjs';
import type { Agent } from '../../agents/agent.ts';
import { STATE_SIZE } from '../../env/core.ts';
import type { ObservationConfig } from '../../env/gym/observation.ts';
import { VectorEnv } from '../../env/gym/vector-env.ts';
import { bytesToMask, maskActions } from '../../env/mask.ts';
import { positionFromState } from '../../env/position.ts';
import { type Random, sampleIndex } from '../../env/random.ts';
import type { Rules } from '../../env/rules.ts';
import {
  type InferenceEngine,
  type NetworkInference,
  withWeights,
} from '../../models/inference/inference-engine.ts';
import { maskedSoftmax, NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { extractMlpWeights, type NetworkConfig } from '../../models/policy-value-model.ts';
import type { SelfPlayStats } from '../iteration-stats.ts';
import type { OpponentPool } from './opponent-pool.ts';
import type { RolloutBuffer } from './rollout-buffer.ts';

/** Who plays the seat the learner does not hold in an environment's current game. */
const SELF = 0;
const POOL = 1;
const BASELINE = 2;

export interface OpponentMix {
  readonly poolShare: number;
  readonly baselineShare: number;
}

/** A rollout's statistics: the shared ones, and the results against pool snapshots and baselines. */
export interface RolloutStats extends SelfPlayStats {
  /** Results of finished games against pool snapshots and baselines, from the learner's side. */
  poolGames: number;
  poolScore: number;
  baselineGames: number;
  baselineScore: number;
}

/** Statistics of a rollout that has not started. */
function emptyRolloutStats(): RolloutStats {
  return {
    plies: 0,
    games: 0,
    learnerSamples: 0,
    seconds: 0,
    poolGames: 0,
    poolScore: 0,
    baselineGames: 0,
    baselineScore: 0,
    meanGamePlies: 0,
  };
}

/**
 * PPO's self-play rollouts through a VectorEnv: every step makes one batched
 * inference call for all environments (on the inference engine, with the
 * learner's weights as they are when a collection starts), then each
 * environment's mover acts — the learner (sampling its policy), a pool
 * snapshot or a baseline agent.
 */
export class PolicyRollouts {
  readonly env: VectorEnv;
  private readonly n: number;
  private readonly obsSize: number;
  private readonly logits: Float32Array;
  private readonly values: Float32Array;
  private readonly probs = new Float32Array(NUM_ACTIONS);
  private readonly actions: Uint8Array;
  private readonly mode: Uint8Array;
  private readonly learnerSeat: Uint8Array;
  private readonly opponentIndex: Int32Array;
  /** The learner's latest sample per (env, player), awaiting the player's next move. */
  private readonly pending: Int32Array;
  private readonly scratchObs: Float32Array;
  private readonly scratchLogits: Float32Array;
  private readonly scratchValues: Float32Array;
  private readonly rowsBySnapshot: number[][] = [];
  private inference: NetworkInference | null = null;

  constructor(
    private readonly model: tfType.LayersModel,
    private readonly network: NetworkConfig,
    private readonly engine: InferenceEngine,
    options: {
      numEnvs: number;
      seed: number;
      rules: Rules;
      observation: ObservationConfig;
      maxPlies: number;
      openingPlies: number;
    },
    private readonly pool: OpponentPool,
    private readonly baselines: readonly Agent[],
    private readonly mix: OpponentMix,
    private readonly rules: Rules,
  ) {
    this.env = new VectorEnv({
      numEnvs: options.numEnvs,
      seed: options.seed,
      rules: options.rules,
      observation: options.observation,
      maxPlies: options.maxPlies,
      randomOpeningPlies: options.openingPlies,
    });
    this.n = options.numEnvs;
    this.obsSize = this.env.obsSize;
    this.logits = new Float32Array(this.n * NUM_ACTIONS);
    this.values = new Float32Array(this.n);
    this.actions = new Uint8Array(this.n);
    this.mode = new Uint8Array(this.n);
    this.learnerSeat = new Uint8Array(this.n);
    this.opponentIndex = new Int32Array(this.n);
    this.pending = new Int32Array(this.n * 2).fill(-1);
    this.scratchObs = new Float32Array(this.n * this.obsSize);
    this.scratchLogits = new Float32Array(this.n * NUM_ACTIONS);
    this.scratchValues = new Float32Array(this.n);
  }

  /** Starts fresh games in every environment (at run start and each checkpoint boundary). */
  reset(seed: number, rng: Random): void {
    this.env.reset(seed);
    for (let i = 0; i < this.n; i++) this.assignOpponent(i, rng);
  }

  private assignOpponent(i: number, rng: Random): void {
    const u = rng.next();
    if (u < this.mix.baselineShare && this.baselines.length > 0) {
      this.mode[i] = BASELINE;
      this.opponentIndex[i] = rng.int(this.baselines.length);
    } else if (u < this.mix.baselineShare + this.mix.poolShare && this.pool.size > 0) {
      this.mode[i] = POOL;
      this.opponentIndex[i] = this.pool.pickIndex(rng);
    } else {
      this.mode[i] = SELF;
    }
    this.learnerSeat[i] = rng.int(2);
  }

  private learnerMoves(i: number, mover: number): boolean {
    return this.mode[i] === SELF || this.learnerSeat[i] === mover;
  }

  private sample(logits: Float32Array, row: number, masks: Uint8Array, rng: Random): number {
    maskedSoftmax(logits, row * NUM_ACTIONS, masks, row * NUM_ACTIONS, this.probs, 0);
    return sampleIndex(rng, this.probs);
  }

  /** Collects `steps` steps in every environment into `buffer` (cleared first). */
  async collect(steps: number, buffer: RolloutBuffer, rng: Random): Promise<RolloutStats> {
    const start = performance.now();
    const env = this.env;
    const weights = extractMlpWeights(this.model, this.network);
    this.inference = await withWeights(this.engine, this.inference, weights, { batched: true });
    buffer.clear();
    this.pending.fill(-1);
    const stats = emptyRolloutStats();
    let gamePlies = 0;
    for (let t = 0; t < steps; t++) {
      this.inferAll();
      for (const rows of this.rowsBySnapshot) rows.length = 0;
      for (let i = 0; i < this.n; i++) {
        const mover = env.toMove[i] as number;
        if (this.learnerMoves(i, mover)) {
          const a = this.sample(this.logits, i, env.masks, rng);
          this.actions[i] = a;
          const k = buffer.add(
            env.observations,
            i,
            env.masks,
            a,
            Math.log(this.probs[a] as number),
            this.values[i] as number,
          );
          const slot = i * 2 + mover;
          const previous = this.pending[slot] as number;
          if (previous >= 0) buffer.next[previous] = k;
          this.pending[slot] = k;
        } else if (this.mode[i] === POOL) {
          const s = this.opponentIndex[i] as number;
          while (this.rowsBySnapshot.length <= s) this.rowsBySnapshot.push([]);
          (this.rowsBySnapshot[s] as number[]).push(i);
        } else {
          const agent = this.baselines[this.opponentIndex[i] as number] as Agent;
          const position = positionFromState(
            env.states.subarray(i * STATE_SIZE, (i + 1) * STATE_SIZE),
          );
          const legal = maskActions(bytesToMask(env.masks, i * NUM_ACTIONS));
          this.actions[i] = await agent.act(position, { legal, rng, rules: this.rules });
        }
      }
      this.actSnapshots(rng);
      env.step(this.actions);
      stats.plies += this.n;
      for (let i = 0; i < this.n; i++) {
        if (!env.terminated[i] && !env.truncated[i]) continue;
        const s0 = env.finalScores[i * 2] as number;
        const s1 = env.finalScores[i * 2 + 1] as number;
        // A capped game scores as a draw.
        const r0 = env.truncated[i] ? 0 : Math.sign(s0 - s1);
        for (let p = 0; p < 2; p++) {
          const k = this.pending[i * 2 + p] as number;
          if (k < 0) continue;
          buffer.rewards[k] = (buffer.rewards[k] as number) + (p === 0 ? r0 : -r0);
          buffer.dones[k] = 1;
          this.pending[i * 2 + p] = -1;
        }
        stats.games++;
        gamePlies += env.episodePlies[i] as number;
        const learnerScore = ((this.learnerSeat[i] === 0 ? r0 : -r0) + 1) / 2;
        if (this.mode[i] === POOL) {
          stats.poolGames++;
          stats.poolScore += learnerScore;
        } else if (this.mode[i] === BASELINE) {
          stats.baselineGames++;
          stats.baselineScore += learnerScore;
        }
        this.assignOpponent(i, rng);
      }
    }
    // Unfinished chains bootstrap from the current position's value, negated
    // when the opponent is the one to move (the value is zero-sum).
    this.inferAll();
    for (let i = 0; i < this.n; i++) {
      for (let p = 0; p < 2; p++) {
        const k = this.pending[i * 2 + p] as number;
        if (k < 0) continue;
        const v = this.values[i] as number;
        buffer.bootstrap[k] = env.toMove[i] === p ? v : -v;
      }
    }
    stats.learnerSamples = buffer.size;
    stats.seconds = (performance.now() - start) / 1000;
    stats.meanGamePlies = stats.games > 0 ? gamePlies / stats.games : 0;
    if (stats.poolGames > 0) stats.poolScore /= stats.poolGames;
    if (stats.baselineGames > 0) stats.baselineScore /= stats.baselineGames;
    return stats;
  }

  /** The learner's logits and values for every environment, in one call. */
  private inferAll(): void {
    (this.inference as NetworkInference).forward(
      this.env.observations,
      this.n,
      this.logits,
      this.values,
    );
  }

  /** Releases the learner's session. */
  dispose(): void {
    this.inference?.dispose();
    this.inference = null;
  }

  /** Each pool snapshot moves in its environments with one batched forward pass. */
  private actSnapshots(rng: Random): void {
    const env = this.env;
    const o = this.obsSize;
    for (let s = 0; s < this.rowsBySnapshot.length; s++) {
      const rows = this.rowsBySnapshot[s] as number[];
      if (rows.length === 0) continue;
      rows.forEach((i, r) => {
        this.scratchObs.set(env.observations.subarray(i * o, (i + 1) * o), r * o);
      });
      this.pool
        .get(s)
        .forward(this.scratchObs, rows.length, this.scratchLogits, this.scratchValues);
      rows.forEach((i, r) => {
        // Copy the row's logits next to its mask index so `sample` can read both.
        for (let a = 0; a < NUM_ACTIONS; a++) {
          this.logits[i * NUM_ACTIONS + a] = this.scratchLogits[r * NUM_ACTIONS + a] as number;
        }
        this.actions[i] = this.sample(this.logits, i, env.masks, rng);
      });
    }
  }
}
