import { observationSize } from '../../env/gym/observation.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { defineAlgorithm } from '../algorithm/descriptor.ts';
import { parameters, part } from '../memory/parts.ts';
import { observationOf } from '../settings/schema.ts';
import { type PpoConfig, ppoSettingsSchema } from './settings.ts';

/** The rollouts and the opponent pool, the arrays a PPO run grows with its settings. */
function memory(config: PpoConfig) {
  const { ppo } = config;
  const inputs = observationSize(observationOf(config));
  // A step's observation, mask, logits and six scalars (action, reward, value, log-prob, done, return).
  const step = inputs * 4 + NUM_ACTIONS * 4 * 2 + 6 * 4;
  const weights = parameters(inputs, config.hidden) * 4;
  return [
    part('the rollouts', ppo.numEnvs * ppo.rolloutSteps * step + 2 * ppo.numEnvs * inputs * 4, {
      numEnvs: ppo.numEnvs,
      rolloutSteps: ppo.rolloutSteps,
    }),
    part('the opponent pool', ppo.poolSize * weights, {
      poolSize: ppo.poolSize,
      hidden: config.hidden,
    }),
  ];
}

/**
 * PPO (clipped) and REINFORCE with a value baseline (ppo.ts): the learner
 * samples its policy against itself, earlier snapshots of itself and
 * baseline agents in games stepped in lockstep.
 */
export const policyGradient = defineAlgorithm({
  names: { ppo: 'PPO (clipped)', reinforce: 'REINFORCE with a value baseline' },
  title: 'PPO and REINFORCE',
  block: 'ppo',
  settings: ppoSettingsSchema,
  metrics: [
    ['losses/approx_kl', 'approximate KL divergence between old and new policy (PPO)'],
    ['losses/clip_fraction', 'share of samples whose probability ratio was clipped (PPO)'],
    [
      'charts/score_vs_pool',
      'learner score against pool snapshots in this iteration (win 1, draw 0.5; PPO)',
    ],
    [
      'charts/score_vs_baselines',
      'learner score against baseline training opponents in this iteration (PPO)',
    ],
  ],
  presets: {
    /** `npm start` by PPO (5 min 21 s here), for comparison. */
    'quick-ppo': {
      help: '`npm start` by PPO, for comparison',
      settings: {
        algorithm: 'ppo',
        name: 'quickstart-ppo',
        iterations: 450,
        timeLimitMinutes: 9,
        evalEvery: 25,
        ppo: { baselineShare: 0.2, baselineOpponents: ['minimax:1', 'minimax:2'] },
      },
    },
    /** The PPO run that made the earlier pretrained policy (43.9 minutes here), for comparison. */
    'long-ppo': {
      help: 'the run of the earlier pretrained policy, by PPO',
      settings: {
        algorithm: 'ppo',
        name: 'pretrained-ppo',
        iterations: 1500,
        // As the prototype measured: 2 random opening plies in training and evaluation.
        evalOpeningPlies: 2,
        extraEvalOpeningPlies: [4],
        timeLimitMinutes: 52,
        hidden: [256, 256],
        learningRateDecay: true,
        checkpointEvery: 10,
        evalEvery: 50,
        evalOpponents: ['random', 'greedy', 'minimax:2', 'minimax:4'],
        ppo: {
          openingPlies: 2,
          baselineShare: 0.25,
          baselineOpponents: ['minimax:2', 'minimax:4'],
        },
      },
    },
    smoke: { settings: { ppo: { numEnvs: 16, rolloutSteps: 8, epochs: 1 } } },
  },
  whyNoShards:
    "rollouts step all environments in lockstep with the learner's network in one process",
  async build(parts, config, options) {
    const { buildPolicyGradient } = await import('./ppo.ts');
    return buildPolicyGradient(parts, config, options.workers, options.files);
  },
  memory,
  opponents: (config) => config.ppo.baselineOpponents,
});
