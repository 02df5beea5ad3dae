import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { RandomAgent } from '../../agents/random.ts';
import { applyAction, initialPosition, outcome } from '../../env/index.ts';
import { playMatch } from '../../eval/match.ts';

describe('playMatch', () => {
  it('plays half the games from each seat, each opening once from each seat', async () => {
    const result = await playMatch({
      a: new GreedyAgent(),
      b: new RandomAgent(),
      games: 20,
      seed: 4,
    });
    expect(result.records).toHaveLength(20);
    expect(result.records.filter((r) => r.aSeat === 0)).toHaveLength(10);
    for (let k = 0; k < 10; k++) {
      const [first, second] = [result.records[2 * k], result.records[2 * k + 1]];
      expect(first?.openingMoves).toEqual(second?.openingMoves);
      expect(first?.players).toEqual(['greedy', 'random']);
      expect(second?.players).toEqual(['random', 'greedy']);
    }
    expect(new Set(result.records.map((r) => r.openingMoves.join(''))).size).toBeGreaterThan(5);
  });

  it("records each game's moves: from the start, the opening and then the agents' actions end it as recorded", async () => {
    const result = await playMatch({
      a: new GreedyAgent(),
      b: new RandomAgent(),
      games: 6,
      seed: 8,
    });
    for (const r of result.records) {
      expect(r.openingMoves.length + r.actions.length).toBe(r.plies);
      let pos = initialPosition();
      for (const action of [...r.openingMoves, ...r.actions]) pos = applyAction(pos, action);
      expect(outcome(pos)?.scores).toEqual(r.scores);
    }
  });

  it("counts wins, draws and losses from a's side, with the score and its interval", async () => {
    const result = await playMatch({
      a: new GreedyAgent(),
      b: new RandomAgent(),
      games: 40,
      seed: 5,
    });
    let wins = 0;
    let draws = 0;
    for (const r of result.records) {
      if (r.winner === null) draws++;
      else if (r.winner === r.aSeat) wins++;
    }
    expect(result.wins).toBe(wins);
    expect(result.draws).toBe(draws);
    expect(result.wins + result.draws + result.losses).toBe(40);
    expect(result.score).toBeCloseTo((wins + draws / 2) / 40, 12);
    expect(result.ci[0]).toBeLessThan(result.score);
    expect(result.ci[1]).toBeGreaterThan(result.score);
  });

  it('is repeatable: the same seed gives the same games, another seed others', async () => {
    const run = async (seed: number) =>
      (
        await playMatch({ a: new GreedyAgent(), b: new RandomAgent(), games: 10, seed })
      ).records.map(({ seconds: _, ...r }) => r);
    expect(await run(7)).toEqual(await run(7));
    expect(await run(7)).not.toEqual(await run(8));
  });

  it('counts forfeits per side and keeps playing', async () => {
    const flaky: Agent = {
      name: 'flaky',
      act: (_p, ctx) => {
        if (ctx.rng.next() < 0.3) throw new Error('lost connection');
        return ctx.legal[0] as number;
      },
    };
    const result = await playMatch({ a: flaky, b: new RandomAgent(), games: 12, seed: 1 });
    expect(result.records).toHaveLength(12);
    expect(result.forfeits.a).toBeGreaterThan(0);
    expect(result.forfeits.b).toBe(0);
    expect(
      result.records.filter((r) => r.forfeit !== null).every((r) => r.winner !== r.aSeat),
    ).toBe(true);
  });

  it('rejects bad settings', async () => {
    const a = new RandomAgent();
    await expect(playMatch({ a, b: a, games: 0 })).rejects.toThrow(/games/);
    await expect(playMatch({ a, b: a, games: 2, openingPlies: -1 })).rejects.toThrow(
      /opening plies/,
    );
    await expect(playMatch({ a, b: a, games: 2, seed: 1.5 })).rejects.toThrow(/seed/);
  });
});
