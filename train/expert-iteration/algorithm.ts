import { defineAlgorithm } from '../algorithm-descriptor.ts';
import type { ConfigLayer } from '../config/layer.ts';
import { expertIterationMemory, shardMemory } from './memory.ts';
import { expertIterationSettingsSchema } from './settings.ts';

/**
 * Expert iteration as `npm start` and the pretrained policy run it: its
 * searches in eight self-play shards (the run is the same on any number of
 * cores; eight keep 8 cores busy and cost nothing on 2: docs/experiments/
 * 2026-12-05-shards-and-slices-on-two-cores.md),
 * each update two epochs over the last two iterations' games, value targets
 * half outcome, half search value, openings of 0-8 random plies, balanced.
 */
const PRESET_BASE = {
  algorithm: 'expert-iteration' as const,
  learningRate: 1e-3,
  learningRateDecay: true,
  valueCoef: 1,
  extraEvalOpeningPlies: [2],
  expertIteration: {
    simulations: 16,
    selfPlayShards: 8,
    searchValueWeight: 0.5,
    replayIterations: 2,
    epochs: 2,
    openingPlies: 0,
    openingPliesMax: 8,
    balancedOpenings: true,
  },
} satisfies ConfigLayer;

/**
 * Expert iteration (expert-iteration.ts): every self-play move is chosen by
 * a search with the network, which learns the search's improved policy and
 * the outcome; its self-play runs in shards, on this machine's threads or on
 * the queue's workers.
 */
export const expertIteration = defineAlgorithm({
  names: {
    'expert-iteration':
      'expert iteration (AlphaZero-style: every self-play move by a Gumbel search with the network, which learns the search’s improved policy and the outcome)',
  },
  title: 'expert iteration',
  block: 'expertIteration',
  settings: expertIterationSettingsSchema,
  // Its name before it was `--games-at-once`.
  aliases: { 'num-envs': 'gamesAtOnce' },
  hints: { 'rollout-steps': 'expert iteration plays --moves-per-iteration moves per iteration' },
  metrics: [
    [
      'self_play/backend',
      "inference of this iteration's self-play shards (expert iteration): `onnx`, `tfjs-wasm` (tfjs and its backend) or `plain`, or each shard's in the shards' order when the workers differed (`onnx onnx tfjs-wasm`)",
    ],
    [
      'self_play/proven_share',
      "share of this iteration's searched positions whose value the rescoring solver proved (expert iteration with solverNodes; 0 without)",
    ],
  ],
  presets: {
    /**
     * `npm start`: a small agent in minutes on 2 cores. No time limit: the
     * same seed trains the same network on every machine, a slower one only
     * takes longer (the progress bar shows when it will end); a limit cut
     * runs short on loaded machines, and each cut trained another network
     * (docs/training.md#the-time-limit). Each setting here beat
     * the one before it against minimax:4 on fresh openings and on the accuracy
     * benchmark (docs/experiments/): a learning rate of 0.003 rather than 0.001
     * (with four epochs, 38.5% against 34.0%); the board as a thermometer (seeds
     * >= 1 .. >= 12 per pit) rather than seeds / 12 (45.1% against 41.4% over
     * three training seeds); two 256-wide layers with two epochs an update
     * rather than two 128-wide ones with four (50.4% against 45.6% over three
     * seeds, a point fewer errors on the hold-out, for about a sixth more time).
     */
    quick: {
      help: '`npm start`: a small agent by expert iteration in minutes',
      settings: {
        ...PRESET_BASE,
        name: 'quickstart',
        iterations: 240,
        evalEvery: 40,
        encoding: 'thermometer',
        hidden: [256, 256],
        learningRate: 3e-3,
      },
    },
    /**
     * The shipped pretrained policy (under an hour on 2 cores): expert iteration
     * as `quick` with a wider and deeper network, evaluated against minimax:4 too.
     * Three 256-wide layers beat two 57.5% head to head as policies alone; four,
     * trained for 2100 iterations, beat three (1300 iterations) 55.8%. An
     * iteration takes 1.2-1.6 s on the 2-core machines it was made on, so 2100
     * fit in 43-57 minutes and the learning rate decays to zero as they end; the
     * time limit stops a slower machine before the hour. The board as a
     * thermometer, as in `quick`: at 2100 iterations it beat the counts network
     * 52.2% head to head and scored 51.1% against minimax:6 to its 49.0% over
     * 12 000 games (docs/experiments/2026-12-03-pretrained-thermometer-board.md).
     */
    long: {
      help: 'the shipped pretrained policy, under an hour',
      settings: {
        ...PRESET_BASE,
        name: 'pretrained',
        iterations: 2100,
        timeLimitMinutes: 58,
        encoding: 'thermometer',
        hidden: [256, 256, 256, 256],
        checkpointEvery: 10,
        evalEvery: 50,
        evalOpponents: ['random', 'greedy', 'minimax:2', 'minimax:4'],
      },
    },
    smoke: {
      settings: { expertIteration: { gamesAtOnce: 16, movesPerIteration: 16 * 8, epochs: 1 } },
    },
  },
  async build(parts, config, options) {
    const { buildExpertIteration } = await import('./expert-iteration.ts');
    return buildExpertIteration(parts, config, options.workers, options.shardRunner);
  },
  memory: expertIterationMemory,
  shards: {
    count: (config) => config.expertIteration.selfPlayShards,
    async setups(config, inference) {
      const { shardSetups } = await import('./expert-iteration.ts');
      return shardSetups(config, inference);
    },
    memory: shardMemory,
  },
});
