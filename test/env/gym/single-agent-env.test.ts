import { describe, expect, it } from 'vitest';
import type { Agent, AgentContext } from '../../../agents/agent.ts';
import {
  checkEnv,
  EnvOptionsError,
  EpisodeStateError,
  SingleAgentEnv,
  type SingleAgentEnvOptions,
} from '../../../env/gym/index.ts';
import { outcome, type Position, playMove, Random } from '../../../env/index.ts';

/** Uniform over the legal actions, with the game's generator. */
const randomAgent: Agent = {
  name: 'random',
  act: (_pos: Position, ctx: AgentContext) => ctx.rng.pick(ctx.legal),
};

/** Like randomAgent, but answers later, as an external engine would. */
const asyncAgent: Agent = {
  name: 'async-random',
  act: async (_pos: Position, ctx: AgentContext) => {
    await new Promise((resolve) => setImmediate(resolve));
    return ctx.rng.pick(ctx.legal);
  },
};

/** Always the highest legal pit: deterministic. */
const lastPitAgent: Agent = { name: 'last', act: (_pos, ctx) => ctx.legal.at(-1) as number };

const VARIANTS: [string, SingleAgentEnvOptions][] = [
  ['random seat, random opponent', { opponent: randomAgent }],
  ['seat 0', { opponent: randomAgent, learnerSeat: 0 }],
  ['seat 1, async opponent', { opponent: asyncAgent, learnerSeat: 1 }],
  [
    'lookahead + captureReward',
    { opponent: lastPitAgent, observation: { lookahead: true }, captureReward: 1 },
  ],
  ['illegalAction lose', { opponent: randomAgent, illegalAction: 'lose' }],
  [
    'random openings, short maxPlies',
    { opponent: randomAgent, randomOpeningPlies: 3, maxPlies: 9 },
  ],
];

describe('SingleAgentEnv passes checkEnv', () => {
  it.each(VARIANTS)('%s', async (_name, options) => {
    const report = await checkEnv(() => new SingleAgentEnv(options), { seed: 8, episodes: 4 });
    expect(report.episodes).toBe(4);
  });
});

describe('SingleAgentEnv', () => {
  it('plays random episodes from the learner side; the opponent answers inside step', async () => {
    const env = new SingleAgentEnv({ opponent: randomAgent });
    const rng = Random.fromSeed(1);
    const seats = new Set<number>();
    for (let episode = 0; episode < 20; episode++) {
      let { info } = await env.reset({ seed: episode });
      const learner = info.learner;
      seats.add(learner);
      expect(info.toMove).toBe(learner);
      if (learner === 1) expect(info.opponentMove?.player).toBe(0);
      let total = 0;
      for (;;) {
        const before = info.position;
        const action = rng.pick(info.legalActions);
        const res = await env.step(action);
        total += res.reward;
        expect(res.info.learnerMove).toEqual(playMove(before, action, env.rules).report);
        expect(res.info.rewards[learner]).toBe(res.reward);
        if (res.terminated || res.truncated) {
          const result = outcome(res.info.position, env.rules);
          const expected = result?.winner === null ? 0 : result?.winner === learner ? 1 : -1;
          expect(total).toBe(expected);
          break;
        }
        expect(res.info.toMove).toBe(learner);
        expect(res.info.opponentMove?.player).toBe(1 - learner);
        info = res.info;
      }
    }
    expect(seats).toEqual(new Set([0, 1]));
  });

  it("draws the learner's seat from the reset seed", async () => {
    const seatsOf = async (env: SingleAgentEnv) => {
      const seats: number[] = [];
      for (let seed = 0; seed < 12; seed++) seats.push((await env.reset({ seed })).info.learner);
      return seats;
    };
    const a = await seatsOf(new SingleAgentEnv({ opponent: randomAgent }));
    const b = await seatsOf(new SingleAgentEnv({ opponent: randomAgent }));
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(2);
    expect(await seatsOf(new SingleAgentEnv({ opponent: randomAgent, learnerSeat: 1 }))).toEqual(
      new Array(12).fill(1),
    );
  });

  it('calls newGame on the opponent at each reset', async () => {
    let games = 0;
    const env = new SingleAgentEnv({ opponent: { ...randomAgent, newGame: () => games++ } });
    await env.reset({ seed: 1 });
    await env.reset();
    expect(games).toBe(2);
  });

  it('an opponent that plays an illegal action is an error naming it', async () => {
    const cheat: Agent = { name: 'cheat', act: () => 9 };
    const env = new SingleAgentEnv({ opponent: cheat, learnerSeat: 0 });
    await env.reset({ seed: 0 });
    await expect(env.step(0)).rejects.toThrow(/opponent cheat chose illegal action 9/);
  });

  it('rejects overlapping calls', async () => {
    const env = new SingleAgentEnv({ opponent: asyncAgent, learnerSeat: 0 });
    await env.reset({ seed: 0 });
    const first = env.step(0);
    await expect(env.step(1)).rejects.toThrow(EpisodeStateError);
    await first;
  });

  it('gives up on a start where the opponent always ends the game at once', async () => {
    // Player 0's (the opponent's) only move leaves player 1 unable to feed it: game over.
    const env = new SingleAgentEnv({
      opponent: randomAgent,
      learnerSeat: 1,
      startPosition: '0,0,0,0,0,1/1,0,0,0,0,0/24-22/0',
    });
    await expect(env.reset({ seed: 0 })).rejects.toThrow(/opponent ends the game/);
  });

  it('validates its options', () => {
    expect(() => new SingleAgentEnv({ opponent: {} as Agent })).toThrow(EnvOptionsError);
    expect(() => new SingleAgentEnv({ opponent: randomAgent, learnerSeat: 2 as 0 })).toThrow(
      /learnerSeat/,
    );
    expect(() => new SingleAgentEnv({ opponent: randomAgent, maxPlies: -4 })).toThrow(/maxPlies/);
  });
});
