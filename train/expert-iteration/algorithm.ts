import { defineAlgorithm } from '../algorithm/descriptor.ts';
import type { ConfigLayer } from '../settings/layer.ts';
import { expertIterationMemory } from './memory.ts';
import { expertIterationSettingsSchema } from './settings.ts';
import { expertIterationShards } from './shards.ts';

/**
 * Expert iteration as `npm start` and the pretrained policy run it: eight
 * self-play shards (the run is the same on any number of cores), each update
 * two epochs over the last two iterations' games, value targets half outcome,
 * half search value, openings of 0-8 random plies, balanced
 * (docs/experiments/2026-12-05-shards-and-slices-on-two-cores.md).
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
     * takes longer (docs/training.md#the-time-limit). How each setting was
     * chosen: docs/experiments/2026-12-01-quick-preset-history.md and the
     * pages on the quick preset after it.
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
     * The shipped pretrained policy (under an hour on 2 cores): `quick` with a
     * wider and deeper network, evaluated against minimax:4 too. How it was
     * chosen: docs/experiments/2026-12-03-pretrained-4x256.md,
     * 2026-12-03-pretrained-thermometer-board.md and the pages they link.
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
    return buildExpertIteration(parts, config, options);
  },
  memory: expertIterationMemory,
  shards: expertIterationShards,
});
