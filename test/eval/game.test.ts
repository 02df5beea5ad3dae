import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.ts';
import { ForfeitError } from '../../agents/forfeit.ts';
import { RandomAgent } from '../../agents/random.ts';
import { DEFAULT_RULES, initialPosition, Random } from '../../env/index.ts';
import { playGame } from '../../eval/game.ts';

const rngs = [Random.fromSeed(1), Random.fromSeed(2)] as const;
const setup = (players: readonly [Agent, Agent], maxPlies?: number) => ({
  players,
  start: initialPosition(),
  openingPlies: 0,
  rules: DEFAULT_RULES,
  rngs,
  ...(maxPlies !== undefined ? { maxPlies } : {}),
});

describe('playGame', () => {
  it('plays to the end and reports the final scores and winner', async () => {
    const result = await playGame(setup([new RandomAgent(), new RandomAgent()]));
    const [s0, s1] = result.scores;
    // Either a store reached 25 (the game ends at once) or the board was swept: 48 in all.
    expect(Math.max(s0, s1) >= 25 || s0 + s1 === 48).toBe(true);
    expect(result.winner).toBe(s0 > s1 ? 0 : s1 > s0 ? 1 : null);
    expect(result.plies).toBeGreaterThan(0);
    expect(result.forfeit).toBeNull();
    expect(result.truncated).toBe(false);
  });

  it('scores an agent that throws as a forfeit, with its reason', async () => {
    const broken: Agent = {
      name: 'broken',
      act: () => {
        throw new ForfeitError('engine exited with code 1');
      },
    };
    const result = await playGame(setup([new RandomAgent(), broken]));
    expect(result.winner).toBe(0);
    expect(result.forfeit).toEqual({ seat: 1, reason: 'broken: engine exited with code 1' });
    expect(result.plies).toBe(1);
  });

  it('scores an illegal action as a forfeit', async () => {
    const cheat: Agent = { name: 'cheat', act: () => 7 };
    const result = await playGame(setup([cheat, new RandomAgent()]));
    expect(result.winner).toBe(1);
    expect(result.forfeit?.reason).toBe(
      'cheat: chose illegal action 7; legal actions: 0, 1, 2, 3, 4, 5',
    );
  });

  it('stops at the ply cap and scores a draw', async () => {
    const result = await playGame(setup([new RandomAgent(), new RandomAgent()], 3));
    expect(result.truncated).toBe(true);
    expect(result.winner).toBeNull();
    expect(result.plies).toBe(3);
  });

  it('tells both agents a new game starts', async () => {
    let calls = 0;
    const counting: Agent = {
      name: 'counting',
      act: (_p, ctx) => ctx.legal[0] as number,
      newGame: () => calls++,
    };
    await playGame(setup([counting, new RandomAgent()]));
    expect(calls).toBe(1);
  });
});
