import { z } from 'zod';
import { type ConfigOf, setting } from '../settings/schema.ts';

/** The algorithms this folder trains: PPO (clipped), and REINFORCE for comparison. */
export type PolicyGradientName = 'ppo' | 'reinforce';

const openingPlies = z.number().int().min(0).max(20);

/** PPO's and REINFORCE's settings: rollouts of the sampled policy against itself, pool snapshots and baselines. */
export const ppoSettingsSchema = z
  .object({
    numEnvs: setting(z.number().int().min(1).max(8192).default(256), {
      description: 'environments stepped in lockstep',
      unit: 'games at once',
    }),
    rolloutSteps: setting(z.number().int().min(1).max(4096).default(32), {
      description: 'steps per environment per iteration',
      unit: 'steps',
    }),
    epochs: setting(z.number().int().min(1).max(50).default(4), {
      description: 'passes over each rollout (REINFORCE: always 1)',
      unit: 'passes',
    }),
    clip: setting(z.number().positive().max(1).default(0.2), { description: 'PPO clip range' }),
    gamma: setting(z.number().min(0).max(1).default(1), { description: 'discount per own move' }),
    gaeLambda: setting(z.number().min(0).max(1).default(0.95), {
      description: 'GAE lambda (REINFORCE: 1, Monte Carlo returns)',
    }),
    entropyCoef: setting(z.number().min(0).default(0.01), { description: 'entropy bonus weight' }),
    openingPlies: setting(openingPlies.default(4), {
      description: 'random plies at the start of each training game',
      unit: 'plies',
    }),
    poolShare: setting(z.number().min(0).max(1).default(0.2), {
      description: 'share of games against earlier snapshots of the policy',
      unit: 'of games',
    }),
    poolSize: setting(z.number().int().min(1).max(100).default(10), {
      description: 'snapshots kept in the opponent pool',
      unit: 'snapshots',
    }),
    snapshotEvery: setting(z.number().int().min(1).default(5), {
      description: 'iterations between snapshots added to the pool',
      unit: 'iterations',
    }),
    baselineShare: setting(z.number().min(0).max(1).default(0), {
      description: 'share of games against baseline agents',
      unit: 'of games',
    }),
    baselineOpponents: setting(z.array(z.string()).default(['greedy']), {
      description: 'baseline agent specs used as training opponents',
      agents: true,
    }),
  })
  .strict()
  .superRefine((ppo, ctx) => {
    if (ppo.baselineShare > 0 && ppo.baselineOpponents.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['baselineShare'],
        message: `is ${ppo.baselineShare} but baselineOpponents is empty: name baseline opponents or set baselineShare to 0`,
      });
    }
  });
export type PpoSettings = z.output<typeof ppoSettingsSchema>;

/** The config of a PPO or REINFORCE run. */
export type PpoConfig = ConfigOf<PolicyGradientName, 'ppo', PpoSettings>;
